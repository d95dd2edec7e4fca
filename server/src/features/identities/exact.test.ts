/** Exact-key lookups: every key endpoint, normalization, scores by strength, recency and sharing, and errors. */
import { LOOKUP_MESSAGES } from '@tessera/common/lookup-inputs';
import { PII_MESSAGES } from '@tessera/common/lookups';
import { describe, expect, it } from 'vitest';
import { consoleClient } from '../../test/console-client';
import { makeCustomer, makeUser, signIn, type TestApp } from '../../test/harness';
import { NO_CREDENTIALS } from './caller';
import { signedInCustomer } from './test-caller';
import { daysAgo, load, md5, person, sha256, uniqueEmail, uniqueIpv6 } from './test-people';

let t: TestApp;
let cookie: string;
const api = consoleClient(() => t.app);
signedInCustomer((app, signedIn) => {
  t = app;
  cookie = signedIn;
});

const get = (path: string) => api.get(`/v2/identities/${path}`, cookie);

describe('exact-key lookups', () => {
  it('finds a person by every key, each written the way callers write it', async () => {
    const p = person();
    await load(t.database, p);
    const email = p.emails[0]!.address;
    const phone = p.phones[0]!.number; // +1AAAEEENNNN
    const ip = p.ips[0]!.ip;
    const device = p.devices[0]!.deviceId;
    const vin = p.vehicles[0]!.vin;
    const calls = [
      `byEmail?email=${encodeURIComponent(`  ${email.toUpperCase()} `)}`,
      `byPhone?phone=${encodeURIComponent(`(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`)}`,
      `byMd5?md5=${md5(email).toUpperCase()}`,
      `bySha256?sha256=${sha256(email)}`,
      `byIp?ip=${encodeURIComponent(ip.toUpperCase().replace('2001:DB8:', '2001:0DB8:'))}`,
      `byDevice?device=${device.replace(/-/g, '').toUpperCase()}`,
      `byVehicle?vin=${vin.toLowerCase()}`,
      `byId?id=${p.id}`,
      `byAny?email=${encodeURIComponent(email)}`,
    ];
    for (const call of calls) {
      const res = await get(call);
      expect(res.statusCode, call).toBe(200);
      const body = res.json();
      expect(body.requestId).toBe(res.headers['x-request-id']);
      expect(
        body.identities.map((i: { id: number }) => i.id),
        call,
      ).toEqual([p.id]);
    }
  });

  it('returns the whole record with the Full template, score and matchedOn first', async () => {
    const p = person();
    await load(t.database, p);
    const res = await get(`byEmail?email=${p.emails[0]!.address}`);
    const [identity] = res.json().identities;
    expect(Object.keys(identity).slice(0, 3)).toEqual(['score', 'matchedOn', 'id']);
    expect(identity).toMatchObject({
      score: 97,
      matchedOn: ['email'],
      id: p.id,
      firstName: p.firstName,
      lastName: p.lastName,
      emails: [{ address: p.emails[0]!.address, md5: md5(p.emails[0]!.address), sha256: sha256(p.emails[0]!.address) }],
      phones: [{ number: p.phones[0]!.number, type: 'mobile', doNotCall: false }],
      finances: p.finances,
      data: p.data,
    });
  });

  it('scores by key strength: an id is certain, an e-mail nearly so', async () => {
    const p = person();
    await load(t.database, p);
    expect((await get(`byId?id=${p.id}`)).json().identities[0].score).toBe(100);
    expect((await get(`byDevice?device=${p.devices[0]!.deviceId}`)).json().identities[0].score).toBe(95);
    expect((await get(`byVehicle?vin=${p.vehicles[0]!.vin}`)).json().identities[0].score).toBe(90);
  });

  it('scores a key last seen years ago lower than a fresh one', async () => {
    const old = { firstSeen: daysAgo(3000), lastSeen: daysAgo(365 * 4) };
    const p = person({ emails: [{ address: uniqueEmail(), ...old }] });
    await load(t.database, p);
    const [identity] = (await get(`byEmail?email=${p.emails[0]!.address}&explain=true`)).json().identities;
    expect(identity.score).toBeLessThan(97);
    expect(identity.score).toBeGreaterThanOrEqual(48);
    expect(identity.explain.keys[0]).toMatchObject({
      input: 'email',
      strength: 0.97,
      sharedBy: 1,
      lastSeen: old.lastSeen,
    });
    expect(identity.explain.keys[0].recency).toBeLessThan(1);
  });

  it('splits a shared key between the people who share it, best first', async () => {
    const ip = uniqueIpv6();
    const seen = { firstSeen: daysAgo(100), lastSeen: daysAgo(5) };
    const a = person({ ips: [{ ip, ...seen }] });
    const b = person({ ips: [{ ip, ...seen }] });
    await load(t.database, a, b);
    const res = await get(`byIp?ip=${ip}&explain=true`);
    const identities = res.json().identities;
    expect(identities.map((i: { id: number }) => i.id).sort()).toEqual([a.id, b.id].sort());
    for (const identity of identities) {
      expect(identity.score).toBe(35); // 0.7 / 2
      expect(identity.explain.keys[0].sharedBy).toBe(2);
    }
  });

  it('answers a well-formed key nobody has with no identities', async () => {
    const res = await get(`byEmail?email=${uniqueEmail()}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().identities).toEqual([]);
  });

  it('answers malformed, missing, repeated and foreign inputs with 400 naming the field', async () => {
    const cases: [string, string, string][] = [
      ['byEmail?email=not-an-email', 'querystring.email', LOOKUP_MESSAGES.email],
      ['byPhone?phone=123', 'querystring.phone', LOOKUP_MESSAGES.phone],
      ['byMd5?md5=abc', 'querystring.md5', LOOKUP_MESSAGES.md5],
      ['bySha256?sha256=zz', 'querystring.sha256', LOOKUP_MESSAGES.sha256],
      ['byIp?ip=300.1.1.1', 'querystring.ip', LOOKUP_MESSAGES.ip],
      ['byDevice?device=xyz', 'querystring.device', LOOKUP_MESSAGES.device],
      ['byVehicle?vin=1HGCM82633A004353', 'querystring.vin', LOOKUP_MESSAGES.vin],
      ['byId?id=-4', 'querystring.id', LOOKUP_MESSAGES.id],
      ['byEmail', 'querystring.email', PII_MESSAGES.noInputs('byEmail', ['email'])],
      ['byEmail?phone=%2B14155550123', 'querystring.phone', PII_MESSAGES.unknownInput('phone', 'byEmail')],
      [
        'byEmail?email=a%40b.example&email=c%40d.example',
        'querystring.email',
        'Please give email once; POST several inputs to look up more than one.',
      ],
      [
        'byEmail?email=a%40b.example&minScore=101',
        'querystring.minScore',
        'Please give minScore as a number from 0 to 100.',
      ],
      [
        'byEmail?email=a%40b.example&limit=0',
        'querystring.limit',
        'Please give limit as a whole number from 1 to 100.',
      ],
      ['byEmail?email=a%40b.example&format=xml', 'querystring.format', 'Please give format as json or csv.'],
      [
        'byEmail?email=a%40b.example&template=x',
        'querystring.template',
        'Please give a template id: a positive whole number.',
      ],
    ];
    for (const [call, path, message] of cases) {
      const res = await get(call);
      expect(res.statusCode, call).toBe(400);
      expect(res.json().fields, call).toContainEqual({ path, message });
      expect(res.json().error, call).toBe(`Invalid input ${path}: ${message}`);
    }
  });

  it('asks anonymous callers to sign in or use a key, and refuses half-signed-in ones', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v2/identities/byEmail?email=a%40b.example' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe(NO_CREDENTIALS);
    const signer = await makeUser(t.database, 'user', null, { acceptTerms: false });
    const pending = await signIn(t.app, signer.email);
    expect((await api.get('/v2/identities/byEmail?email=a%40b.example', pending)).statusCode).toBe(451);
  });

  it('gives a user limited to some record types only those', async () => {
    const limited = await makeCustomer(t.database, 'user', { allowedRecordTypes: ['emails'] });
    const limitedCookie = await signIn(t.app, limited.email);
    const p = person();
    await load(t.database, p);
    const res = await api.get(`/v2/identities/byId?id=${p.id}`, limitedCookie);
    const [identity] = res.json().identities;
    expect(identity.emails).toHaveLength(1);
    expect(identity).toMatchObject({
      phones: [],
      ips: [],
      devices: [],
      vehicles: [],
      properties: [],
      finances: null,
      companies: [],
      behaviors: [],
      data: {},
    });
  });
});
