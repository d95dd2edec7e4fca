/**
 * npm run -w bench model-quality -- [--identities N] [--seed S] [--min-score M]
 *
 * The match model alone, before SQL blocking is in the way: generates a graph and its labelled query set, then
 * for each PII query scores every person who lives or lived in the query's state (everyone when it names none)
 * and takes the best by weight. Precision and recall of that top result at the minimum score, per noise kind;
 * nationwide queries (a street line with no zip, city or state; decision 0027) are scored against everyone and
 * reported on their own.
 * The lookup endpoints' own quality (with their SQL candidate search) is measured separately.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateGraph } from '@tessera/server/features/people/generate/graph';
import { isNationwideQuery } from '@tessera/server/features/people/generate/queries';
import type { PiiFields } from '@tessera/server/features/scoring/comparisons';
import { DEFAULT_MODEL, scoreCandidate } from '@tessera/server/features/scoring/model';

const { values } = parseArgs({
  options: {
    identities: { type: 'string', default: '20000' },
    seed: { type: 'string', default: '7' },
    'min-score': { type: 'string', default: '50' },
  },
});
const out = mkdtempSync(path.join(tmpdir(), 'tessera-quality-'));
await generateGraph({ identities: Number(values.identities), seed: values.seed!, out });

type Person = PiiFields & { id: number };
const byState = new Map<string, Person[]>();
for (const line of readFileSync(path.join(out, 'people.jsonl'), 'utf8').split('\n')) {
  if (!line) continue;
  const p = JSON.parse(line);
  const homes = [{ address: p.address, city: p.city, state: p.state, zip: p.zip }];
  if (p.data.previousAddress) {
    homes.push({
      address: p.data.previousAddress,
      city: p.data.previousCity,
      state: p.data.previousState,
      zip: p.data.previousZip,
    });
  }
  for (const home of homes) {
    const list = byState.get(home.state) ?? [];
    list.push({ id: p.id, firstName: p.firstName, lastName: p.lastName, ...home });
    byState.set(home.state, list);
  }
}
const everyone = [...byState.values()].flat();
const minScore = Number(values['min-score']);
const newTally = () => ({ queries: 0, truePositive: 0, wrong: 0, missed: 0, falseAlarm: 0, trueNegative: 0 });
const tallies = { located: newTally(), nationwide: newTally() };
const missesByNoise: Record<string, number> = {};
for (const line of readFileSync(path.join(out, 'queries.jsonl'), 'utf8').split('\n')) {
  if (!line) continue;
  const q = JSON.parse(line);
  if (q.kind !== 'pii') continue;
  const tally = tallies[isNationwideQuery(q) ? 'nationwide' : 'located'];
  tally.queries++;
  const input: PiiFields = { firstName: '', lastName: '', address: '', city: '', state: '', zip: '', ...q.input };
  let best: { id: number; weight: number; score: number } | null = null;
  for (const c of byState.get(input.state) ?? everyone) {
    const s = scoreCandidate(DEFAULT_MODEL, input, c);
    if (!best || s.weight > best.weight) best = { id: c.id, weight: s.weight, score: s.score };
  }
  const predicted = best && best.score >= minScore ? best.id : null;
  if (q.identityId === null) {
    if (predicted === null) tally.trueNegative++;
    else tally.falseAlarm++;
  } else if (predicted === q.identityId) tally.truePositive++;
  else {
    if (predicted === null) tally.missed++;
    else tally.wrong++;
    for (const noise of q.noise.length ? q.noise : ['none']) missesByNoise[noise] = (missesByNoise[noise] ?? 0) + 1;
  }
}
const rates = (tally: ReturnType<typeof newTally>) => {
  const answered = tally.truePositive + tally.wrong + tally.falseAlarm;
  const positives = tally.truePositive + tally.wrong + tally.missed;
  return {
    ...tally,
    precision: Number((tally.truePositive / answered).toFixed(4)),
    recall: Number((tally.truePositive / positives).toFixed(4)),
  };
};
console.log(
  JSON.stringify(
    {
      identities: Number(values.identities),
      seed: values.seed,
      minScore,
      ...rates(tallies.located),
      nationwide: rates(tallies.nationwide),
      missesByNoise,
    },
    null,
    2,
  ),
);
