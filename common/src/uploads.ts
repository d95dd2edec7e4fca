/**
 * Stored uploads (issue 33 item 3, docs/jobs.md): a CSV sent once with POST /v2/uploads and kept for a stated time,
 * so jobs can be made from it by reference (`POST /v2/jobs?upload=upl_…`), as many as wanted, without sending it again.
 */

/** An upload's public id: `upl_` and 24 hex digits. */
export const UPLOAD_ID_PATTERN = /^upl_[0-9a-f]{24}$/;

/** An upload as the API answers it. */
export interface StoredUpload {
  id: string;
  /** The CSV's header row, as sent. */
  columns: string[];
  /** Rows under the header. */
  rows: number;
  /** Bytes of the CSV as read (after any Content-Encoding was undone). */
  bytes: number;
  /** SHA-256 of those bytes, in hex: a client can check it sent what it meant to. */
  sha256: string;
  createdAt: string;
  /** When it is deleted; jobs made from it keep running past it. */
  expiresAt: string;
}

export const UPLOAD_MESSAGES = {
  body: 'Please POST the CSV as the body (Content-Type: text/csv), a header row first.',
  header: 'The CSV must begin with a header row naming its columns.',
  empty: 'The CSV has a header but no rows.',
  notFound: 'There is no such upload (or it has expired).',
  upload: 'Please give upload as the id of one of your uploads (upl_ and 24 hex digits).',
  bodyAndUpload: 'Please give either a CSV body or an upload, not both.',
  inUse: (job: string) => `The upload is in use by job ${job}, which has not ended; cancel it or wait for it to end.`,
} as const;
