/**
 * Step-up (POST /auth/confirm) by outcome: 401 signed out, 400 for a missing or wrong password (never a 401,
 * which would sign the browser out), 200 recording the confirmation; a guarded call then passes for the step-up
 * window and asks again (403 step_up_required) once it has lapsed. Every confirmation is audited.
 */
import { QUERY_LIMITS, QUERY_MESSAGES } from '@tessera/common/query-console';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sessionConfirmations, sessions } from '../../db/schema';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeUser, PASSWORD, signIn, type TestApp } from '../../test/harness';

let t: TestApp;
const api = consoleClient(() => t.app);

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.app.close());

async function rootSession() {
  const root = await makeUser(t.database, 'root');
  const cookie = await signIn(t.app, root.email);
  const [session] = await t.database.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.userId, root.id))
    .orderBy(desc(sessions.id))
    .limit(1);
  return { root, cookie, sessionId: session!.id };
}

const query = (cookie: string) => api.post('/v2/query', cookie, { cluster: 'main', sql: 'select 1 as one' });

describe('POST /auth/confirm', () => {
  it('401 when signed out', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/confirm',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
      payload: { password: PASSWORD },
    });
    expect(res.statusCode).toBe(401);
  });

  it('400 naming the field for a missing or wrong password, audited as a failure', async () => {
    const { root, cookie } = await rootSession();
    const missing = await api.post('/auth/confirm', cookie, {});
    expect(missing.statusCode).toBe(400);
    const wrong = await api.post('/auth/confirm', cookie, { password: 'Wrong-pass1!' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      error: QUERY_MESSAGES.wrongPassword,
      fields: [{ path: 'body.password', message: QUERY_MESSAGES.wrongPassword }],
    });
    const failures = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, root.id), eq(auditLog.action, 'stepup.failure')));
    expect(failures).toHaveLength(1);
    expect((await query(cookie)).json().code).toBe('step_up_required');
  });

  it('200 records the confirmation; a guarded call passes, then asks again once the window has lapsed', async () => {
    const { root, cookie, sessionId } = await rootSession();
    const before = await query(cookie);
    expect(before.statusCode).toBe(403);
    expect(before.json()).toMatchObject({ code: 'step_up_required', error: QUERY_MESSAGES.stepUp });

    const res = await api.post('/auth/confirm', cookie, { password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const { confirmed } = res.json();
    expect(Date.parse(confirmed.until) - Date.parse(confirmed.at)).toBe(QUERY_LIMITS.stepUpMs);
    expect((await query(cookie)).statusCode).toBe(200);
    const audited = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, root.id), eq(auditLog.action, 'stepup.confirm')));
    expect(audited).toHaveLength(1);

    // Neither confirmed nor used for longer than the window: asked again.
    const stale = sql`now() - interval '${sql.raw(String(QUERY_LIMITS.stepUpMs / 1000 + 1))} seconds'`;
    await t.database.db
      .update(sessionConfirmations)
      .set({ confirmedAt: stale, usedAt: stale })
      .where(eq(sessionConfirmations.sessionId, sessionId));
    expect((await query(cookie)).json().code).toBe('step_up_required');
  });

  it('is per session: another sign-in of the same user must confirm again', async () => {
    const { root, cookie } = await rootSession();
    expect((await api.post('/auth/confirm', cookie, { password: PASSWORD })).statusCode).toBe(200);
    const other = await signIn(t.app, root.email);
    expect((await query(other)).statusCode).toBe(403);
    expect((await query(cookie)).statusCode).toBe(200);
  });
});
