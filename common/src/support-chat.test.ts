import { describe, expect, it } from 'vitest';
import { canSubscribe } from './socket';
import { CHAT_QUEUE_CHANNEL, chatChannel } from './support-chat';

const user = (id: number, role: 'signer' | 'user' | 'admin' | 'super' | 'root') => ({ id, role, organizationId: 1 });

describe('chat channels', () => {
  it("admit the conversation's user and staff, and nobody else", () => {
    expect(canSubscribe(user(7, 'user'), chatChannel(7))).toBe(true);
    expect(canSubscribe(user(8, 'user'), chatChannel(7))).toBe(false);
    expect(canSubscribe(user(8, 'admin'), chatChannel(7))).toBe(false);
    expect(canSubscribe(user(8, 'super'), chatChannel(7))).toBe(true);
    expect(canSubscribe(user(8, 'root'), chatChannel(7))).toBe(true);
    // Before the agreement, not even one's own; never anonymous; no odd ids.
    expect(canSubscribe(user(7, 'signer'), chatChannel(7))).toBe(false);
    expect(canSubscribe({ id: 0, role: 'anonymous', organizationId: null }, chatChannel(0))).toBe(false);
    expect(canSubscribe(user(8, 'super'), 'chat:07')).toBe(false);
    expect(canSubscribe(user(8, 'super'), 'chat:')).toBe(false);
  });

  it('keep the queue to staff', () => {
    expect(canSubscribe(user(7, 'user'), CHAT_QUEUE_CHANNEL)).toBe(false);
    expect(canSubscribe(user(7, 'super'), CHAT_QUEUE_CHANNEL)).toBe(true);
  });
});
