/** A file's lines with their 1-based numbers and the bytes read so far (for a progress bar by size). */
import { createReadStream } from 'node:fs';

export interface Line {
  text: string;
  line: number;
  /** Bytes of the file consumed up to and including this line. */
  bytes: number;
}

export async function* readLines(file: string): AsyncGenerator<Line> {
  let rest: Buffer | null = null;
  let line = 0;
  let bytes = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const buffer: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let nl = buffer.indexOf(10, start); nl !== -1; nl = buffer.indexOf(10, start)) {
      const end = nl > start && buffer[nl - 1] === 13 ? nl - 1 : nl;
      bytes += nl + 1 - start;
      yield { text: buffer.toString('utf8', start, end), line: ++line, bytes };
      start = nl + 1;
    }
    rest = start < buffer.length ? buffer.subarray(start) : null;
  }
  if (rest && rest.length > 0) {
    bytes += rest.length;
    yield { text: rest.toString('utf8'), line: ++line, bytes };
  }
}
