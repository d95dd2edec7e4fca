/** Templates on lookups: the system ones, an organization's own, versions, sharing, and every failure as 422. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeContract, makeOrganization, makeUser, signIn, type TestApp } from '../../test/harness';
import { TEMPLATE_LIMITS } from '../templates/evaluate';
import { addVersion, createTemplate, publishVersion } from '../templates/repo';
import { latestPublished, TEMPLATE_MESSAGES } from '../templates/store';
import { load, md5, person, sha256 } from './test-people';

let t: TestApp;
let cookie: string;
let organizationId: number;
let userId: number;
const api = consoleClient(() => t.app);
const p = person();
beforeAll(async () => {
  t = await buildTestApp();
  organizationId = (await makeOrganization(t.database)).id;
  await makeContract(t.database, organizationId);
  const user = await makeUser(t.database, 'user', organizationId);
  userId = user.id;
  cookie = await signIn(t.app, user.email);
  await load(t.database, p);
});
afterAll(() => t.app.close());

const byId = (query: string) => api.get(`/v2/identities/byId?id=${p.id}&${query}`, cookie);
const own = (expression: string, publish = true, organization: number | null = organizationId) =>
  createTemplate(t.database, { name: 'Mine', organizationId: organization, createdBy: userId, expression, publish });

describe('templates', () => {
  it('shapes identities with each system template', async () => {
    const email = p.emails[0]!.address;
    const expected: Record<number, Record<string, unknown>> = {
      2: {
        id: p.id,
        firstName: p.firstName,
        lastName: p.lastName,
        address: p.address,
        city: p.city,
        state: p.state,
        zip: p.zip,
        email,
        phone: p.phones[0]!.number,
      },
      3: { id: p.id, emails: [email] },
      4: { id: p.id, md5: [md5(email)], sha256: [sha256(email)] },
      5: {
        id: p.id,
        firstName: p.firstName,
        middleName: p.middleName,
        lastName: p.lastName,
        suffix: p.suffix,
        address: p.address,
        city: p.city,
        state: p.state,
        zip: p.zip,
        zip4: p.zip4,
      },
    };
    for (const [id, fields] of Object.entries(expected)) {
      const [identity] = (await byId(`template=${id}`)).json().identities;
      expect(identity, `template ${id}`).toEqual({ score: 100, matchedOn: ['id'], ...fields });
    }
    const hashed = JSON.stringify((await byId('template=4')).json());
    expect(hashed).not.toContain(email);
  });

  it("uses an organization's template at its latest published version, never a draft", async () => {
    const { id } = await own('{ "who": firstName & " " & lastName }');
    const draft = await addVersion(t.database, id, '{ "draft": true }', { publish: false, createdBy: userId });
    expect((await byId(`template=${id}`)).json().identities[0]).toEqual({
      score: 100,
      matchedOn: ['id'],
      who: `${p.firstName} ${p.lastName}`,
    });
    await publishVersion(t.database, id, draft);
    expect(await latestPublished(t.database, id)).toMatchObject({ version: 2, expression: '{ "draft": true }' });
  });

  it("refuses another organization's template, a missing one, and one never published, alike", async () => {
    const other = (await makeOrganization(t.database)).id;
    const theirs = await own('{ "x": 1 }', true, other);
    const unpublished = await own('{ "x": 1 }', false);
    for (const id of [theirs.id, unpublished.id, 999_999]) {
      const res = await byId(`template=${id}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual([{ path: 'template', message: TEMPLATE_MESSAGES.unknown(id) }]);
    }
    // adminIds name who may edit (users or organizations); they never let another organization use it.
    const listed = await createTemplate(t.database, {
      name: 'Listed',
      organizationId: other,
      createdBy: null,
      adminIds: [organizationId, userId],
      expression: '{ "listed": true }',
      publish: true,
    });
    expect((await byId(`template=${listed.id}`)).statusCode).toBe(400);
    // Staff use any organization's template.
    const staff = await signIn(t.app, (await makeUser(t.database, 'super')).email);
    const res = await api.get(`/v2/identities/byId?id=${p.id}&template=${theirs.id}`, staff);
    expect(res.json().identities[0].x).toBe(1);
  });

  it('answers 422 with the error when a template fails, runs too long or too deep, or makes no object', async () => {
    const failing = await own('{ "n": $number("not a number") }');
    const res = await byId(`template=${failing.id}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatch(new RegExp(`^Template ${failing.id} \\(Mine, version 1\\) failed: .+`));
    const deep = await own('( $f := function($n) { $n = 0 ? 0 : 1 + $f($n - 1) }; { "n": $f(100000) } )');
    const deepRes = await byId(`template=${deep.id}`);
    expect(deepRes.statusCode).toBe(422);
    expect(deepRes.json().error).toContain(`nested deeper than ${TEMPLATE_LIMITS.maxDepth} levels`);
    const slow = await own(
      '( $loop := function($n) { $n > 0 ? $loop($n - 1) : 0 }; { "n": $sum([1..2000000].($loop(0))) } )',
    );
    const slowRes = await byId(`template=${slow.id}`);
    expect(slowRes.statusCode).toBe(422);
    expect(slowRes.json().error).toContain(`ran longer than ${TEMPLATE_LIMITS.timeoutMs} ms`);
    const text = await own('firstName');
    const textRes = await byId(`template=${text.id}`);
    expect(textRes.statusCode).toBe(422);
    expect(textRes.json().error).toContain('it must produce an object for each identity, holding only objects');
  });

  it('never quotes the record in a failure, not even through $error()', async () => {
    const email = p.emails[0]!.address;
    for (const expression of [
      '( $error($string($)) )',
      '{ "n": $number(lastName) }',
      '{ "n": emails[0].address + 1 }',
    ]) {
      const t1 = await own(expression);
      const res = await byId(`template=${t1.id}`);
      expect(res.statusCode, expression).toBe(422);
      expect(res.body, expression).not.toContain(email);
      expect(res.body, expression).not.toContain(p.lastName);
    }
  });

  it('refuses to save a template that does not compile', async () => {
    await expect(own('{ "a": ')).rejects.toThrow(/at character/);
  });
});
