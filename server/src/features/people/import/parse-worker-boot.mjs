// A worker thread does not inherit tsx's loader from the thread that starts it: register it, then run the
// TypeScript entry named in workerData (parse-worker.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
