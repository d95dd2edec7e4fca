/** The reject report: one JSON line per refused row, `{file, line, reason}`, written as rows are refused. */
import { createWriteStream, type WriteStream } from 'node:fs';

export interface Reject {
  file: string;
  line: number;
  reason: string;
}

export interface RejectSink {
  add(reject: Reject): void;
  close(): Promise<void>;
}

/** A report file, created on the first reject only (a clean load leaves no empty file behind). */
export function rejectFile(path: string): RejectSink & { readonly count: number } {
  let stream: WriteStream | null = null;
  let count = 0;
  return {
    get count() {
      return count;
    },
    add(reject) {
      stream ??= createWriteStream(path);
      count++;
      stream.write(`${JSON.stringify(reject)}\n`);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!stream) return resolve();
        stream.end((err?: Error | null) => (err ? reject(err) : resolve()));
      }),
  };
}
