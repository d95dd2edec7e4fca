/** What readers hand the importer: one row of a file, parsed into a record or rejected with a reason. */
import type { IdentityRecord } from '../record';

export interface SourceRowBase {
  file: string;
  line: number;
  /** Bytes of the file read so far. */
  bytes: number;
}

export type SourceRow = SourceRowBase & ({ record: IdentityRecord } | { reason: string });
