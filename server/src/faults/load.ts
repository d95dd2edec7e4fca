/** Bounded load for the fault suite: a few loops of one request each, counting the answers they get. */

export interface LoadResult {
  /** Answers by status; 'error' for a request that got no answer at all. */
  statuses: Map<number | 'error', number>;
  /** 503s that came without a Retry-After header. */
  withoutRetryAfter: number;
  /** Ids of the requests answered 2xx, to check usage rows against. */
  servedIds: string[];
}

export interface Load {
  /** Stops the loops and waits for the requests under way. */
  stop(): Promise<LoadResult>;
  /** Resolves at the next 2xx answer from now on. */
  nextSuccess(): Promise<void>;
  /** Resolves at the next answer of this status from now on. */
  next(status: number): Promise<void>;
}

/** `loops` requests at a time, each request ending within `timeoutMs` at most, until stopped. */
export function startLoad(url: string, headers: Record<string, string>, loops = 6, timeoutMs = 20_000): Load {
  const result: LoadResult = { statuses: new Map(), withoutRetryAfter: 0, servedIds: [] };
  let running = true;
  const waiting: { status: number | '2xx'; resolve: () => void }[] = [];
  const count = (status: number | 'error') => {
    result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
    for (const w of [...waiting]) {
      if (w.status === status || (w.status === '2xx' && typeof status === 'number' && status < 300)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  const loop = async () => {
    while (running) {
      try {
        const res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
        await res.arrayBuffer();
        if (res.status === 503 && !res.headers.get('retry-after')) result.withoutRetryAfter++;
        if (res.status < 300) result.servedIds.push(res.headers.get('x-request-id') ?? '');
        count(res.status);
      } catch {
        count('error');
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const running$ = Array.from({ length: loops }, loop);
  const wait = (status: number | '2xx') => new Promise<void>((resolve) => waiting.push({ status, resolve }));
  return {
    async stop() {
      running = false;
      await Promise.all(running$);
      return result;
    },
    nextSuccess: () => wait('2xx'),
    next: (status) => wait(status),
  };
}
