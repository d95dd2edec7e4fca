/**
 * The server version the browser is told (spec §1): the package version plus a digest of the built console,
 * so that a new build makes open pages reload. TESSERA_VERSION overrides it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './config';

export function serverVersion(staticDir: string, override: string | null): string {
  if (override) return override;
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  try {
    const index = readFileSync(path.join(staticDir, 'index.html'));
    return `${pkg.version}+${createHash('sha256').update(index).digest('hex').slice(0, 10)}`;
  } catch {
    return pkg.version;
  }
}
