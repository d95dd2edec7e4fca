/**
 * The sandbox's waiting jobs, kept per owner (an organization, or a user who has none) so that no owner's flood
 * starves another's (issue 28, finding 4; decision 0049).
 *
 * - *Turns.* The next job goes to the waiting owner whose turn came least recently (round-robin across owners, not
 *   first come first served); within an owner, first come first served.
 * - *Shares.* An owner holds at most its share of the processes (half, rounded up) while any other owner has a job
 *   waiting or running, or had one in the last `reserveMs`: the rest stay free for them, so their next call starts at
 *   once instead of waiting for the flood's running jobs to end (up to a hard kill, 1.5 s, or a 250-record batch).
 *   An owner alone may use every process.
 * - *Bounds* are the sandbox's: past its bound of waiting jobs an owner's call is refused (429).
 */

/** Processes of a pool of `size` one owner may hold while others are about: half, rounded up. */
export const shareOf = (size: number) => Math.ceil(size / 2);

interface Owner<T> {
  queue: T[];
  running: number;
  /**
   * When its last turn came, as a count of turns. An owner entering the rotation takes half a turn less than the
   * latest: behind every owner that has waited longer, ahead of the one served last.
   */
  lastTurn: number;
}

export interface FairQueueOptions {
  /** How long an owner that went idle still keeps others to their share (its next call is likely near). */
  reserveMs: number;
  /** Milliseconds, monotonic. */
  now?: () => number;
}

export interface FairQueue<T> {
  /** Jobs waiting, all owners together. */
  readonly length: number;
  /** Owners with a job waiting or running. */
  readonly owners: number;
  queued(owner: string): number;
  push(owner: string, job: T): void;
  /** The next job that may go, now counted as running for its owner; undefined when none may. */
  take(): T | undefined;
  /** Milliseconds until a job held back only by an idle owner's reserve may go; undefined when none is. */
  heldFor(): number | undefined;
  /** One of `owner`'s running jobs ended, however it ended. */
  finished(owner: string): void;
  /** Every waiting job, removed (the sandbox is closing or cannot start). */
  drain(): T[];
}

export function createFairQueue<T>(size: number, options: FairQueueOptions): FairQueue<T> {
  const share = shareOf(size);
  const now = options.now ?? (() => performance.now());
  const owners = new Map<string, Owner<T>>();
  /** Owners gone idle within reserveMs, with when. Only these are remembered once idle: nothing grows with owners. */
  const idleSince = new Map<string, number>();
  let turns = 0;
  let length = 0;

  const prune = () => {
    const since = now() - options.reserveMs;
    for (const [other, at] of idleSince) if (at <= since) idleSince.delete(other);
  };
  const forgetIfIdle = (name: string, owner: Owner<T>) => {
    if (owner.queue.length > 0 || owner.running > 0) return;
    owners.delete(name);
    prune();
    idleSince.set(name, now());
  };
  /** Whether an owner other than `name` is about: working, or idle for less than reserveMs. */
  const othersAbout = (name: string) => {
    prune();
    for (const other of owners.keys()) if (other !== name) return true;
    for (const other of idleSince.keys()) if (other !== name) return true;
    return false;
  };
  /** Least recent turn first among owners under their share; one at its share only when no one else is about. */
  const next = (): Owner<T> | undefined => {
    let under: [string, Owner<T>] | undefined;
    let over: [string, Owner<T>] | undefined;
    for (const entry of owners) {
      const owner = entry[1];
      if (owner.queue.length === 0) continue;
      if (owner.running < share) {
        if (!under || owner.lastTurn < under[1].lastTurn) under = entry;
      } else if (!over || owner.lastTurn < over[1].lastTurn) {
        over = entry;
      }
    }
    if (under) return under[1];
    if (over && !othersAbout(over[0])) return over[1];
    return undefined;
  };

  return {
    get length() {
      return length;
    },
    get owners() {
      return owners.size;
    },
    queued: (name) => owners.get(name)?.queue.length ?? 0,
    push(name, job) {
      let owner = owners.get(name);
      if (!owner) {
        owner = { queue: [], running: 0, lastTurn: turns - 0.5 };
        owners.set(name, owner);
        idleSince.delete(name);
      }
      owner.queue.push(job);
      length++;
    },
    take() {
      const chosen = next();
      if (!chosen) return undefined;
      chosen.lastTurn = ++turns;
      chosen.running++;
      length--;
      return chosen.queue.shift();
    },
    heldFor() {
      // Only an owner alone at work is held back by others' reserves; while another works, the end of its job
      // frees a process and so wakes the sandbox anyway.
      if (owners.size !== 1) return undefined;
      const [name, owner] = [...owners][0]!;
      if (owner.queue.length === 0 || owner.running < share) return undefined;
      let until = Number.NEGATIVE_INFINITY;
      for (const [other, at] of idleSince) if (other !== name) until = Math.max(until, at + options.reserveMs);
      return until === Number.NEGATIVE_INFINITY ? undefined : Math.max(0, until - now());
    },
    finished(name) {
      const owner = owners.get(name);
      if (!owner) return;
      owner.running--;
      forgetIfIdle(name, owner);
    },
    drain() {
      const all: T[] = [];
      for (const [name, owner] of owners) {
        all.push(...owner.queue.splice(0));
        forgetIfIdle(name, owner);
      }
      length = 0;
      return all;
    },
  };
}
