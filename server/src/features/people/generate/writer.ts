/**
 * Appends lines to a file through a bounded buffer: memory stays the same however many lines are written. The
 * file is written under a temporary name and renamed when complete, so an interrupted run never leaves a file
 * that looks finished.
 */
import { type FileHandle, open, rename } from 'node:fs/promises';

const FLUSH_AT = 1 << 20;

export class LineWriter {
  private buffer: string[] = [];
  private buffered = 0;
  lines = 0;

  private constructor(
    private readonly handle: FileHandle,
    private readonly partial: string,
    private readonly path: string,
  ) {}

  static async create(path: string): Promise<LineWriter> {
    const partial = `${path}.partial`;
    return new LineWriter(await open(partial, 'w'), partial, path);
  }

  /** Queues a line (no newline in it); call `drain` now and then to write what has piled up. */
  add(line: string): void {
    this.buffer.push(line);
    this.buffered += line.length + 1;
    this.lines++;
  }

  /** Writes the buffer out once it holds about a megabyte. */
  async drain(): Promise<void> {
    if (this.buffered >= FLUSH_AT) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const text = `${this.buffer.join('\n')}\n`;
    this.buffer = [];
    this.buffered = 0;
    await this.handle.write(text);
  }

  /** Writes the rest and gives the file its real name. */
  async finish(): Promise<void> {
    await this.flush();
    await this.handle.close();
    await rename(this.partial, this.path);
  }

  /** Closes and leaves the partial file behind (after an error). */
  async abandon(): Promise<void> {
    await this.handle.close().catch(() => {});
  }
}
