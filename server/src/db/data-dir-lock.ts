/**
 * The embedded database is one process's: PGlite does not lock its folder, and a second process writing to it
 * (say `npm run tessera -- user create` beside a running server) corrupts it. A lock file holding the owner's
 * pid refuses the second process with a message saying what to do; a lock left by a dead process is taken over.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export class DataDirInUse extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the folder's lock; returns the function that gives it back. */
export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, 'tessera.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(file, 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && alive(owner)) {
        throw new DataDirInUse(
          `The embedded database in ${dir} is in use by process ${owner}. Stop that process first, or use DATABASE_URL.`,
        );
      }
      rmSync(file, { force: true }); // left by a process that is gone
    }
  }
  throw new DataDirInUse(`Could not lock ${dir}.`);
}
