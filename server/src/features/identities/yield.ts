/**
 * Long synchronous stretches (scoring many candidates) hand the event loop a turn every few milliseconds, so one
 * heavy request slows others by its share of the CPU, never stalls them. Templates need no such turns: they run in
 * the template sandbox's own processes (decision 0018).
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
