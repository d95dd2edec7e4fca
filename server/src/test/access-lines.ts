/**
 * For tests of the server process: its access lines read back from its output, and requests each sent on a connection
 * of its own (as separate clients send them), so node:cluster hands them to its workers in turn.
 */
import http from 'node:http';
import net from 'node:net';
import type { Child } from './process';

export interface AccessLine {
  reqId: string;
  pid: number;
  statusCode: number;
}

/** The access lines ("request completed") in a child's output (LOG_LEVEL=info), one per request answered. */
export function accessLines(output: string): AccessLine[] {
  const lines: AccessLine[] = [];
  for (const text of output.split('\n')) {
    if (!text.startsWith('{')) continue;
    let line: { msg?: string; reqId?: string; pid?: number; status?: number };
    try {
      line = JSON.parse(text);
    } catch {
      continue;
    }
    if (line.msg === 'request completed') {
      lines.push({ reqId: String(line.reqId), pid: Number(line.pid), statusCode: Number(line.status) });
    }
  }
  return lines;
}

/** The access lines of these request ids, once the (asynchronously written) lines have all come out. */
export async function accessLinesOf(child: Child, ids: string[]): Promise<AccessLine[]> {
  for (let attempt = 0; ; attempt++) {
    const byId = new Map(accessLines(child.output()).map((l) => [l.reqId, l]));
    const found = ids.map((id) => byId.get(id));
    if (found.every((l) => l !== undefined)) return found as AccessLine[];
    if (attempt === 300) throw new Error(`no access line for ${ids.filter((id) => !byId.has(id)).join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Answer {
  status: number;
  /** The x-request-id the server answered with: the reqId of its access line. */
  id: string;
  body: string;
}

/** One request on a new connection, closed after the answer. */
export function requestOnce(
  port: number,
  method: string,
  path: string,
  json?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = json === undefined ? undefined : JSON.stringify(json);
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: {
          connection: 'close',
          'x-requested-with': 'XMLHttpRequest',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode!, id: String(res.headers['x-request-id']), body: text }));
        res.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A sign-in whose headers and half its body are sent: it is in flight until `finish` sends the rest. */
export function halfSignIn(port: number, email: string, password: string) {
  const body = JSON.stringify({ email, password });
  const socket = net.connect(port, '127.0.0.1');
  let response = '';
  socket.on('data', (d) => {
    response += d.toString();
  });
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const half = Math.floor(body.length / 2);
  socket.write(
    `POST /auth/login HTTP/1.1\r\nHost: localhost\r\nX-Requested-With: XMLHttpRequest\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`,
  );
  return {
    connected: new Promise<void>((resolve) => socket.once('connect', () => resolve())),
    finish: async (): Promise<{ status: number; id: string }> => {
      socket.write(body.slice(half));
      await ended;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
      const id = /\r\nx-request-id: ([^\r]+)\r\n/i.exec(response)?.[1] ?? '';
      return { status, id };
    },
  };
}
