/** What every HTTP bench sets up first: a user of the Demo organization, and the graph's e-mail queries. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { signInOverHttp } from '@tessera/server/test/http-session';
import { runCli } from '@tessera/server/test/process';

export const BENCH_PASSWORD = 'Bench-pass-1!';

/** A new user of the Demo organization (made by the CLI, as an operator would), signed in with BENCH_PASSWORD. */
export async function createBenchUser(storage: Record<string, string>, label: string): Promise<string> {
  const email = `${label}-${Date.now()}@tessera.test`;
  const created = await runCli(['user', 'create', '--email', email, '--role', 'user', '--organization', 'Demo'], {
    ...storage,
    TESSERA_PASSWORD: BENCH_PASSWORD,
  });
  if (created.code !== 0) throw new Error(`user create failed:\n${created.output}`);
  return email;
}

/** An API key of the bench user's, made through the console API of a running server: its id and request headers. */
export async function benchKey(
  base: string,
  email: string,
  label: string,
): Promise<{ keyId: string; headers: { authorization: string } }> {
  const cookie = await signInOverHttp(base, email, BENCH_PASSWORD);
  const made = await fetch(`${base}/v2/keys`, {
    method: 'POST',
    headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json', cookie },
    body: JSON.stringify({ name: `${label} ${Date.now()}` }),
  });
  const key = Object.values(((await made.json()) as { keys: Record<string, { id: string; secret: string }> }).keys)[0]!;
  return { keyId: key.id, headers: { authorization: `Bearer ${key.id}${key.secret}` } };
}

/** The generated graph's e-mail queries that find someone. */
export function graphEmails(graph: string): string[] {
  return readFileSync(path.join(graph, 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { kind: string; input: Record<string, string>; identityId: number | null })
    .filter((q) => q.kind === 'email' && q.identityId !== null)
    .map((q) => q.input.email!);
}
