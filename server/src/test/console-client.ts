/** Console-style calls against a test app: JSON with the console's headers and a session cookie. */
import type { FastifyInstance } from 'fastify';
import { CONSOLE_HEADERS } from './harness';

export function consoleClient(app: () => FastifyInstance) {
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: unknown) =>
    app().inject({
      method,
      url,
      headers: { ...CONSOLE_HEADERS, cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    get: (url: string, cookie: string) => call('GET', url, cookie),
    post: (url: string, cookie: string, payload: unknown) => call('POST', url, cookie, payload),
    put: (url: string, cookie: string, payload?: unknown) => call('PUT', url, cookie, payload),
    del: (url: string, cookie: string) => call('DELETE', url, cookie),
  };
}

export const cookieOf = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
