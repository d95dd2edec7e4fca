/** HTTP/1.1 by hand over a real socket, for what no client library sends: oversized headers, pipelined requests. */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A connection to a listening server; `closed` holds every byte it sent back once it closes. */
export function rawConnection(port: number): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  const closed = new Promise<string>((resolve) => {
    socket.on('error', () => {}); // a reset after the reply: what was read is the result
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
  return { socket, closed };
}

/** The responses in `text`, in order (each framed by its Content-Length). */
export function parseResponses(text: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = text;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`not an HTTP response: ${JSON.stringify(rest.slice(0, 200))}`);
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const bodyBytes = Buffer.from(rest.slice(end + 4), 'utf8').subarray(0, length);
    const body = bodyBytes.toString('utf8');
    out.push({ status: Number(statusLine!.split(' ')[1]), headers, body });
    rest = rest.slice(end + 4 + body.length);
  }
  return out;
}
