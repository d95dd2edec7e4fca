/** `tessera generate --identities N --seed S --out DIR`: a generated identity graph and its labelled queries. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FILES, generateGraph, MAX_IDENTITIES } from '../features/people/generate/graph';
import { createProgress, thousands } from '../features/people/generate/progress';
import { EXIT_CODES_HELP } from './exit-codes';
import { UsageError, wantsHelp } from './usage-error';

export const GENERATE_SYNOPSIS = 'generate --identities N --out DIR [--seed S]';

export const GENERATE_HELP = `Usage: tessera ${GENERATE_SYNOPSIS}

Writes a deterministic identity graph of N people and its labelled query set to DIR: ${FILES.people},
${FILES.queries} and ${FILES.manifest} (docs/identity-record.md). The same N and S give the same files.

Options:
  --identities N  people to generate, 1 to ${MAX_IDENTITIES}
  --out DIR       the folder to write into (made when missing)
  --seed S        any text of up to 200 characters (default 1)
  -h, --help      show this help

Progress (people done, rate, time left) goes to stderr: a bar redrawn in place on a terminal, otherwise a line
at each tenth of the way and at least every 30 s.

${EXIT_CODES_HELP}`;

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
  if (wantsHelp(args)) {
    console.log(GENERATE_HELP);
    return;
  }
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
