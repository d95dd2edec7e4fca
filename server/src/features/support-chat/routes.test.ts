/**
 * Support chat by outcome (issue 18 items 4 and 6): a user opens or resumes their conversation and writes (201);
 * staff see the queue with unread counts, answer, close and reopen; read marks move per side. Someone else's
 * conversation is 403, a missing one 404, staff actions 403 for users and 401 signed out, a blank or over-long
 * message 400, too many messages 429 with Retry-After, writing in a closed conversation 409.
 */

import { CHAT_LIMITS, CHAT_MESSAGES } from '@tessera/common/support-chat';
import { MESSAGES } from '@tessera/common/validation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, CONSOLE_HEADERS, makeUser, signIn, type TestApp } from '../../test/harness';
import { CHAT_THROTTLE } from './routes';

let t: TestApp;
const api = consoleClient(() => t.app);
let staffCookie: string;

beforeAll(async () => {
  t = await buildTestApp();
  staffCookie = await signIn(t.app, (await makeUser(t.database, 'super')).email);
});
afterAll(() => t.app.close());

async function customer() {
  const user = await makeUser(t.database, 'user');
  return { ...user, cookie: await signIn(t.app, user.email) };
}

async function openAs(cookie: string): Promise<number> {
  const res = await api.post('/v2/chat/conversations', cookie, {});
  expect([200, 201]).toContain(res.statusCode);
  return res.json().chatConversation.id;
}

const write = (cookie: string, id: number, text: string) =>
  api.post(`/v2/chat/conversations/${id}/messages`, cookie, { text });

describe('conversations: 200/201', () => {
  it('a user opens a conversation once, and resumes it after', async () => {
    const u = await customer();
    const first = await api.post('/v2/chat/conversations', u.cookie, {});
    expect(first.statusCode).toBe(201);
    expect(first.json().chatConversation).toMatchObject({ userId: u.id, status: 'open', unreadByUser: 0 });
    const again = await api.post('/v2/chat/conversations', u.cookie, {});
    expect(again.statusCode).toBe(200);
    expect(again.json().chatConversation.id).toBe(first.json().chatConversation.id);
    const mine = await api.get('/v2/chat/conversations', u.cookie);
    expect(mine.json().chatConversations.map((c: { id: number }) => c.id)).toEqual([first.json().chatConversation.id]);
  });

  it('messages, unread counts and read marks move per side; staff see the queue', async () => {
    const u = await customer();
    const id = await openAs(u.cookie);
    const sent = await write(u.cookie, id, '  Hello, my key returns 402. https://example.com/docs  ');
    expect(sent.statusCode).toBe(201);
    expect(sent.json().chatMessage).toMatchObject({
      conversationId: id,
      authorId: u.id,
      fromStaff: false,
      body: 'Hello, my key returns 402. https://example.com/docs',
    });

    const queue = await api.get('/v2/chat/conversations', staffCookie);
    const inQueue = queue.json().chatConversations.find((c: { id: number }) => c.id === id);
    expect(inQueue).toMatchObject({ userId: u.id, userEmail: u.email, unreadByStaff: 1, status: 'open' });
    expect(inQueue.awaitingSince).not.toBeNull();

    const read = await api.post(`/v2/chat/conversations/${id}/read`, staffCookie, {
      upTo: sent.json().chatMessage.id,
    });
    expect(read.json().chatConversation).toMatchObject({ unreadByStaff: 0, staffReadId: sent.json().chatMessage.id });

    const answer = await write(staffCookie, id, 'Your contract ended; renew it on the contracts page.');
    expect(answer.statusCode).toBe(201);
    expect(answer.json().chatMessage.fromStaff).toBe(true);
    expect(answer.json().chatConversation).toMatchObject({ unreadByUser: 1, awaitingSince: null });

    const history = await api.get(`/v2/chat/conversations/${id}/messages`, u.cookie);
    expect(history.statusCode).toBe(200);
    expect(history.json().chatMessages.map((m: { fromStaff: boolean }) => m.fromStaff)).toEqual([false, true]);
    // A read mark never passes the last message, and never moves back.
    const marked = await api.post(`/v2/chat/conversations/${id}/read`, u.cookie, { upTo: 2_000_000_000 });
    expect(marked.json().chatConversation).toMatchObject({
      unreadByUser: 0,
      userReadId: answer.json().chatMessage.id,
    });
    const back = await api.post(`/v2/chat/conversations/${id}/read`, u.cookie, { upTo: 0 });
    expect(back.json().chatConversation.userReadId).toBe(answer.json().chatMessage.id);
  });

  it('pages older messages with before', async () => {
    const u = await customer();
    const id = await openAs(u.cookie);
    const first = (await write(u.cookie, id, 'one')).json().chatMessage.id;
    const second = (await write(u.cookie, id, 'two')).json().chatMessage.id;
    const older = await api.get(`/v2/chat/conversations/${id}/messages?before=${second}`, u.cookie);
    expect(older.json().chatMessages.map((m: { id: number }) => m.id)).toEqual([first]);
  });

  it('staff close and reopen; a closed conversation takes no message (409) and the user may open a new one', async () => {
    const u = await customer();
    const id = await openAs(u.cookie);
    const closed = await api.post(`/v2/chat/conversations/${id}/close`, staffCookie, {});
    expect(closed.statusCode).toBe(200);
    expect(closed.json().chatConversation).toMatchObject({ status: 'closed' });
    expect((await api.post(`/v2/chat/conversations/${id}/close`, staffCookie, {})).json().error).toBe(
      CHAT_MESSAGES.alreadyClosed,
    );
    const refused = await write(u.cookie, id, 'still there?');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(CHAT_MESSAGES.closed);
    expect((await api.post(`/v2/chat/conversations/${id}/typing`, u.cookie, {})).statusCode).toBe(409);

    const reopened = await api.post(`/v2/chat/conversations/${id}/reopen`, staffCookie, {});
    expect(reopened.json().chatConversation).toMatchObject({ status: 'open', closedAt: null });
    expect((await write(u.cookie, id, 'thanks')).statusCode).toBe(201);

    await api.post(`/v2/chat/conversations/${id}/close`, staffCookie, {});
    const fresh = await api.post('/v2/chat/conversations', u.cookie, {});
    expect(fresh.statusCode).toBe(201);
    expect(fresh.json().chatConversation.id).not.toBe(id);
    const clash = await api.post(`/v2/chat/conversations/${id}/reopen`, staffCookie, {});
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error).toBe(CHAT_MESSAGES.otherOpen);
  });
});

describe('403, 404 and 401', () => {
  it("a user may not read, write, mark or type in another user's conversation", async () => {
    const owner = await customer();
    const other = await customer();
    const id = await openAs(owner.cookie);
    await write(owner.cookie, id, 'private question');
    for (const res of [
      await api.get(`/v2/chat/conversations/${id}/messages`, other.cookie),
      await write(other.cookie, id, 'peeking'),
      await api.post(`/v2/chat/conversations/${id}/read`, other.cookie, { upTo: 1 }),
      await api.post(`/v2/chat/conversations/${id}/typing`, other.cookie, {}),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe(CHAT_MESSAGES.notYours);
    }
    const theirs = await api.get('/v2/chat/conversations', other.cookie);
    expect(theirs.json().chatConversations).toEqual([]);
  });

  it('staff-only actions are 403 for users, admins included', async () => {
    const u = await customer();
    const admin = await makeUser(t.database, 'admin');
    const adminCookie = await signIn(t.app, admin.email);
    const id = await openAs(u.cookie);
    for (const cookie of [u.cookie, adminCookie]) {
      for (const action of ['close', 'reopen']) {
        const res = await api.post(`/v2/chat/conversations/${id}/${action}`, cookie, {});
        expect(res.statusCode).toBe(403);
        expect(res.json().error).toBe(CHAT_MESSAGES.staffOnly);
      }
    }
  });

  it('a missing conversation is 404', async () => {
    const u = await customer();
    const res = await api.get('/v2/chat/conversations/2000000000/messages', u.cookie);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe(CHAT_MESSAGES.notFound);
    expect((await api.post('/v2/chat/conversations/2000000000/close', staffCookie, {})).statusCode).toBe(404);
  });

  it('signed out: 401', async () => {
    for (const [method, url] of [
      ['GET', '/v2/chat/conversations'],
      ['POST', '/v2/chat/conversations'],
      ['GET', '/v2/chat/presence'],
      ['POST', '/v2/chat/conversations/1/close'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: CONSOLE_HEADERS,
        payload: method === 'POST' ? {} : undefined,
      });
      expect(res.statusCode).toBe(401);
    }
  });
});

describe('400: message length and shape', () => {
  it('a blank, an over-long and a missing message name the field', async () => {
    const u = await customer();
    const id = await openAs(u.cookie);
    const blank = await write(u.cookie, id, '   ');
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fields).toEqual([{ path: 'body.text', message: MESSAGES.required('a message') }]);
    const long = await write(u.cookie, id, 'x'.repeat(CHAT_LIMITS.message + 1));
    expect(long.statusCode).toBe(400);
    expect(long.json().fields).toEqual([
      { path: 'body.text', message: MESSAGES.tooLong('a message', CHAT_LIMITS.message) },
    ]);
    expect((await write(u.cookie, id, 'x'.repeat(CHAT_LIMITS.message))).statusCode).toBe(201);
    const missing = await api.post(`/v2/chat/conversations/${id}/messages`, u.cookie, { body: 'hi' });
    expect(missing.statusCode).toBe(400);
    const badId = await api.get('/v2/chat/conversations/abc/messages', u.cookie);
    expect(badId.statusCode).toBe(400);
  });
});

describe('429: messages are throttled per user', () => {
  it('past the limit a user gets 429 with Retry-After, while another user still writes', async () => {
    const u = await customer();
    const id = await openAs(u.cookie);
    for (let i = 0; i < CHAT_THROTTLE.messages.limit; i++)
      expect((await write(u.cookie, id, `m${i}`)).statusCode).toBe(201);
    const refused = await write(u.cookie, id, 'one more');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe(CHAT_MESSAGES.tooMany);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const other = await customer();
    expect((await write(other.cookie, await openAs(other.cookie), 'hello')).statusCode).toBe(201);
  });
});
