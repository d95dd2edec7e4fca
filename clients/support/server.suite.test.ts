/** The client suites' server: started with a key that looks up the seeded person it names. */
import { describe, expect, it } from 'vitest';
import { useClientServer } from './server';

const env = useClientServer();

describe('client suites server', () => {
  it('gives a key that finds the named person by e-mail', async () => {
    const url = `${env.baseUrl}/v2/identities/byEmail?email=${encodeURIComponent(env.email)}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${env.apiKey.key}` } });
    expect(res.status).toBe(200);
    const ids = ((await res.json()) as { identities: { id: number }[] }).identities.map((i) => i.id);
    expect(ids).toContain(env.identityId);
  });
});
