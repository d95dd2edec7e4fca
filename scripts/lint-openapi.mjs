#!/usr/bin/env node
/**
 * npm run lint:openapi: the OpenAPI document as the code generates it now (server/src/features/openapi/document.ts),
 * linted by two independent validators, Redocly (.redocly.yaml) and Spectral (.spectral.yaml), both with their
 * recommended rulesets and offline. Any error or warning from either fails. `--file PATH` lints a given document
 * instead (e.g. an earlier docs/openapi.json, to compare).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const given = process.argv.indexOf('--file');

const dir = mkdtempSync(path.join(tmpdir(), 'tessera-openapi-'));
const file = given > 0 ? path.resolve(process.argv[given + 1]) : path.join(dir, 'openapi.json');
try {
  if (given < 0) {
    const code = `import { openApiDocument } from './server/src/features/openapi/document.ts';
      process.stdout.write(JSON.stringify(openApiDocument(), null, 2));`;
    const made = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (made.status !== 0) {
      process.stderr.write(made.stderr);
      process.exit(1);
    }
    writeFileSync(file, made.stdout);
  }
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

  const redocly = spawnSync(
    bin('redocly'),
    ['lint', file, '--config', path.join(root, '.redocly.yaml'), '--format=json'],
    { cwd: root, encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 },
  );
  let totals;
  try {
    const report = JSON.parse(redocly.stdout);
    totals = report.totals;
    for (const p of report.problems ?? []) {
      const where = p.location?.[0]?.pointer ?? '';
      console.log(`redocly ${p.severity} ${p.ruleId}: ${p.message} ${where}`);
    }
  } catch {
    process.stderr.write(redocly.stdout + redocly.stderr);
    process.exit(1);
  }
  console.log(`Redocly: ${totals.errors} errors, ${totals.warnings} warnings`);

  const spectral = spawnSync(
    bin('spectral'),
    ['lint', file, '--ruleset', path.join(root, '.spectral.yaml'), '--format', 'json', '--quiet'],
    { cwd: root, encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 },
  );
  let results;
  try {
    results = JSON.parse(spectral.stdout || '[]');
  } catch {
    process.stderr.write(spectral.stdout + spectral.stderr);
    process.exit(1);
  }
  const severities = ['error', 'warning', 'info', 'hint'];
  const count = [0, 0, 0, 0];
  for (const r of results) {
    count[r.severity] += 1;
    console.log(`spectral ${severities[r.severity]} ${r.code}: ${r.message} ${r.path.join('.')}`);
  }
  console.log(`Spectral: ${count[0]} errors, ${count[1]} warnings, ${count[2]} infos, ${count[3]} hints`);

  const failed = totals.errors + totals.warnings + count[0] + count[1] > 0;
  if (failed) console.error('The OpenAPI document must lint with no errors and no warnings.');
  process.exitCode = failed ? 1 : 0;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
