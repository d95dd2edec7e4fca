/** What readers hand the importer: one row of a file, parsed into a record or rejected with a reason. */
import type { IdentityRecord } from '../record';

export interface SourceRowBase {
  file: string;
  line: number;
  /** Bytes of the file read so far. */
  bytes: number;
}

/**
 * A person already turned into COPY text (copy-text.ts, personCopy) by a parsing worker, for the PostgreSQL
 * writer: the id, and one string per table of COPY_TABLES.
 */
export interface PreparedPerson {
  id: number;
  copy: string[];
}

/** What the file readers (jsonl.ts, csv.ts) yield. */
export type ParsedRow = SourceRowBase & ({ record: IdentityRecord } | { reason: string });

export type SourceRow = ParsedRow | (SourceRowBase & { person: PreparedPerson });
