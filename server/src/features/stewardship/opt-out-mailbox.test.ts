/**
 * One address is one mailbox (issue 28 item 9). The mail library reads `to` as an address list, so `5,victim@…`
 * mailed the victim while the per-address limit counted `5,victim@…`: a burst of such requests reached one mailbox
 * far past its limit. Lists, names, comments, groups and quotes are refused with a 400 naming the field, before
 * anything is stored or mailed; the limit counts the address the mail library uses, whatever its case or width.
 */
import { CONTACT_MESSAGES } from '@tessera/common/contact';
import { describe, expect, it } from 'vitest';
import { uniqueEmail } from '../identities/test-people';
import { OPT_OUT_THROTTLE } from './opt-out-routes';
import { confirmOptOut, mailedToken, mailsTo, requestOptOut, stewardshipApp } from './test-setup';

const s = stewardshipApp();

/** Every way the mail library would turn the text into another recipient than the text itself. */
const disguised = (victim: string) => [
  `1,${victim}`,
  `2;${victim}`,
  `x<${victim}`,
  `(x)${victim}`,
  `${victim.replace('@', '(x)@')}`,
  `"${victim.split('@')[0]}"@${victim.split('@')[1]}`,
  `group:${victim}`,
  `${victim.replace('@', '"@')}`,
  `${victim.replace('@', '>@')}`,
];

describe('POST /v2/opt-out takes one mailbox', () => {
  it('refuses lists, names, comments, groups and quotes (400 naming the field); the victim gets nothing', async () => {
    const victim = uniqueEmail();
    const burst = Array.from({ length: OPT_OUT_THROTTLE.perAddress.limit * 2 }, (_, i) => `${i},${victim}`);
    const answers: Record<string, unknown> = {};
    for (const email of [...disguised(victim), ...burst]) {
      const res = await requestOptOut(s, { email });
      answers[email] = [res.statusCode, res.json().fields];
    }
    // Before the rule every one was 202 and the victim got a mail for each (past the limit of 5 for one address).
    expect(await mailsTo(s, victim)).toEqual([]);
    const refused = [400, [{ path: 'body.email', message: CONTACT_MESSAGES.oneAddress }]];
    expect(answers).toEqual(Object.fromEntries(Object.keys(answers).map((email) => [email, refused])));
    const [{ n }] = (await s.t.database.query<{ n: number }>(
      'select count(*)::int as n from opt_out_requests where email like $1',
      [`%${victim}%`],
    )) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('still takes the usual forms of one address (plus tags, dots, apostrophes)', async () => {
    for (const email of [`o'neil+tag.${Date.now()}@mail.example.co.uk`, `first.last_${Date.now()}@people.example`]) {
      expect((await requestOptOut(s, { email })).statusCode, email).toBe(202);
      expect(await mailsTo(s, email)).toHaveLength(1);
    }
  });

  it('counts the limit by the mailbox the mail goes to, whatever the case or character width', async () => {
    const victim = uniqueEmail();
    const fullWidth = [...victim]
      .map((c) => (c >= '!' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c))
      .join('');
    const forms = [victim, victim.toUpperCase(), fullWidth, ` ${victim} `, victim.replace(/^p/, 'P')];
    expect(forms).toHaveLength(OPT_OUT_THROTTLE.perAddress.limit);
    for (const email of forms) expect((await requestOptOut(s, { email })).statusCode, email).toBe(202);
    const refused = await requestOptOut(s, { email: victim.toUpperCase() });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Every mail that went out went to that one mailbox, as one recipient each.
    await s.t.app.mailer.drain();
    const sent = s.smtp.received.filter((m) => m.recipients.some((r) => r.toLowerCase() === victim));
    expect(sent).toHaveLength(OPT_OUT_THROTTLE.perAddress.limit);
    expect(sent.every((m) => m.recipients.length === 1)).toBe(true);
  });
});

describe('POST /v2/opt-out/confirm mails one mailbox only', () => {
  it('a request stored with an address list (before this rule) is confirmed, but its note goes to nobody', async () => {
    const victim = uniqueEmail();
    const own = uniqueEmail();
    expect((await requestOptOut(s, { email: own })).statusCode).toBe(202);
    const token = await mailedToken(s, own);
    await s.t.database.query(`update opt_out_requests set email = $1 where email = $2`, [`1,${victim}`, own]);
    expect((await confirmOptOut(s, token)).statusCode).toBe(200);
    expect(await mailsTo(s, victim)).toEqual([]);
  });
});
