/**
 * npm run -w bench runtime-rounds -- [--url URL] [--identities N] [--rounds R] [--seconds S] [--connections C]
 *   [--old /usr/bin/node] [--new PATH]
 *
 * Issue 30, item 1: the API path on the old runtime (the machine's Node, 20) and the new one (the Node 24 that npm
 * installs, node_modules/.bin/node): the same build (bench/dist, as npm start compiles it) started by each, GET
 * byEmail with an API key on PostgreSQL, loaded in interleaved rounds (old, new, old, new, ...). Reported: the
 * median of the per-round ratios new ÷ old, with the load average beside it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '@tessera/server/config';
import autocannon from 'autocannon';
import { benchKey, createBenchUser, graphEmails } from './support/bench-user';
import { prepareGraphDatabase } from './support/graph-database';
import { buildOperatorServer, startOperatorServer } from './support/operator';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/tessera_bench' },
    identities: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '16' },
    old: { type: 'string', default: '/usr/bin/node' },
    new: { type: 'string', default: path.join(REPO_ROOT, 'node_modules/.bin/node') },
  },
});
const log = (line: string) => console.error(`[runtime-rounds] ${line}`);
const version = (node: string) => execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
const runtimes = { old: values.old!, new: values.new! };
log(`old ${version(runtimes.old)}, new ${version(runtimes.new)}`);

const { graph, storage } = await prepareGraphDatabase({
  postgres: true,
  identities: Number(values.identities),
  seed: '1',
  url: values.url!,
  log,
});
const email = await createBenchUser(storage, 'runtime-rounds');
const emails = graphEmails(graph);
let n = 0;
buildOperatorServer();
const env = { ...storage, SEED_IDENTITIES: '0' };
const servers = {
  old: await startOperatorServer('runtime-old', env, runtimes.old),
  new: await startOperatorServer('runtime-new', env, runtimes.new),
};
const { headers } = await benchKey(servers.old.base, email, 'runtime-rounds');
const load = async (base: string, seconds: number) =>
  (
    await autocannon({
      url: base,
      connections: Number(values.connections),
      duration: seconds,
      headers,
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            path: `/v2/identities/byEmail?email=${encodeURIComponent(emails[n++ % emails.length]!)}`,
          }),
        },
      ],
    })
  ).requests.average;

for (const server of Object.values(servers)) await load(server.base, 5); // warm-up: JIT and caches
const rounds: { old: number; new: number; ratio: number; load1: number }[] = [];
for (let r = 0; r < Number(values.rounds); r++) {
  const old = await load(servers.old.base, Number(values.seconds));
  const fresh = await load(servers.new.base, Number(values.seconds));
  const round = { old, new: fresh, ratio: Number((fresh / old).toFixed(3)), load1: Number(loadavg()[0]!.toFixed(2)) };
  rounds.push(round);
  log(`round ${r + 1}: ${JSON.stringify(round)}`);
}
await Promise.all(Object.values(servers).map((s) => s.stop()));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const result = {
  at: new Date().toISOString(),
  old: version(runtimes.old),
  new: version(runtimes.new),
  connections: Number(values.connections),
  ratio: median(rounds.map((r) => r.ratio)),
  medianLoad1: median(rounds.map((r) => r.load1)),
  rounds,
};
const dir = path.join(REPO_ROOT, 'bench/results');
mkdirSync(dir, { recursive: true });
const file = path.join(dir, `runtime-rounds-${result.at.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(result, null, 1)}\n`);
log(`new ÷ old ${result.ratio} (median of ${rounds.length} rounds, load ${result.medianLoad1}); written ${file}`);
