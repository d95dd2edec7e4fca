/**
 * The fault suite, balancer side (issue 27, decision 0046): two real server processes on one PostgreSQL database
 * behind a real HAProxy with deploy/haproxy.cfg's layer-7 retries and request ids. Under load, one node is killed
 * with SIGKILL, restarted, then the other is drained with SIGTERM. Every call is billed exactly once: the usage rows
 * of the key are exactly the distinct request ids answered 2xx, no id twice, and the totals (`usage_totals`, and the
 * rollups once the aggregator has caught up) count exactly the 2xx answers.
 *
 * Which direction is exact, and why both are here: a 2xx is sent only once its usage row is durable, so every id
 * answered 2xx is billed, always. The other direction (nothing billed that was not answered) depends on the caller:
 * a node may commit a row and die before its reply leaves, and HAProxy's retry answers that call under the same id
 * from the other node (billed once: that is what is tested); but should HAProxy run out of retries, the client
 * sees a 5xx for a call already billed. So these clients do what decision 0046 lets a client do: a 5xx that names a
 * request id (HAProxy's own error replies are given the id here, with http-after-response) is sent again under that
 * id until answered, as an integrator would. Then every id billed was, in the end, answered, and the equality is
 * exact both ways. A call that got no reply at all (its id unknown) would break that; the test asserts there was none.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../config';
import { type Database, openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { load, person } from '../features/identities/test-people';
import { WRITE_NAME } from '../features/usage/metering';
import { type ScratchDatabase, scratchDatabase } from '../test/databases';
import { HAPROXY, startHaproxy, type TestHaproxy } from '../test/haproxy';
import { CONSOLE_HEADERS, makeCustomer, PASSWORD } from '../test/harness';
import { signInOverHttp } from '../test/http-session';
import { type Child, freePort, runChild } from '../test/process';
import { scratchDir } from '../test/scratch-dir';
import { rollUpAll } from '../test/usage-rollups';
import { sleep, within } from './timing';

const base = inject('databaseUrl') ? process.env.TEST_DATABASE_URL : undefined;
const skip = !base
  ? 'needs TEST_DATABASE_URL, in the server-postgres project'
  : !existsSync(HAPROXY)
    ? `${HAPROXY} is missing (apt-get install haproxy)`
    : null;

/** The settings under test, word for word as deploy/haproxy.cfg has them (checked below, so they cannot drift). */
const DEPLOYED = {
  retries: ['retries 3', 'option redispatch 1', 'retry-on conn-failure empty-response response-timeout 503'],
  requestId: [
    'unique-id-format %{+X}o%ci:%cp_%fi:%fp_%Ts_%rt:%pid',
    'http-request set-header X-Request-Id %[unique-id] unless { req.hdr(x-request-id) -m found }',
    'http-request set-var(txn.request_id) req.hdr(x-request-id)',
    'http-after-response set-header X-Request-Id %[var(txn.request_id)] unless { res.hdr(x-request-id) -m found }',
  ],
  checks: ['balance roundrobin', 'option httpchk GET /readyz', 'http-check expect status 200'],
  defaults: [
    'mode http',
    'timeout connect 2s',
    'timeout client 60s',
    'timeout server 60s',
    'timeout http-request 10s',
    'option http-keep-alive',
  ],
};
/** An id made by that unique-id-format: client and frontend address and port, time, counter, pid, all hexadecimal. */
const BALANCER_ID = /^[0-9A-F]+:[0-9A-F]+_[0-9A-F]+:[0-9A-F]+_[0-9A-F]+_[0-9A-F]+:[0-9A-F]+$/;

const LOOPS = 8;
const PEOPLE = 8;
/** Bounds of the load: it stops at whichever comes first, and a phase that cannot finish within them fails. */
const MAX_CALLS = 40_000;
const LOAD_LIMIT_MS = 240_000;
/** 2xx answers each phase waits for. */
const PHASE_CALLS = 300;
/** Most SIGKILLs of node1 tried for one that catches a usage write running. */
const MAX_KILLS = 8;
/** How often a client sends a 5xx'd call again under its id before giving up (it never should). */
const CLIENT_ATTEMPTS = 20;

/** Polls `check` until true, bounded by `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms: number, what: string, pauseMs = 25) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    if (pauseMs > 0) await sleep(pauseMs);
  }
}

/** The ids of the calls HAProxy retried (its log lines `call <id> <server> <status> <retries> ...`). */
const retriedCalls = (log: string) =>
  log
    .split('\n')
    .map((l) => /^call (\S+) \S+ \d+ \+?([0-9]+) /.exec(l))
    .filter((m) => m && Number(m[2]) > 0)
    .map((m) => m![1]!);

describe('the HAProxy settings under test', () => {
  it('are those of deploy/haproxy.cfg', () => {
    const deployed = readFileSync(path.join(REPO_ROOT, 'deploy/haproxy.cfg'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    for (const line of Object.values(DEPLOYED).flat()) expect(deployed).toContain(line);
  });
});

/** One answer a client got: HTTP status (or 'error': no answer at all) and the request id it was sent under. */
interface Answer {
  status: number | 'error';
  id: string | null;
  /** The HAProxy server that answered (X-Served-By), null for HAProxy's own replies. */
  servedBy: string | null;
  /** Whether this was the client sending a 5xx'd call again under its id. */
  resent: boolean;
}

interface LoadRun {
  answers: Answer[];
  /** Calls answered 2xx so far (after any resends). */
  served(): number;
  servedBy(server: string): number;
  stop(): Promise<void>;
}

/** LOOPS client loops of GET lookups through the balancer, each call sent again under its id after a 5xx. */
function startLoad(urls: string[], authorization: string): LoadRun {
  const answers: Answer[] = [];
  let served = 0;
  const byServer = new Map<string, number>();
  let running = true;
  let calls = 0;
  const deadline = Date.now() + LOAD_LIMIT_MS;
  const call = async (url: string) => {
    let sentId: string | null = null;
    for (let attempt = 0; attempt < CLIENT_ATTEMPTS; attempt++) {
      let answer: Answer;
      try {
        const res = await fetch(url, {
          headers: { authorization, ...(sentId ? { 'x-request-id': sentId } : {}) },
          signal: AbortSignal.timeout(20_000),
        });
        await res.arrayBuffer();
        answer = {
          status: res.status,
          id: res.headers.get('x-request-id'),
          servedBy: res.headers.get('x-served-by'),
          resent: sentId !== null,
        };
      } catch {
        answers.push({ status: 'error', id: sentId, servedBy: null, resent: sentId !== null });
        return;
      }
      answers.push(answer);
      if (typeof answer.status === 'number' && answer.status < 300) {
        served++;
        if (answer.servedBy) byServer.set(answer.servedBy, (byServer.get(answer.servedBy) ?? 0) + 1);
        return;
      }
      // A 5xx is sent again under the id it carries (decision 0046: a retry is answered and billed once).
      if (typeof answer.status !== 'number' || answer.status < 500 || !answer.id) return;
      sentId ??= answer.id;
      await sleep(100);
    }
  };
  const loop = async (n: number) => {
    for (let i = n; running && calls < MAX_CALLS && Date.now() < deadline; i += LOOPS) {
      calls++;
      await call(urls[i % urls.length]!);
    }
  };
  const loops = Array.from({ length: LOOPS }, (_, n) => loop(n));
  return {
    answers,
    served: () => served,
    servedBy: (server) => byServer.get(server) ?? 0,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe.skipIf(skip)(`a node killed and a node drained behind HAProxy${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let scratch: ScratchDatabase;
  let direct: Database;
  let balancer: TestHaproxy | undefined;
  const nodes: { name: string; port: number; child: Child }[] = [];
  let running: LoadRun | undefined;

  const nodeEnv = (name: string, port: number) => ({
    DATABASE_URL: scratch.url,
    DATA_DIR: scratchDir('data'),
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED_IDENTITIES: '0',
    // Its connections' application_name, so pg_stat_activity tells which node a statement comes from.
    PGAPPNAME: `tessera-${name}`,
    // A node is one process here, so that SIGKILL takes all of it (decision 0043's workers would outlive a primary).
    WEB_CONCURRENCY: '1',
  });
  async function startNode(name: string, port: number): Promise<Child> {
    const child = runChild(['server/src/main.ts'], nodeEnv(name, port));
    nodes.push({ name, port, child });
    await child.waitFor('Tessera console:');
    return child;
  }
  /** Until the node (its PGAPPNAME) has a usage write running on PostgreSQL; polled without pause, bounded. */
  const meteringOf = (name: string) =>
    until(
      async () => {
        const [row] = await direct.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
           where application_name = $1 and state = 'active' and query like $2`,
          [`tessera-${name}`, `/* ${WRITE_NAME} */%`],
        );
        return row!.n > 0;
      },
      60_000,
      `${name} writing usage`,
      0,
    );
  const nodeUp = (name: string) =>
    until(
      async () => (await balancer!.serverStatus('nodes', name)).startsWith('UP'),
      30_000,
      `HAProxy seeing ${name} up`,
    );

  beforeAll(async () => {
    scratch = await scratchDatabase(base!, 'lb');
    if (scratch.url === base) throw new Error('This test needs a database of its own (the CREATEDB right).');
    direct = await openDatabase({ url: scratch.url, poolSize: 2 });
    await migrate(direct);
  }, 120_000);

  afterAll(async () => {
    await running?.stop();
    for (const { child } of nodes) {
      if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGTERM');
      await child.exited;
    }
    await balancer?.stop();
    await direct?.close();
    await scratch?.drop();
  }, 60_000);

  it('bills every call answered exactly once, through a SIGKILL of one node and a SIGTERM of the other', async () => {
    const [port1, port2] = [await freePort(), await freePort()];
    await Promise.all([startNode('node1', port1), startNode('node2', port2)]);
    balancer = await startHaproxy(({ port, adminSocket }) =>
      [
        'global',
        '    maxconn 4096',
        '    tune.bufsize 1048576',
        `    stats socket ${adminSocket} mode 600 level admin`,
        '    log stdout format raw local0',
        'defaults',
        '    log global',
        ...[...DEPLOYED.defaults, ...DEPLOYED.retries].map((l) => `    ${l}`),
        'frontend tessera',
        `    bind 127.0.0.1:${port}`,
        ...DEPLOYED.requestId.map((l) => `    ${l}`),
        // For the test only: which node answered, and a log line per call with its id, server, status and retries.
        '    http-response set-header X-Served-By %[srv_name]',
        '    log-format "call %ID %s %ST %rc %tsc"',
        '    default_backend nodes',
        'backend nodes',
        ...DEPLOYED.checks.map((l) => `    ${l}`),
        // Deployed: inter 1s fall 2 rise 1; shorter here, so the phases below take less of the load's bounds.
        `    server node1 127.0.0.1:${port1} check inter 200ms fall 2 rise 1`,
        `    server node2 127.0.0.1:${port2} check inter 200ms fall 2 rise 1`,
        '',
      ].join('\n'),
    );
    await nodeUp('node1');
    await nodeUp('node2');

    // A customer with a contract and an API key, made over HTTP through the balancer; people to look up.
    const customer = await makeCustomer(direct);
    const people = Array.from({ length: PEOPLE }, () => person());
    await load(direct, ...people);
    const cookie = await signInOverHttp(balancer.url, customer.email, PASSWORD);
    const made = await fetch(`${balancer.url}/v2/keys`, {
      method: 'POST',
      headers: { ...CONSOLE_HEADERS, cookie },
      body: JSON.stringify({ name: 'balanced' }),
    });
    expect(made.status).toBe(201);
    const [key] = Object.values(((await made.json()) as { keys: Record<string, { id: string; secret: string }> }).keys);
    const urls = people.map(
      (p) => `${balancer!.url}/v2/identities/byEmail?email=${encodeURIComponent(p.emails[0]!.address)}`,
    );

    const load$ = startLoad(urls, `Bearer ${key!.id}${key!.secret}`);
    running = load$;
    const restartNode1 = async () => {
      await startNode('node1', port1);
      await nodeUp('node1');
      const before = load$.servedBy('node1');
      await until(() => load$.servedBy('node1') >= before + 50, LOAD_LIMIT_MS, 'the restarted node1 serving');
    };
    const served = (n: number, what: string) => {
      const target = load$.served() + n;
      return until(() => load$.served() >= target, LOAD_LIMIT_MS, what);
    };
    await served(PHASE_CALLS, `${PHASE_CALLS} calls answered by both nodes`);

    // SIGKILL of node1 mid-load, at a moment its usage write is running on PostgreSQL: the statement was sent whole,
    // so PostgreSQL commits it although node1 is gone, and those calls are billed by a node that never answered them.
    // HAProxy retries them on node2 under the same ids, which must answer them and bill nothing more. The kill is
    // repeated (node1 restarted each time, a bounded number of times) until a call was seen to go that way: a usage
    // row written before the kill for a call HAProxy retried after it.
    let billedByTheKilled = 0;
    for (let kill = 1; kill <= MAX_KILLS && billedByTheKilled === 0; kill++) {
      if (kill > 1) await restartNode1();
      await meteringOf('node1');
      const node1 = nodes.filter((n) => n.name === 'node1').at(-1)!.child;
      const logMark = balancer.output().length;
      const killedAt = new Date();
      node1.proc.kill('SIGKILL');
      await node1.exited;
      await served(PHASE_CALLS, `${PHASE_CALLS} calls answered with node1 killed`);
      const retried = retriedCalls(balancer.output().slice(logMark));
      const [caught] = await direct.query<{ n: number }>(
        'select count(*)::int as n from usage where key_id = $1 and request_id = any($2::text[]) and at < $3',
        [key!.id, retried, killedAt],
      );
      console.log(`balancer test: kill ${kill}: ${retried.length} calls retried, ${caught!.n} billed by node1`);
      billedByTheKilled += caught!.n;
    }
    expect(billedByTheKilled, `no kill in ${MAX_KILLS} caught node1 with a usage write running`).toBeGreaterThan(0);

    // node1 comes back on its port; once HAProxy sees it up and it serves, node2 drains under load.
    await restartNode1();
    const second = nodes.find((n) => n.name === 'node2')!.child;
    second.proc.kill('SIGTERM');
    expect(await within(second.exited, 30_000, 'the drain of node2')).toBe(0);
    await served(PHASE_CALLS, `${PHASE_CALLS} calls answered after node2 drained`);
    await load$.stop();

    // What the clients got.
    const { answers } = load$;
    const ok = answers.filter((a) => typeof a.status === 'number' && a.status < 300);
    const answered = new Set(ok.map((a) => a.id!));
    const statuses = new Map<string, number>();
    for (const a of answers) statuses.set(String(a.status), (statuses.get(String(a.status)) ?? 0) + 1);
    const lost = answers.filter((a) => a.status === 'error');
    // The ids a client never got a 2xx for, in the end (a 5xx it gave up resending, or a call with no reply).
    const unanswered = new Set(answers.filter((a) => a.id && !answered.has(a.id)).map((a) => a.id!));
    const retriedByBalancer = retriedCalls(balancer.output());
    console.log(
      `balancer test: ${answers.length} answers ${JSON.stringify(Object.fromEntries(statuses))}, ` +
        `${answered.size} calls answered 2xx, ${answers.filter((a) => a.resent).length} sent again by clients, ` +
        `${retriedByBalancer.length} retried by HAProxy, ${billedByTheKilled} billed by a killed node`,
    );

    // Every 2xx carries the balancer's id (the server took it: it did not make its own), and no two share one.
    expect(ok.filter((a) => !a.id || !BALANCER_ID.test(a.id))).toEqual([]);
    expect(answered.size).toBe(ok.length);
    // Nothing but 2xx and the 5xx of a node going away; never a reused id's 409 for a retry.
    for (const status of statuses.keys()) expect(['200', '502', '503', '504']).toContain(status);
    expect(lost).toEqual([]);
    if (unanswered.size > 0) {
      console.log('unanswered:', JSON.stringify(answers.filter((a) => a.id && unanswered.has(a.id)).slice(0, 12)));
    }
    expect([...unanswered]).toEqual([]);

    // Billed: exactly the calls answered, each once.
    const rows = await direct.query<{ request_id: string; at: Date }>(
      'select request_id, at from usage where key_id = $1',
      [key!.id],
    );
    const billed = rows.map((r) => r.request_id);
    expect(new Set(billed).size).toBe(billed.length);
    const billedNotAnswered = billed.filter((id) => !answered.has(id));
    const answeredNotBilled = [...answered].filter((id) => !new Set(billed).has(id));
    expect({ billedNotAnswered, answeredNotBilled }).toEqual({ billedNotAnswered: [], answeredNotBilled: [] });
    expect(billed.length).toBe(answered.size);
    // Audited once per call, too (one input each).
    const [audit] = await direct.query<{ n: number; ids: number }>(
      'select count(*)::int as n, count(distinct request_id)::int as ids from lookup_audit where key_id = $1',
      [key!.id],
    );
    expect(audit).toEqual({ n: answered.size, ids: answered.size });

    // Totals: exact while rows are still in the tail, and once the aggregator has counted them all.
    const totals = async (source: 'usage_totals' | 'usage_rollups') =>
      (
        await direct.query<{ n: number }>(
          `select coalesce(sum(requests), 0)::int as n from ${source} where bucket = 'day' and key_id = $1`,
          [key!.id],
        )
      )[0]!.n;
    const [tail] = await direct.query<{ n: number }>('select count(*)::int as n from usage_tail() where key_id = $1', [
      key!.id,
    ]);
    expect(await totals('usage_totals')).toBe(answered.size);
    console.log(`balancer test: ${tail!.n} of the key's ${billed.length} rows not yet rolled up at the first read`);
    await rollUpAll(direct);
    expect(await totals('usage_totals')).toBe(answered.size);
    expect(await totals('usage_rollups')).toBe(answered.size);
  }, 360_000);
});
