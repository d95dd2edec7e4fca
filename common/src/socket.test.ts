import { describe, expect, it } from 'vitest';
import { clientMessageSchema } from './schemas/socket';
import { canSubscribe } from './socket';

describe('socket messages (spec §7)', () => {
  it('accepts the six client messages and nothing else', () => {
    const ok = [
      ['hit', { index: 0, url: 'http://localhost:3000/' }],
      ['subscribe', 'self:1'],
      ['unsubscribe', 'organization:2'],
      ['clear'],
      ['beforeunload', null],
      ['clientError', 'Error: x\n at y'],
    ];
    for (const m of ok) expect(clientMessageSchema.safeParse(m).success).toBe(true);
    const bad = [['hit', { index: 'x', url: '' }], ['subscribe', 'everything'], ['shout', 'x'], { name: 'hit' }, 'hit'];
    for (const m of bad) expect(clientMessageSchema.safeParse(m).success).toBe(false);
  });

  it('decides channel access', () => {
    const user = { id: 5, role: 'user' as const, organizationId: 9 };
    expect(canSubscribe(user, 'self:5')).toBe(true);
    expect(canSubscribe(user, 'self:6')).toBe(false);
    expect(canSubscribe(user, 'organization:9')).toBe(true);
    expect(canSubscribe(user, 'organization:10')).toBe(false);
    expect(canSubscribe(user, 'system:releases')).toBe(false);
    expect(canSubscribe({ id: 6, role: 'signer', organizationId: 9 }, 'organization:9')).toBe(false);
    expect(canSubscribe({ id: 7, role: 'super', organizationId: null }, 'organization:10')).toBe(true);
    expect(canSubscribe({ id: 0, role: 'anonymous', organizationId: null }, 'self:0')).toBe(false);
  });
});
