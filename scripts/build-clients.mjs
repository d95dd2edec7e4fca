// Builds the client libraries' packages (issue 17) into clients/dist, which the server offers for download
// (/clients/{file}) and the console's Client Libraries page installs from: the JavaScript package as npm packs it,
// the Python wheel (its own standard-library build backend) and the Java jar with its POM, sources and javadoc (the
// JDK alone, by clients/java/build.sh package), so Maven users can install it as from a repository.
// A language whose toolchain this machine lacks is listed with the reason instead of a file. A build is made beside
// clients/dist and renamed into place, so a server never finds half of one.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newest, root } from './build-if-needed.mjs';

const CLIENTS = path.join(root, 'clients');
const DIST = path.join(CLIENTS, 'dist');
const INDEX = path.join(DIST, 'index.json');

/** What each package is built from: a change to any of them makes the packages stale. */
const SOURCES = [
  'js/src',
  'js/package.json',
  'js/scripts',
  'js/README.md',
  'python/src',
  'python/backend',
  'python/pyproject.toml',
  'python/README.md',
  'java/src/main',
  'java/pom.xml',
  'java/build.sh',
  'java/README.md',
  '../scripts/build-clients.mjs',
];

export function clientsAreStale() {
  if (!existsSync(INDEX)) return true;
  return Math.max(...SOURCES.map((s) => newest(path.join(CLIENTS, s)))) > statSync(INDEX).mtimeMs;
}

function run(command, args, cwd, env = {}) {
  const result = spawnSync(command, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8' });
  if (result.error) return { ok: false, why: `${command} is not installed` };
  if (result.status !== 0) return { ok: false, why: `${command} failed: ${(result.stderr || result.stdout).trim()}` };
  return { ok: true, stdout: result.stdout };
}

function entry(language, out, file, version) {
  const bytes = readFileSync(path.join(out, file));
  return {
    language,
    file,
    version,
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

function buildJs(out) {
  const { version } = JSON.parse(readFileSync(path.join(CLIENTS, 'js/package.json'), 'utf8'));
  const packed = run('npm', ['pack', '--silent', '--pack-destination', out], path.join(CLIENTS, 'js'));
  if (!packed.ok) return { language: 'js', version, missing: packed.why };
  return entry('js', out, packed.stdout.trim().split('\n').at(-1), version);
}

function buildPython(out) {
  const script = [
    'import sys',
    'sys.path.insert(0, "backend")',
    'import tessera_build as b',
    'print(b.version())',
    'print(b.build_wheel(sys.argv[1]))',
  ].join('\n');
  const built = run('python3', ['-c', script, out], path.join(CLIENTS, 'python'));
  if (!built.ok) return { language: 'python', missing: built.why };
  const [version, file] = built.stdout.trim().split('\n');
  return entry('python', out, file, version);
}

function buildJava(out) {
  const work = mkdtempSync(path.join(tmpdir(), 'tessera-java-package-'));
  try {
    const built = run('bash', ['build.sh', 'package'], path.join(CLIENTS, 'java'), { TESSERA_JAVA_OUT: work });
    if (!built.ok) return { language: 'java', missing: built.why };
    const jar = readdirSync(work).find((f) => /^tessera-client-[^-]+\.jar$/.test(f));
    if (!jar) return { language: 'java', missing: 'build.sh made no jar' };
    const version = jar.replace(/^tessera-client-|\.jar$/g, '');
    // What Maven's install:install-file takes beside the jar (the README's command), served at /clients/{file}.
    const files = [`tessera-client-${version}.pom`, `tessera-client-${version}-sources.jar`];
    files.push(`tessera-client-${version}-javadoc.jar`);
    for (const f of [jar, ...files]) copyFileSync(path.join(work, f), path.join(out, f));
    return { ...entry('java', out, jar, version), files };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const FOLDERS = { js: 'js', python: 'python', java: 'java' };

/** What a README writes for the server's address; the server puts its own in when it serves the README. */
const README_ORIGIN = 'https://tessera.example.com';

/**
 * Each package's README beside it, as `{language}-README.md`, so the page can link to it. Its install command
 * fetches the package from the server (issue 31): one naming another file (a version bumped without the README) is
 * reported here, and fails the clients suite.
 */
function withReadme(p, out) {
  const readme = `${p.language}-README.md`;
  const text = readFileSync(path.join(CLIENTS, FOLDERS[p.language], 'README.md'), 'utf8');
  if (p.file && !text.includes(`${README_ORIGIN}/clients/${p.file}`)) {
    console.log(`Client package ${p.language}: its README does not install ${p.file} from ${README_ORIGIN}/clients/`);
  }
  writeFileSync(path.join(out, readme), text);
  return { ...p, readme };
}

/** Builds every package into clients/dist, with index.json listing them; returns the index. */
export function buildClients() {
  const out = `${DIST}.building-${process.pid}`;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const packages = [buildJs(out), buildPython(out), buildJava(out)].map((p) => withReadme(p, out));
  for (const p of packages) {
    if (p.missing) console.log(`Client package ${p.language} not built: ${p.missing}`);
  }
  writeFileSync(path.join(out, 'index.json'), `${JSON.stringify({ packages }, null, 2)}\n`);
  rmSync(DIST, { recursive: true, force: true });
  renameSync(out, DIST);
  return packages;
}

export function buildClientsIfNeeded() {
  if (!clientsAreStale()) return;
  console.log('Building the client library packages (clients/dist)...');
  buildClients();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--force')) buildClients();
  else buildClientsIfNeeded();
}
