/**
 * npm run -w bench fit-model -- [--identities N] [--seed S]
 *
 * Fits the match model's m and u (server/src/features/scoring/fit.ts) on a generated graph and its labelled PII
 * queries, loaded into an embedded database in this process, and writes server/src/features/scoring/fitted-model.json,
 * which the lookups use. Fit on one seed (default 7) and measure on another (the lookups bench uses seed 1), so the
 * figures are for data the model has not seen.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '@tessera/server/config';
import type { Database } from '@tessera/server/db/client';
import { openDatabase } from '@tessera/server/db/client';
import { migrate } from '@tessera/server/db/migrate';
import { runLookup } from '@tessera/server/features/identities/engine';
import { visibleTypes } from '@tessera/server/features/identities/record-sql';
import { generateGraph } from '@tessera/server/features/people/generate/graph';
import { isNationwideQuery } from '@tessera/server/features/people/generate/queries';
import { seedIdentities } from '@tessera/server/features/people/import/seed';
import type { PiiFields } from '@tessera/server/features/scoring/comparisons';
import { fitModel } from '@tessera/server/features/scoring/fit';
import { DEFAULT_MODEL, type MatchModel } from '@tessera/server/features/scoring/model';

const { values } = parseArgs({
  options: {
    identities: { type: 'string', default: '30000' },
    seed: { type: 'string', default: '7' },
    'evaluate-seed': { type: 'string', default: '1' },
  },
});
const identities = Number(values.identities);

/** A graph generated and loaded into a new embedded database, with its labelled PII queries. */
async function graph(seed: string) {
  const out = mkdtempSync(path.join(tmpdir(), 'tessera-fit-'));
  await generateGraph({ identities, seed, out });
  const database = await openDatabase({ dataDir: null });
  await migrate(database);
  await seedIdentities(database, identities, seed);
  await database.query('analyze');
  const queries = readFileSync(path.join(out, 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    // located queries only, as the model was fitted before nationwide ones were generated (decision 0027)
    .filter((q) => q.kind === 'pii' && !isNationwideQuery(q))
    .map((q) => ({
      input: { firstName: '', lastName: '', address: '', city: '', state: '', zip: '', ...q.input } as PiiFields,
      identityId: q.identityId as number | null,
    }));
  return { database, queries };
}

/** Precision and recall of the top result, through the lookup engine itself. */
async function measure(
  database: Database,
  queries: { input: PiiFields; identityId: number | null }[],
  model: MatchModel,
) {
  const t = { right: 0, wrong: 0, missed: 0, falseAlarm: 0, trueNegative: 0 };
  for (let i = 0; i < queries.length; i += 500) {
    const batch = queries.slice(i, i + 500);
    const results = await runLookup(
      database,
      batch.map((q) => ({ raw: '', keys: [], pii: q.input })),
      { types: visibleTypes(['emails']), minScore: null, limit: 1, model, today: new Date() },
    );
    batch.forEach((q, j) => {
      const top = results[j]![0]?.record.id ?? null;
      if (q.identityId === null) t[top === null ? 'trueNegative' : 'falseAlarm']++;
      else if (top === q.identityId) t.right++;
      else t[top === null ? 'missed' : 'wrong']++;
    });
  }
  return {
    ...t,
    precision: Number((t.right / (t.right + t.wrong + t.falseAlarm)).toFixed(4)),
    recall: Number((t.right / (t.right + t.wrong + t.missed)).toFixed(4)),
  };
}

const training = await graph(values.seed!);
const queries = training.queries;
const model = await fitModel(training.database, queries);
await training.database.close();
const heldOut = await graph(values['evaluate-seed']!);
const evaluation = {
  seed: values['evaluate-seed'],
  piiQueries: heldOut.queries.length,
  default: await measure(heldOut.database, heldOut.queries, DEFAULT_MODEL),
  fitted: await measure(heldOut.database, heldOut.queries, model),
};
await heldOut.database.close();
console.log(JSON.stringify(evaluation, null, 2));
const round = (n: number) => Number(n.toPrecision(4));
const rounded = JSON.parse(JSON.stringify(model), (_k, v) => (typeof v === 'number' ? round(v) : v));
const file = path.join(REPO_ROOT, 'server/src/features/scoring/fitted-model.json');
writeFileSync(
  file,
  `${JSON.stringify({ fittedOn: { identities, seed: values.seed, piiQueries: queries.length }, evaluation, ...rounded }, null, 2)}\n`,
);
console.log(`fitted on ${queries.length} PII queries of a ${identities}-person graph (seed ${values.seed}) → ${file}`);
