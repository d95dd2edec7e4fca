/** A bounded autocannon run against a loopback URL. */
import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  url: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export async function load(name: string, url: string, seconds: number, connections = 50): Promise<LoadResult> {
  const target = new URL(url);
  if (!['localhost', '127.0.0.1', '[::1]'].includes(target.hostname))
    throw new Error('benchmarks target loopback only');
  const result = await autocannon({ url, connections, duration: seconds, pipelining: 1 });
  return {
    name,
    url: target.pathname,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
