/**
 * A cluster's metrics as one machine's (issue 30, item 2): a scrape reaches one worker, which asks the primary; the
 * primary asks every worker for its own (prom-client's AggregatorRegistry, over the cluster's IPC channel) and
 * answers with the sum. Set up in the primary whether or not Redis is configured.
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import { Unavailable } from './http/errors';

const REQUEST = 'tessera:metrics';
const REPLY = 'tessera:metrics-reply';
/** Longer than prom-client's own wait for the workers (5 s), so its error is the one told. */
export const METRICS_WAIT_MS = 6_000;
export const METRICS_AWAY = 'The metrics of the other server processes did not come in time. Please try again.';

interface Envelope {
  type: string;
  id: number;
  text?: string;
  error?: string;
}

const isEnvelope = (m: unknown, type: string): m is Envelope =>
  typeof m === 'object' && m !== null && (m as { type?: unknown }).type === type;

/** In the primary: answers each worker's request with every worker's metrics added up. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isEnvelope(message, REQUEST)) return;
    const reply = (answer: Omit<Envelope, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: REPLY, id: message.id, ...answer }, () => {});
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (err: unknown) => reply({ error: err instanceof Error ? err.message : String(err) }),
    );
  });
}

let answering = false;
/** In a worker: answers the primary's requests for this process's own metrics (prom-client's listener). */
export function answerMetricsRequests(): void {
  if (answering || !cluster.isWorker) return;
  answering = true;
  new AggregatorRegistry(); // its constructor adds the worker's listener, once per process
}

let nextId = 0;
/** In a worker: the whole machine's metrics, from the primary. */
export function clusterMetricsText(waitMs = METRICS_WAIT_MS): Promise<string> {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      process.off('message', onMessage);
    };
    const onMessage = (message: unknown) => {
      if (!isEnvelope(message, REPLY) || message.id !== id) return;
      done();
      if (message.text !== undefined) resolve(message.text);
      else reject(Object.assign(new Unavailable(METRICS_AWAY), { cause: new Error(message.error) }));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Unavailable(METRICS_AWAY));
    }, waitMs);
    process.on('message', onMessage);
    process.send?.({ type: REQUEST, id });
  });
}
