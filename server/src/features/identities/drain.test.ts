/** Background usage writes and the close (issue 28, finding 16): waited for, and what is not written is said. */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { drainOf, LATE, NOT_RECORDED } from './drain';

function appWithLog() {
  const lines: { level: number; msg: string; requestId?: string }[] = [];
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } } });
  return { app, lines };
}

describe('a close and the background usage writes', () => {
  it('waits for those under way, and names those that did not finish in time', async () => {
    const { app, lines } = appWithLog();
    const drain = drainOf(app, 200);
    await app.ready();
    let written = false;
    const quick = new Promise((resolve) => setTimeout(resolve, 50)).then(() => {
      written = true;
    });
    drain.keep(quick, { requestId: 'quick' });
    drain.keep(new Promise(() => {}), { requestId: 'stuck' });
    await app.close();
    expect(written).toBe(true);
    expect(lines.filter((l) => l.msg === NOT_RECORDED).map((l) => l.requestId)).toEqual(['stuck']);
  });

  it('says at once of a write begun after the close, and again when it fails', async () => {
    const { app, lines } = appWithLog();
    const drain = drainOf(app, 200);
    await app.ready();
    await app.close();
    let fail: (e: Error) => void = () => {};
    const late = new Promise((_, reject) => {
      fail = reject;
    });
    drain.keep(late, { requestId: 'late' });
    expect(lines).toContainEqual(expect.objectContaining({ level: 40, msg: LATE, requestId: 'late' }));
    fail(new Error('database closed'));
    await new Promise((r) => setImmediate(r));
    expect(lines).toContainEqual(expect.objectContaining({ level: 50, msg: NOT_RECORDED, requestId: 'late' }));
  });
});
