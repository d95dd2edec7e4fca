/** A test app with real SMTP and a paying customer and a super signed in, shared by this folder's route tests. */
import { afterAll, beforeAll } from 'vitest';
import { consoleClient } from '../../test/console-client';
import {
  buildTestApp,
  CONSOLE_HEADERS,
  makeContract,
  makeOrganization,
  makeUser,
  signIn,
  type TestApp,
} from '../../test/harness';
import { parseMail, startSmtpServer, type TestSmtpServer } from '../../test/smtp';

export interface Stewardship {
  t: TestApp;
  smtp: TestSmtpServer;
  customer: string;
  customerId: number;
  staff: string;
  admin: string;
  api: ReturnType<typeof consoleClient>;
}

export function stewardshipApp(): Stewardship {
  const s = {} as Stewardship;
  s.api = consoleClient(() => s.t.app);
  beforeAll(async () => {
    s.smtp = await startSmtpServer();
    s.t = await buildTestApp({ env: { SMTP_URL: s.smtp.url } });
    const organizationId = (await makeOrganization(s.t.database)).id;
    await makeContract(s.t.database, organizationId);
    const user = await makeUser(s.t.database, 'user', organizationId);
    s.customerId = user.id;
    s.customer = await signIn(s.t.app, user.email);
    s.staff = await signIn(s.t.app, (await makeUser(s.t.database, 'super')).email);
    s.admin = await signIn(s.t.app, (await makeUser(s.t.database, 'admin')).email);
  });
  afterAll(async () => {
    await s.t.app.close();
    await s.smtp.close();
  });
  return s;
}

let ip = 0;
/** Each call from its own client address, so per-IP throttles of one test do not spill into another. */
export const freshIp = () => `203.0.113.${(++ip % 250) + 1}`;

export function requestOptOut(s: Stewardship, body: Record<string, string>, remoteAddress = freshIp()) {
  return s.t.app.inject({ method: 'POST', url: '/v2/opt-out', headers: CONSOLE_HEADERS, payload: body, remoteAddress });
}

/** The mails received for an address, parsed. */
export async function mailsTo(s: Stewardship, address: string) {
  await s.t.app.mailer.drain();
  return s.smtp.received.filter((m) => m.recipients.includes(address)).map((m) => parseMail(m.raw));
}

/** The token in the confirmation link mailed to an address. */
export async function mailedToken(s: Stewardship, address: string): Promise<string> {
  const [mail] = await mailsTo(s, address);
  const match = /#opt-out=([A-Za-z0-9_%-]+)/.exec(mail?.text ?? '');
  if (!match) throw new Error('no confirmation link mailed');
  return decodeURIComponent(match[1]!);
}

/** Follows a mailed link: POST /v2/opt-out/confirm with its token, from a client of its own. */
export function confirmOptOut(s: Stewardship, token: string) {
  return s.t.app.inject({
    method: 'POST',
    url: '/v2/opt-out/confirm',
    headers: CONSOLE_HEADERS,
    payload: { token },
    remoteAddress: freshIp(),
  });
}
