/**
 * Long synchronous stretches (scoring many candidates, evaluating templates record after record) hand the event
 * loop a turn every few milliseconds, so one heavy request slows others by its share of the CPU, never stalls them.
 */
const SLICE_MS = 5;

export function createYielder(): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    last = performance.now();
  };
}
