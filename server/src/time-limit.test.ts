import { describe, expect, it } from 'vitest';
import { within } from './time-limit';

describe('within', () => {
  it('passes on what settles in time, and rejects naming what did not', async () => {
    await expect(within(Promise.resolve(7), 1000)).resolves.toBe(7);
    await expect(within(Promise.reject(new Error('refused')), 1000)).rejects.toThrow('refused');
    await expect(within(new Promise(() => {}), 20, 'the database')).rejects.toThrow(
      'the database did not come within 20 ms',
    );
  });
});
