/** The caller of the lookup tests: a test app and a signed-in customer of an organization with a contract. */
import { afterAll, beforeAll } from 'vitest';
import { buildTestApp, makeCustomer, signIn, type TestApp } from '../../test/harness';

/** Before a file's tests, builds the app and signs a new customer in, handing both to `use`; closes the app after. */
export function signedInCustomer(use: (t: TestApp, cookie: string) => void): void {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await buildTestApp();
    use(t, await signIn(t.app, (await makeCustomer(t.database)).email));
  });
  afterAll(() => t?.app.close());
}
