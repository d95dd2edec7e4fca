/**
 * What a confirmed opt-out may leave out (issue 28 item 2): only what was proven. The link proves the e-mail; a
 * phone is left out only where some identity holds it together with that e-mail (we have no way to prove a phone on
 * its own), and a person only as the one identity holding that e-mail. Before, a throwaway mailbox plus someone's
 * phone number erased that someone from lookups by id, phone and e-mail. The reply and the mail say, in plain words,
 * what was and was not left out.
 */
import { OPT_OUT_OUTCOME } from '@tessera/common/stewardship';
import { describe, expect, it } from 'vitest';
import { load, person, sha256, uniqueEmail, uniqueZip } from '../identities/test-people';
import { hashToken } from '../sessions/tokens';
import { confirmOptOut, mailedToken, mailsTo, requestOptOut, stewardshipApp } from './test-setup';

const s = stewardshipApp();

type Person = ReturnType<typeof person>;

/** How many identities lookups by this person's id, first phone and first e-mail return. */
async function found(p: Person) {
  const get = async (path: string) => (await s.api.get(`/v2/identities/${path}`, s.customer)).json().identities.length;
  return {
    id: await get(`byId?id=${p.id}`),
    phone: await get(`byPhone?phone=${encodeURIComponent(p.phones[0]!.number)}`),
    email: await get(`byEmail?email=${encodeURIComponent(p.emails[0]!.address)}`),
  };
}

/** Requests an opt-out, follows the mailed link, and answers the confirmation and the note mailed after it. */
async function optOut(body: { email: string; phone?: string }) {
  expect((await requestOptOut(s, body)).statusCode).toBe(202);
  const token = await mailedToken(s, body.email);
  const res = await confirmOptOut(s, token);
  expect(res.statusCode).toBe(200);
  const mails = await mailsTo(s, body.email);
  expect(mails).toHaveLength(2);
  return { reply: res.json().optOutConfirmed, note: mails[1]!.text, token };
}

/** The suppressions the request's confirmation added, as its row counts them. */
async function suppressedCount(token: string): Promise<number | undefined> {
  const rows = await s.t.database.query<{ suppressed: number }>(
    'select suppressed from opt_out_requests where token_hash = $1',
    [hashToken(token)],
  );
  return rows[0]?.suppressed;
}

/** The suppressions staff see for a value or an identity. */
async function listed(query: string) {
  return Object.values((await s.api.get(`/v2/suppressions?${query}`, s.staff)).json().suppressions);
}

describe('a confirmed opt-out leaves out only what was proven', () => {
  it('a throwaway mailbox with someone else’s phone: the mailbox only; the person is found as before', async () => {
    const victim = person({ zip: uniqueZip() });
    await load(s.t.database, victim);
    expect(await found(victim)).toEqual({ id: 1, phone: 1, email: 1 });
    const throwaway = uniqueEmail();
    const { reply, note, token } = await optOut({ email: throwaway, phone: victim.phones[0]!.number });

    expect(await found(victim)).toEqual({ id: 1, phone: 1, email: 1 });
    expect(await listed(`identityId=${victim.id}`)).toEqual([]);
    expect(await listed(`value=${encodeURIComponent(victim.phones[0]!.number)}`)).toEqual([]);
    expect(await listed(`value=${encodeURIComponent(throwaway)}`)).toEqual([
      expect.objectContaining({ kind: 'sha256', value: sha256(throwaway), source: 'request' }),
    ]);
    expect(reply.suppressed).toEqual({ email: true, phone: false, person: false });
    const said = [OPT_OUT_OUTCOME.email, OPT_OUT_OUTCOME.phoneKept, OPT_OUT_OUTCOME.personKept];
    expect(reply.summary).toBe(said.join(' '));
    for (const sentence of said) expect(note).toContain(sentence);
    expect(await suppressedCount(token)).toBe(1);
  });

  it('one person’s address with another person’s phone: that person and the address, not the phone', async () => {
    const owner = person({ zip: uniqueZip() });
    const other = person({ zip: uniqueZip() });
    await load(s.t.database, owner, other);
    const { reply, note, token } = await optOut({ email: owner.emails[0]!.address, phone: other.phones[0]!.number });
    expect(await suppressedCount(token)).toBe(2);

    expect(await found(owner)).toEqual({ id: 0, phone: 0, email: 0 });
    expect(await found(other)).toEqual({ id: 1, phone: 1, email: 1 });
    expect(await listed(`value=${encodeURIComponent(other.phones[0]!.number)}`)).toEqual([]);
    expect(reply.suppressed).toEqual({ email: true, phone: false, person: true });
    expect(note).toContain(OPT_OUT_OUTCOME.person);
    expect(note).toContain(OPT_OUT_OUTCOME.phoneKept);
  });

  it('an address and a phone of the same person: all three, and the reply and the note say so', async () => {
    const p = person({ zip: uniqueZip() });
    await load(s.t.database, p);
    const { reply, note, token } = await optOut({ email: p.emails[0]!.address, phone: p.phones[0]!.number });
    expect(await suppressedCount(token)).toBe(3);
    expect(await found(p)).toEqual({ id: 0, phone: 0, email: 0 });
    expect(await listed(`value=${encodeURIComponent(p.phones[0]!.number)}`)).toEqual([
      expect.objectContaining({ kind: 'phone', source: 'request' }),
    ]);
    expect(reply.suppressed).toEqual({ email: true, phone: true, person: true });
    const said = [OPT_OUT_OUTCOME.email, OPT_OUT_OUTCOME.phoneSuppressed, OPT_OUT_OUTCOME.person];
    expect(reply.summary).toBe(said.join(' '));
    for (const sentence of said) expect(note).toContain(sentence);
  });

  it('an address two people share, with a phone one of them holds: the address and the phone, neither person', async () => {
    const email = uniqueEmail();
    const a = person({ zip: uniqueZip() });
    const b = person({ zip: uniqueZip() });
    a.emails = [{ ...a.emails[0]!, address: email }];
    b.emails = [{ ...b.emails[0]!, address: email }];
    await load(s.t.database, a, b);
    const { reply } = await optOut({ email, phone: a.phones[0]!.number });
    expect(reply.suppressed).toEqual({ email: true, phone: true, person: false });
    expect(await found(a)).toEqual({ id: 1, phone: 0, email: 0 });
    expect(await found(b)).toEqual({ id: 1, phone: 1, email: 0 });
  });

  it('no phone given: the reply says so and names no phone', async () => {
    const { reply, note } = await optOut({ email: uniqueEmail() });
    expect(reply.suppressed).toEqual({ email: true, phone: null, person: false });
    expect(reply.summary).toBe([OPT_OUT_OUTCOME.email, OPT_OUT_OUTCOME.personKept].join(' '));
    expect(note).not.toMatch(/phone number you gave/);
  });
});
