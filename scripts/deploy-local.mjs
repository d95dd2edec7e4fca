#!/usr/bin/env node
/**
 * The `local` environment's deploy command (decision 0038):
 *   node scripts/deploy-local.mjs <host folder> <version> <artifact .tar.gz> <sha256>
 * checks the artifact's SHA-256, unpacks it into <host>/releases/<version>, and switches <host>/current to it
 * atomically (a new link renamed over the old one). It skips `npm install`: the local hosts are folders, not
 * machines that run the product, and an install would take minutes on this box. Prints `::progress N` lines.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, symlink } from 'node:fs/promises';
import path from 'node:path';

const [host, version, artifact, sha256] = process.argv.slice(2);
if (!host || !version || !artifact || !sha256) {
  console.error('usage: deploy-local.mjs <host> <version> <artifact> <sha256>');
  process.exit(64);
}
if (!/^[0-9A-Za-z.+-]+$/.test(version)) {
  console.error(`refusing version ${JSON.stringify(version)}: not a plain semantic version`);
  process.exit(64);
}

const progress = (n) => console.log(`::progress ${n}`);

async function digest(file) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest('hex');
}

function untar(file, into) {
  return new Promise((resolve, reject) => {
    const tar = spawn('tar', ['-xzf', file, '-C', into], { stdio: ['ignore', 'inherit', 'inherit'] });
    tar.on('error', reject);
    tar.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tar exited with ${code}`))));
  });
}

console.log(`deploying ${version} to ${host}`);
progress(5);
const actual = await digest(artifact);
if (actual !== sha256) {
  console.error(`checksum mismatch: expected ${sha256}, got ${actual}`);
  process.exit(2);
}
console.log(`checksum ok: ${actual}`);
progress(25);

const releases = path.join(host, 'releases');
await mkdir(releases, { recursive: true });
const target = path.join(releases, version);
const staging = `${target}.partial-${process.pid}`;
await rm(staging, { recursive: true, force: true });
await mkdir(staging);
await untar(artifact, staging);
console.log(`unpacked into ${target}`);
progress(70);
await rm(target, { recursive: true, force: true });
await rename(staging, target);

console.log('install skipped in the local environment (decision 0038)');
progress(85);

const link = path.join(host, 'current');
const next = `${link}.next-${process.pid}`;
await rm(next, { force: true });
await symlink(path.join('releases', version), next);
await rename(next, link);
console.log(`current -> releases/${version}`);
progress(100);
