/** `tessera generate --identities N --seed S --out DIR`: a generated identity graph and its labelled queries. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FILES, generateGraph, MAX_IDENTITIES } from '../features/people/generate/graph';
import { createProgress, thousands } from '../features/people/generate/progress';
import { UsageError } from './usage-error';

export const GENERATE_USAGE = `generate --identities N --out DIR [--seed S]
                                         write a deterministic identity graph of N people (1-${MAX_IDENTITIES}) and
                                         its labelled query set to DIR; the same N and S (default 1) give the same files`;

export interface GenerateArgs {
  identities: number;
  seed: string;
  out: string;
}

/** The checked arguments; a UsageError naming the argument when one is missing or wrong. */
export function parseGenerateArgs(args: string[]): GenerateArgs {
  const { values } = parseArgs({
    args,
    options: {
      identities: { type: 'string' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string' },
    },
  });
  if (values.identities === undefined) throw new UsageError('generate needs --identities N.');
  const identities = Number(values.identities);
  if (!/^\d+$/.test(values.identities) || identities < 1 || identities > MAX_IDENTITIES) {
    throw new UsageError(
      `--identities must be a whole number from 1 to ${MAX_IDENTITIES}, not "${values.identities}".`,
    );
  }
  if (values.seed.trim() === '' || values.seed.length > 200) {
    throw new UsageError('--seed must be a non-empty text of at most 200 characters.');
  }
  if (!values.out || values.out.trim() === '') throw new UsageError('generate needs --out DIR.');
  return { identities, seed: values.seed, out: values.out };
}

export async function generateCommand(args: string[]): Promise<void> {
  const options = parseGenerateArgs(args);
  const existing = await stat(options.out).catch(() => null);
  if (existing && !existing.isDirectory()) throw new UsageError(`--out must be a directory; ${options.out} is a file.`);
  const started = performance.now();
  const summary = await generateGraph({
    ...options,
    progress: createProgress('Generating', options.identities),
  });
  const seconds = (performance.now() - started) / 1000;
  const where = path.resolve(options.out);
  console.log(
    `Wrote ${thousands(summary.identities)} identities in ${thousands(summary.households)} households to ${path.join(where, FILES.people)}`,
  );
  console.log(
    `and ${thousands(summary.queries.total)} labelled queries (${thousands(summary.queries.negative)} negative) to ${path.join(where, FILES.queries)}, in ${seconds.toFixed(1)} s (${thousands(summary.identities / seconds)} identities/s).`,
  );
}
