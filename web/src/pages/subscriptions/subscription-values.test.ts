import { SUBSCRIPTION_LIMITS, SUBSCRIPTION_MESSAGES, type Subscription } from '@tessera/common/subscriptions';
import { describe, expect, it } from 'vitest';
import { madeText } from './subscribe-form';
import {
  changedUse,
  followsOf,
  limitText,
  newerUse,
  SUBSCRIBE_KINDS,
  subscribeBody,
  valueProblem,
} from './subscription-values';
import { deleteText, templateChoices } from './subscriptions-page';
import { mayHaveMore, mergePage } from './use-subscriptions';

const subscription = (patch: Partial<Subscription> = {}): Subscription => ({
  id: 1,
  organizationId: 3,
  userId: 2,
  keyId: null,
  identityId: 1001,
  input: null,
  templateId: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...patch,
});

describe('the value checks, as the server checks them', () => {
  it('takes what the server takes', () => {
    expect(valueProblem('identityId', '7')).toBeUndefined();
    expect(valueProblem('identityId', '9007199254740991')).toBeUndefined();
    expect(valueProblem('email', 'Ada@Example.COM')).toBeUndefined();
    expect(valueProblem('phone', '(212) 555-0100')).toBeUndefined();
    expect(valueProblem('md5', 'D41D8CD98F00B204E9800998ECF8427E')).toBeUndefined();
    expect(valueProblem('sha256', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')).toBeUndefined();
  });

  it("refuses what the server refuses, with the server's message", () => {
    for (const id of ['0', '-1', '1.5', 'x7', '9007199254740993', '12345678901234567']) {
      expect(valueProblem('identityId', id), id).toBe(SUBSCRIPTION_MESSAGES.identityId);
    }
    expect(valueProblem('email', 'ada@')).toBe(SUBSCRIPTION_MESSAGES.input('email'));
    expect(valueProblem('phone', '12')).toBe(SUBSCRIPTION_MESSAGES.input('phone'));
    expect(valueProblem('md5', 'abc')).toBe('Please give a valid MD5 hash.');
    expect(valueProblem('sha256', 'd41d8cd98f00b204e9800998ecf8427e')).toBe('Please give a valid SHA-256 hash.');
  });

  it('leaves an unknown kind to the server', () => {
    expect(valueProblem('vin', 'anything')).toBeUndefined();
  });
});

describe('the body a Subscribe sends', () => {
  it('names exactly one target: the id as a number, an input as typed (trimmed)', () => {
    expect(subscribeBody({ kind: 'identityId', value: ' 42 ', template: '' })).toEqual({ identityId: 42 });
    expect(subscribeBody({ kind: 'email', value: ' Ada@Example.com ', template: '' })).toEqual({
      email: 'Ada@Example.com',
    });
    for (const kind of SUBSCRIBE_KINDS) {
      expect(Object.keys(subscribeBody({ kind, value: '5', template: '' }))).toEqual([kind]);
    }
  });

  it('sends the template only when one was chosen', () => {
    expect(subscribeBody({ kind: 'sha256', value: 'ab', template: '12' })).toEqual({ sha256: 'ab', template: 12 });
  });
});

describe('what a subscription follows', () => {
  it("names the input's kind and its normalized value, or the identity by id", () => {
    expect(followsOf(subscription())).toEqual({ label: 'Identity ID', value: null });
    expect(followsOf(subscription({ input: { kind: 'email', value: 'ada@example.com' } }))).toEqual({
      label: 'E-mail',
      value: 'ada@example.com',
    });
    expect(followsOf(subscription({ input: { kind: 'md5', value: 'abc' } })).label).toBe('MD5 of an e-mail');
  });

  it('says what was made and what a deletion stops', () => {
    expect(madeText(subscription())).toBe('Subscribed to identity 1001.');
    const byPhone = subscription({ identityId: 8, input: { kind: 'phone', value: '+12125550100' } });
    expect(madeText(byPhone)).toBe('Subscribed to identity 8, by its phone +12125550100.');
    expect(deleteText(byPhone)).toMatch(/^Stop following identity 8 \(followed by its phone \+12125550100\)\? /);
    expect(deleteText(subscription())).toMatch(/^Stop following identity 1001\? No more identity.changed events/);
  });
});

describe('the limit line', () => {
  it('tells nothing until the API has told the use', () => {
    expect(limitText(null)).toBeNull();
  });

  it("tells the live count against the contract's limit, or that it sets none", () => {
    expect(limitText({ live: 12, limit: 1000 })).toBe("12 of 1,000 subscriptions in use (your contract's limit).");
    expect(limitText({ live: 0, limit: 0 })).toBe("0 of 0 subscriptions in use (your contract's limit).");
    expect(limitText({ live: 1, limit: 1 })).toBe("1 of 1 subscription in use (your contract's limit).");
    expect(limitText({ live: 1, limit: null })).toBe('1 subscription in use; your contract sets no limit.');
    expect(limitText({ live: 0, limit: null })).toBe('0 subscriptions in use; your contract sets no limit.');
    expect(limitText({ live: 2500, limit: null })).toBe('2,500 subscriptions in use; your contract sets no limit.');
  });
});

describe('the use the line tells', () => {
  const use = (live: number, limit: number | null, stamp: number) => ({ live, limit, stamp });

  it("takes a reply's figures when nothing, or something earlier, is known", () => {
    expect(newerUse(null, use(3, 10, 1))).toEqual(use(3, 10, 1));
    expect(newerUse(use(3, 10, 1), use(5, null, 2))).toEqual(use(5, null, 2));
  });

  it('keeps what a later read or a later change told over a reply to an earlier read', () => {
    expect(newerUse(use(5, 20, 3), use(3, 10, 2))).toEqual(use(5, 20, 3));
  });

  it('moves the live count by one for a change made here, and keeps the limit', () => {
    expect(changedUse(use(3, 10, 1), 1, 2)).toEqual(use(4, 10, 2));
    expect(changedUse(use(3, null, 1), -1, 4)).toEqual(use(2, null, 4));
    expect(changedUse(use(0, 10, 1), -1, 2)).toEqual(use(0, 10, 2));
  });

  it('knows nothing from a change before the first reply, which then tells', () => {
    expect(changedUse(null, 1, 2)).toBeNull();
    expect(newerUse(changedUse(null, 1, 2), use(1, 10, 1))).toEqual(use(1, 10, 1));
  });

  it('a reply to a read sent before a change made here does not undo it', () => {
    const changed = changedUse(use(3, 10, 1), 1, 3);
    expect(newerUse(changed, use(3, 10, 2))).toEqual(use(4, 10, 3));
    expect(newerUse(changed, use(4, 10, 4))).toEqual(use(4, 10, 4));
  });
});

describe('paging through the list', () => {
  it('adds a page once each, newest first', () => {
    const shown = [subscription({ id: 9 }), subscription({ id: 7 })];
    const merged = mergePage(shown, [subscription({ id: 7 }), subscription({ id: 3 }), subscription({ id: 8 })]);
    expect(merged.map((s) => s.id)).toEqual([9, 8, 7, 3]);
  });

  it('asks for older ones only after a full page', () => {
    expect(mayHaveMore(SUBSCRIPTION_LIMITS.page)).toBe(true);
    expect(mayHaveMore(SUBSCRIPTION_LIMITS.page - 1)).toBe(false);
  });
});

describe('the templates offered', () => {
  it('are the published ones not deleted, by id', () => {
    const template = (id: number, name: string, publishedVersion: number | null, deletedAt: string | null = null) =>
      ({ id, name, publishedVersion, deletedAt }) as Parameters<typeof templateChoices>[0][number];
    expect(
      templateChoices([
        template(9, 'Mine', 1),
        template(1, 'Full', 1),
        template(4, 'Draft', null),
        template(5, 'Gone', 2, 'x'),
      ]),
    ).toEqual([
      { id: 1, name: 'Full' },
      { id: 9, name: 'Mine' },
    ]);
  });
});
