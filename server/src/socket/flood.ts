/** A token bucket per connection: a steady rate with a burst of the same size. */
export function tokenBucket(perSecond: number, now: () => number = Date.now) {
  let tokens = perSecond;
  let last = now();
  return (): boolean => {
    const t = now();
    tokens = Math.min(perSecond, tokens + ((t - last) / 1000) * perSecond);
    last = t;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}
