/**
 * A release's artifact (decision 0038): `git archive --format=tar.gz <commit>` of this repository, written into
 * RELEASES_DIR while its SHA-256 and size are taken. git runs without a shell; the commit is checked to be hex
 * before it reaches git (so it can never be read as an option) and to name a commit that exists.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { COMMIT_PATTERN } from '@tessera/common/deployments';

const run = promisify(execFile);

/** The full id of `commit` when it names a commit of the repository at `repoDir`, else null. */
export async function resolveCommit(repoDir: string, commit: string): Promise<string | null> {
  if (!COMMIT_PATTERN.test(commit)) return null;
  try {
    await run('git', ['-C', repoDir, 'cat-file', '-e', `${commit}^{commit}`]);
    const { stdout } = await run('git', ['-C', repoDir, 'rev-parse', '--verify', '--quiet', `${commit}^{commit}`]);
    return stdout.trim();
  } catch {
    return null;
  }
}

export interface Artifact {
  file: string;
  size: number;
  sha256: string;
}

/** Builds the artifact of `commit` as `dir/name`; a failed build leaves no file behind. */
export async function buildArtifact(repoDir: string, commit: string, dir: string, name: string): Promise<Artifact> {
  await mkdir(dir, { recursive: true });
  const final = path.join(dir, name);
  const partial = `${final}.partial-${process.pid}`;
  const hash = createHash('sha256');
  let size = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const git = spawn('git', ['-C', repoDir, 'archive', '--format=tar.gz', commit], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const out = createWriteStream(partial);
      let stderr = '';
      git.stderr.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-2000);
      });
      git.stdout.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        size += chunk.length;
      });
      git.stdout.pipe(out);
      git.on('error', reject);
      let exit: number | null | undefined;
      let flushed = false;
      const done = () => {
        if (exit === undefined || !flushed) return;
        if (exit === 0) resolve();
        else reject(new Error(`git archive exited with ${exit}: ${stderr.trim()}`));
      };
      out.on('finish', () => {
        flushed = true;
        done();
      });
      out.on('error', reject);
      git.on('close', (code) => {
        exit = code;
        done();
      });
    });
    await rename(partial, final);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { file: name, size, sha256: hash.digest('hex') };
}

export async function removeArtifact(dir: string, name: string): Promise<void> {
  await rm(path.join(dir, path.basename(name)), { force: true });
}
