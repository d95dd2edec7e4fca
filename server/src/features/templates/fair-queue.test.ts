/** The sandbox's turns (decision 0049): round-robin across owners, a share each while others are about, sizes. */
import { describe, expect, it } from 'vitest';
import { createFairQueue, shareOf } from './fair-queue';
import { MAX_SANDBOX_PROCESSES, sandboxSize } from './pool-size';

const RESERVE_MS = 5000;

/** Jobs named by their owner and number; `take` n of them: their names, in dispatch order. `clock.ms` is now. */
function fill(size: number, jobs: Record<string, number>) {
  const clock = { ms: 0 };
  const queue = createFairQueue<string>(size, { reserveMs: RESERVE_MS, now: () => clock.ms });
  for (const [owner, n] of Object.entries(jobs)) for (let i = 1; i <= n; i++) queue.push(owner, `${owner}${i}`);
  const take = (n: number) => Array.from({ length: n }, () => queue.take());
  return { queue, take, clock };
}

describe('fair queue', () => {
  it('takes turns across owners with jobs waiting, not first come first served', () => {
    const { queue, take } = fill(8, { b: 5, a: 2, c: 1 });
    expect(take(6)).toEqual(['b1', 'a1', 'c1', 'b2', 'a2', 'b3']);
    expect(queue.length).toBe(2);
  });

  it('holds an owner at its share of the processes while another owner waits', () => {
    // Two processes, both taken by b while it was alone; a arrives: the next free process is a's, not b's.
    const { queue, take } = fill(2, { b: 10 });
    expect(take(2)).toEqual(['b1', 'b2']);
    queue.push('a', 'a1');
    queue.finished('b');
    expect(take(1)).toEqual(['a1']);
    // b now holds one (its share of two), a one: as each ends, its owner's next job goes in its place.
    queue.finished('b');
    queue.push('a', 'a2');
    expect(take(1)).toEqual(['b3']);
  });

  it('puts a newcomer before the owner served last, and lets a lone owner use every process', () => {
    const { queue, take } = fill(1, { b: 3 });
    expect(take(1)).toEqual(['b1']);
    queue.push('a', 'a1');
    queue.finished('b');
    expect(take(1)).toEqual(['a1']);
    queue.finished('a');
    expect(queue.owners).toBe(1); // a is forgotten once idle
    const alone = fill(4, { b: 4 });
    expect(alone.take(4)).toEqual(['b1', 'b2', 'b3', 'b4']);
  });

  it('keeps an owner to its share for a while after another went idle, then lets it have every process', () => {
    const { queue, take, clock } = fill(2, { a: 1 });
    expect(take(1)).toEqual(['a1']);
    queue.finished('a'); // a's call is answered; its next may be near
    for (let i = 1; i <= 3; i++) queue.push('b', `b${i}`);
    expect(take(2)).toEqual(['b1', undefined]);
    expect(queue.heldFor()).toBe(RESERVE_MS);
    clock.ms = RESERVE_MS / 2;
    expect(queue.heldFor()).toBe(RESERVE_MS / 2);
    queue.push('a', 'a2'); // a is back: the process kept free is its own at once
    expect(take(1)).toEqual(['a2']);
    queue.finished('a');
    clock.ms += RESERVE_MS;
    expect(take(1)).toEqual(['b2']);
    expect(queue.heldFor()).toBeUndefined();
  });

  it('counts and drains what waits, owner by owner', () => {
    const { queue, take } = fill(2, { a: 2, b: 1 });
    expect([queue.queued('a'), queue.queued('b'), queue.queued('c')]).toEqual([2, 1, 0]);
    take(1);
    expect(queue.drain().sort()).toEqual(['a2', 'b1']);
    expect([queue.length, queue.owners]).toEqual([0, 1]); // a's running job still counts
    queue.finished('a');
    expect(queue.owners).toBe(0);
  });

  it('sizes the pool from the cores, keeping one for the server and sharing among its processes', () => {
    const sizes = [1, 2, 3, 4, 8, 9, 64].map((cores) => sandboxSize(cores));
    expect(sizes).toEqual([1, 2, 2, 3, 7, 8, MAX_SANDBOX_PROCESSES]);
    expect(sandboxSize(8, 8)).toBe(2);
    expect(sandboxSize(32, 4)).toBe(7);
    expect([1, 2, 3, 7].map(shareOf)).toEqual([1, 1, 2, 4]);
  });
});
