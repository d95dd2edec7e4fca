/**
 * Support chat over the socket (issue 18 items 4 and 6), with two server processes sharing one database and one
 * fan-out: every subscription is checked (someone else's conversation is refused), messages, typing and read marks
 * reach every tab of the conversation's user and staff whichever process they are on, and nobody else; staff
 * presence is seen from every process.
 */

import type { ServerMessage } from '@tessera/common/socket';
import { CHAT_QUEUE_CHANNEL, chatChannel } from '@tessera/common/support-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryFanout } from '../../socket/fanout';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeUser, signIn, type TestApp } from '../../test/harness';
import { isPush, isReply, openSocket, type TestSocket } from '../../test/socket-client';

let a: TestApp;
let b: TestApp;
let baseA: string;
let baseB: string;
const apiA = consoleClient(() => a.app);
const apiB = consoleClient(() => b.app);

beforeAll(async () => {
  const fanout = memoryFanout();
  a = await buildTestApp({ fanout });
  b = await buildTestApp({ fanout, database: a.database });
  baseA = await a.app.listen({ port: 0, host: '127.0.0.1' });
  baseB = await b.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await a.app.close();
  await b.app.close();
});

async function person(role: 'user' | 'admin' | 'super' = 'user') {
  const user = await makeUser(a.database, role);
  return { ...user, cookie: await signIn(a.app, user.email) };
}

/** A socket on `base` that has joined `channels` (each answered 'subscribed'). */
async function tab(base: string, cookie: string, channels: string[]): Promise<TestSocket> {
  const s = await openSocket(base, { cookie });
  for (const channel of channels) {
    s.send(['subscribe', channel]);
    await s.next(isReply('subscribed', channel));
  }
  return s;
}

/** Everything the server sent before now has arrived once a fresh subscribe is answered. */
async function settle(s: TestSocket, channel: string) {
  s.send(['subscribe', channel]);
  await s.next(isReply('subscribed', channel));
}

const pushes = (s: TestSocket, key: string) =>
  s.messages.filter(isPush(key)).map((m) => (m as Extract<ServerMessage, ['push', unknown]>)[1][key]);

describe('subscriptions are checked', () => {
  it("a user joins their own conversation's channel and is refused anyone else's and the queue", async () => {
    const owner = await person();
    const other = await person();
    const admin = await person('admin');
    const s = await openSocket(baseA, { cookie: other.cookie });
    s.send(['subscribe', chatChannel(owner.id)]);
    expect(await s.next(isReply('refused', chatChannel(owner.id)))).toEqual([
      'refused',
      { message: 'You may not subscribe to this channel.', channel: chatChannel(owner.id) },
    ]);
    s.send(['subscribe', CHAT_QUEUE_CHANNEL]);
    await s.next(isReply('refused', CHAT_QUEUE_CHANNEL));
    s.send(['subscribe', chatChannel(other.id)]);
    await s.next(isReply('subscribed', chatChannel(other.id)));
    s.ws.close();

    const adminSocket = await openSocket(baseA, { cookie: admin.cookie });
    adminSocket.send(['subscribe', chatChannel(owner.id)]);
    await adminSocket.next(isReply('refused', chatChannel(owner.id)));
    adminSocket.ws.close();

    const anonymous = await openSocket(baseA);
    anonymous.send(['subscribe', chatChannel(owner.id)]);
    await anonymous.next(isReply('refused', chatChannel(owner.id)));
    anonymous.ws.close();
  });
});

describe('presence', () => {
  it('staff are online while one watches the queue on any process', async () => {
    const u = await person();
    const staff = await person('super');
    const online = async () => (await apiA.get('/v2/chat/presence', u.cookie)).json().chatPresence.staffOnline;
    await a.app.supportChat.beat();
    await b.app.supportChat.beat();
    expect(await online()).toBe(false);
    const s = await tab(baseB, staff.cookie, [CHAT_QUEUE_CHANNEL]);
    await b.app.supportChat.beat();
    expect(await online()).toBe(true);
    s.ws.close();
    await s.closed;
    await expect
      .poll(async () => {
        await b.app.supportChat.beat();
        return online();
      })
      .toBe(false);
  });
});

describe('delivery', () => {
  it("messages, typing and read marks reach every tab of the user and staff, on both processes, and nobody else's", async () => {
    const owner = await person();
    const stranger = await person();
    const staff = await person('super');
    const id = (await apiA.post('/v2/chat/conversations', owner.cookie, {})).json().chatConversation.id;
    const ownerA = await tab(baseA, owner.cookie, [chatChannel(owner.id)]);
    const ownerB = await tab(baseB, owner.cookie, [chatChannel(owner.id)]);
    const staffB = await tab(baseB, staff.cookie, [CHAT_QUEUE_CHANNEL, chatChannel(owner.id)]);
    const strangerA = await tab(baseA, stranger.cookie, [chatChannel(stranger.id)]);

    const sent = await apiA.post(`/v2/chat/conversations/${id}/messages`, owner.cookie, { text: 'Is anyone there?' });
    const message = sent.json().chatMessage;
    for (const s of [ownerA, ownerB, staffB]) {
      const push = await s.next(
        (m) => isPush('chatMessage')(m) && (m[1] as { chatMessage: { id: number } }).chatMessage.id === message.id,
      );
      expect(push[1]).toMatchObject({ chatMessage: message, chatConversation: { id, unreadByStaff: 1 } });
    }
    // The queue channel tells staff too.
    await staffB.next((m) => isPush('chatConversation')(m) && !('chatMessage' in (m[1] as object)));

    await apiB.post(`/v2/chat/conversations/${id}/typing`, staff.cookie, {});
    for (const s of [ownerA, ownerB]) {
      const push = await s.next(isPush('chatTyping'));
      expect(push[1]).toEqual({ chatTyping: { conversationId: id, side: 'staff', userId: staff.id } });
    }

    const answer = (
      await apiB.post(`/v2/chat/conversations/${id}/messages`, staff.cookie, { text: 'Yes, hello!' })
    ).json().chatMessage;
    await ownerA.next(
      (m) => isPush('chatMessage')(m) && (m[1] as { chatMessage: { id: number } }).chatMessage.id === answer.id,
    );
    await apiA.post(`/v2/chat/conversations/${id}/read`, owner.cookie, { upTo: answer.id });
    await staffB.next(
      (m) =>
        isPush('chatConversation')(m) &&
        (m[1] as { chatConversation: { userReadId: number } }).chatConversation.userReadId === answer.id,
    );

    await settle(strangerA, chatChannel(stranger.id));
    for (const key of ['chatMessage', 'chatTyping', 'chatConversation']) expect(pushes(strangerA, key)).toEqual([]);
    for (const s of [ownerA, ownerB, staffB, strangerA]) s.ws.close();
  });

  it('a socket refused the channel hears nothing of the conversation', async () => {
    const owner = await person();
    const other = await person();
    const id = (await apiA.post('/v2/chat/conversations', owner.cookie, {})).json().chatConversation.id;
    const peek = await openSocket(baseB, { cookie: other.cookie });
    peek.send(['subscribe', chatChannel(owner.id)]);
    await peek.next(isReply('refused', chatChannel(owner.id)));
    await apiA.post(`/v2/chat/conversations/${id}/messages`, owner.cookie, { text: 'secret' });
    await settle(peek, chatChannel(other.id));
    expect(pushes(peek, 'chatMessage')).toEqual([]);
    peek.ws.close();
  });
});
