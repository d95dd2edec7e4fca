/** Turning a CsvSource into a fetch body for each attempt. */
import type { CsvBody, CsvSource } from './types.js';

export interface PreparedBody {
  body: BodyInit;
  /** A stream body, which fetch sends with `duplex: 'half'`. */
  stream: boolean;
  /**
   * Stops reading the source (a generator's `finally` runs, a file is closed). fetch does not do it when a call is
   * aborted: Node's goes on draining a stream body to its end, so the client stops its sources itself.
   */
  stop: () => void;
}

type Chunks = AsyncIterator<Uint8Array | string> | Iterator<Uint8Array | string>;

const isReadableStream = (value: unknown): value is ReadableStream<Uint8Array> =>
  typeof ReadableStream !== 'undefined' && value instanceof ReadableStream;

const isBlob = (value: unknown): value is Blob => typeof Blob !== 'undefined' && value instanceof Blob;

const isAsyncIterable = (value: unknown): value is AsyncIterable<Uint8Array | string> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

const isIterable = (value: unknown): value is Iterable<Uint8Array | string> =>
  typeof value === 'object' && value !== null && Symbol.iterator in value;

/** Whether a source can be sent again (and so retried). */
export function isReplayable(source: CsvSource): boolean {
  return (
    typeof source === 'function' ||
    typeof source === 'string' ||
    isBlob(source) ||
    source instanceof ArrayBuffer ||
    ArrayBuffer.isView(source)
  );
}

/** The chunks of a web ReadableStream, by its reader (not every browser can iterate a stream directly). */
function readerChunks(stream: ReadableStream<Uint8Array>): Chunks {
  const reader = stream.getReader();
  return {
    next: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
    return: async (reason?: unknown) => {
      await reader.cancel(reason).catch(() => undefined);
      return { done: true, value: undefined };
    },
  };
}

/** Bytes sent between turns of the event loop (see streamOf). */
const TURN_BYTES = 64 * 1024;

/** Waits for the event loop's next turn, where I/O (the reply) is read. */
const nextTurn = () =>
  new Promise<void>((resolve) => {
    const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
    if (immediate) immediate(resolve);
    else setTimeout(resolve, 0);
  });

/**
 * A web ReadableStream of text or byte chunks, pulled only as fetch sends them; `stop` ends the source. A source that
 * never waits for I/O (a generator over data in memory) would keep fetch writing in microtasks alone, and the reply
 * would not be read until the whole body had gone: every 64 KB the stream lets the event loop turn, so the reply
 * streams back while the upload goes on.
 */
function streamOf(iterator: Chunks): PreparedBody {
  const encoder = new TextEncoder();
  let stopped = false;
  let sinceTurn = 0;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    Promise.resolve(iterator.return?.()).catch(() => undefined);
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (stopped) {
        controller.error(new Error('The upload was stopped.'));
        return;
      }
      if (sinceTurn >= TURN_BYTES) {
        sinceTurn = 0;
        await nextTurn();
      }
      const { value, done } = await iterator.next();
      let bytes: Uint8Array;
      if (done) {
        controller.close();
        return;
      }
      if (typeof value === 'string') bytes = encoder.encode(value);
      else if (ArrayBuffer.isView(value)) bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
      else throw new TypeError('A CSV stream gives text or bytes.');
      sinceTurn += bytes.byteLength;
      controller.enqueue(bytes);
    },
    cancel: stop,
  });
  return { body, stream: true, stop };
}

const nothing = () => undefined;

function fromBody(body: CsvBody): PreparedBody {
  if (typeof body === 'string' || isBlob(body) || body instanceof ArrayBuffer) {
    return { body, stream: false, stop: nothing };
  }
  if (ArrayBuffer.isView(body)) {
    const bytes = new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
    return { body: bytes, stream: false, stop: nothing };
  }
  if (isReadableStream(body)) return streamOf(readerChunks(body));
  if (isAsyncIterable(body)) return streamOf(body[Symbol.asyncIterator]());
  if (isIterable(body)) return streamOf(body[Symbol.iterator]());
  throw new TypeError('A CSV source is text, bytes, a Blob, a ReadableStream, an iterable of chunks or a function.');
}

/** The body for one attempt (a function source is called again each time). */
export async function prepareBody(source: CsvSource): Promise<PreparedBody> {
  return fromBody(typeof source === 'function' ? await source() : source);
}
