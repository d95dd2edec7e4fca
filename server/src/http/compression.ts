/**
 * Compression both ways (issue 14, decision 0025), with @fastify/compress. Replies are compressed by the caller's
 * Accept-Encoding (brotli, then gzip, then deflate), streamed ones (a PUT lookup's CSV) included, once they are at
 * least COMPRESSION_THRESHOLD bytes: below that the encoding costs more than it saves. Brotli runs at quality 4
 * (the plugin's recommendation; 11, zlib's default, costs many times the CPU for a few per cent).
 *
 * Request bodies sent with Content-Encoding gzip, deflate or br are decompressed as they are read, on every route;
 * the body limit counts the decompressed bytes (Fastify checks both), so a small bomb is refused with 413 before it
 * can grow. Any other encoding is refused with 415 naming it; a body that does not decompress, with 400 naming why.
 * The WebSocket route never reaches the reply hooks (its handler owns the socket), and text/event-stream is never
 * compressed, so nothing long-lived is held back in a compressor's buffer.
 */
import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Replies shorter than this (bytes) go as they are. */
export const COMPRESSION_THRESHOLD = 1024;
/** Brotli quality: 4 of 11. Measured in decision 0025. */
export const BROTLI_QUALITY = 4;
export const REQUEST_ENCODINGS = ['gzip', 'deflate', 'br', 'identity'] as const;

export const COMPRESSION_MESSAGES = {
  unsupported: (encoding: string) =>
    `Content-Encoding ${encoding} is not supported; send the body as it is, or with gzip, deflate or br.`,
  corrupt: (encoding: string, why: string) => `The request body is not valid ${encoding} data (${why}).`,
} as const;

/** Compressible: text, JSON, XML, JavaScript and SVG; never an event stream, whose events must not wait. */
function compressible(type: string): boolean {
  const media = (type.split(';', 1)[0] ?? '').trim().toLowerCase();
  if (media === 'text/event-stream') return false;
  return (
    media.startsWith('text/') ||
    /[/+]json$/.test(media) ||
    /[/+]xml$/.test(media) ||
    media === 'application/javascript' ||
    media === 'image/svg+xml'
  );
}

/** Registered before any route: the plugin adds its hooks to routes as they are declared. */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    encodings: ['br', 'gzip', 'deflate', 'identity'],
    threshold: COMPRESSION_THRESHOLD,
    // Every write is flushed: a streamed reply (a PUT's CSV, written a batch of rows at a time) reaches the client
    // batch by batch, as it does uncompressed, instead of waiting in the compressor for a block to fill, which
    // stalled clients that read a reply's first rows before sending more. A one-piece reply is one write anyway.
    zlibOptions: { flush: constants.Z_SYNC_FLUSH },
    brotliOptions: {
      params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY },
      flush: constants.BROTLI_OPERATION_FLUSH,
    },
    customTypes: compressible,
    requestEncodings: [...REQUEST_ENCODINGS],
    // Plain 4xx errors with a statusCode: the error handler shows their message as it is.
    onUnsupportedRequestEncoding: (encoding) =>
      Object.assign(new Error(COMPRESSION_MESSAGES.unsupported(encoding)), {
        statusCode: 415,
        code: 'FST_CP_ERR_INVALID_CONTENT_ENCODING',
      }),
    // The plugin copies this object's own fields onto the decompressor's error (message included), so plain ones.
    onInvalidRequestPayload: (encoding, _request, error) =>
      ({
        statusCode: 400,
        code: 'FST_CP_ERR_INVALID_CONTENT',
        message: COMPRESSION_MESSAGES.corrupt(encoding, error.message),
      }) as unknown as Error,
  });
}
