/** Test helpers: a small generated graph read back into memory, and checks the graph and query tests share. */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type LabelledQuery, labelledQuerySchema } from '../labelled-query';
import { type IdentityRecord, identityRecordSchema } from '../record';
import { FILES, type GenerateSummary, generateGraph } from './graph';

export interface LoadedGraph {
  dir: string;
  summary: GenerateSummary;
  people: IdentityRecord[];
  queries: LabelledQuery[];
  /** SHA-256 of each file. */
  hashes: Record<keyof typeof FILES, string>;
  text: Record<keyof typeof FILES, string>;
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

export async function generateSmallGraph(identities: number, seed: string): Promise<LoadedGraph> {
  const dir = await mkdtemp(path.join(tmpdir(), 'tessera-graph-'));
  const summary = await generateGraph({ identities, seed, out: dir });
  const read = (name: string) => readFile(path.join(dir, name), 'utf8');
  const text = {
    people: await read(FILES.people),
    queries: await read(FILES.queries),
    manifest: await read(FILES.manifest),
  };
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  return {
    dir,
    summary,
    people: lines(text.people).map((l) => identityRecordSchema.parse(JSON.parse(l))),
    queries: lines(text.queries).map((l) => labelledQuerySchema.parse(JSON.parse(l))),
    hashes: { people: sha(text.people), queries: sha(text.queries), manifest: sha(text.manifest) },
    text,
  };
}

/** Optimal-string-alignment distance (Levenshtein plus swapping two neighbours). */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** Case and spacing ignored. */
export const loose = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();
