import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../test/process';
import { parseGenerateArgs } from './generate';
import { UsageError } from './usage-error';

const scratch = () => mkdtempSync(path.join(tmpdir(), 'tessera-generate-'));

describe('tessera generate: arguments', () => {
  it('reads identities, seed (default 1) and out', () => {
    expect(parseGenerateArgs(['--identities', '500', '--seed', 'abc', '--out', 'x'])).toEqual({
      identities: 500,
      seed: 'abc',
      out: 'x',
    });
    expect(parseGenerateArgs(['--identities', '5', '--out', 'x']).seed).toBe('1');
  });

  it('names the argument that is missing or wrong', () => {
    const fails = (args: string[], message: string) => {
      expect(() => parseGenerateArgs(args)).toThrow(UsageError);
      expect(() => parseGenerateArgs(args)).toThrow(message);
    };
    fails(['--out', 'x'], 'generate needs --identities N.');
    for (const bad of ['0', '-5', '1.5', 'abc', '1e6', '10000001', '']) {
      fails(
        [`--identities=${bad}`, '--out', 'x'],
        `--identities must be a whole number from 1 to 10000000, not "${bad}".`,
      );
    }
    fails(['--identities', '10'], 'generate needs --out DIR.');
    fails(['--identities', '10', '--out', 'x', '--seed', ''], '--seed must be a non-empty text');
    expect(() => parseGenerateArgs(['--identities', '10', '--out', 'x', '--colour', 'red'])).toThrow("'--colour'");
  });
});

describe('tessera generate: the command', () => {
  it('writes the graph, the queries and the manifest, with progress on stderr', async () => {
    const out = path.join(scratch(), 'graph');
    const { code, stdout, stderr } = await runCli(
      ['generate', '--identities', '300', '--seed', 'cli', '--out', out],
      {},
    );
    expect(code).toBe(0);
    // Not a terminal: plain lines with the count, the rate and the time left, then the total.
    expect(stderr).toMatch(/^Generating: \d+% \([\d,]+\/300\), [\d,]+\/s, (\d+:\d\d|\?) left\n/);
    expect(stderr).toMatch(/\nGenerating: 100% \(300\/300\) in [\d.]+ s, [\d,]+\/s\n$/);
    expect(stderr).not.toContain('\r');
    expect(stdout).toMatch(/^Wrote 300 identities in \d+ households/);
    expect(readFileSync(path.join(out, 'people.jsonl'), 'utf8').split('\n')).toHaveLength(301);
    expect(JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'))).toMatchObject({
      identities: 300,
      seed: 'cli',
    });
  });

  it('exits 2 with a message naming a bad --identities', async () => {
    const bad = await runCli(['generate', '--identities', 'lots', '--out', scratch()], {});
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      `tessera generate: --identities must be a whole number from 1 to 10000000, not "lots". Try 'tessera generate --help'.\n`,
    );
  });

  it('exits 2 when --out is a file, or for a stray argument', async () => {
    const file = path.join(scratch(), 'a-file');
    writeFileSync(file, '');
    const notDir = await runCli(['generate', '--identities', '5', '--out', file], {});
    expect(notDir.code).toBe(2);
    expect(notDir.output).toContain(`--out must be a directory; ${file} is a file.`);
    const positional = await runCli(['generate', 'extra', '--identities', '5', '--out', scratch()], {});
    expect(positional.code).toBe(2);
    expect(positional.output).toContain("Unexpected argument 'extra'");
  });
});
