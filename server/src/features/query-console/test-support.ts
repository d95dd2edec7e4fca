/** Query console tests: a root signed in with a confirmed password, and calls with the console's headers. */

import { consoleClient } from '../../test/console-client';
import { makeUser, PASSWORD, signIn, type TestApp } from '../../test/harness';

export async function confirmedRoot(t: TestApp) {
  const root = await makeUser(t.database, 'root');
  const cookie = await signIn(t.app, root.email);
  const res = await consoleClient(() => t.app).post('/auth/confirm', cookie, { password: PASSWORD });
  if (res.statusCode !== 200) throw new Error(`confirm failed: ${res.body}`);
  return { root, cookie };
}
