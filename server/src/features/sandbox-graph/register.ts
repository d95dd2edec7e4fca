/**
 * The sandbox graph for test keys, loaded on first use (a server that never sees a test key never writes it) and
 * once per database: every process asks, the first loads, the rest find it (graph.ts).
 */
import type { Database } from '../../db/client';
import { ensureSandboxGraph, sandboxView } from './graph';

export interface SandboxGraph {
  /** The database as a test key sees it, once the sandbox is there; a failed load is tried again by the next call. */
  database(): Promise<Database>;
}

export function createSandboxGraph(database: Database): SandboxGraph {
  const view = sandboxView(database);
  let ready: Promise<Database> | null = null;
  return {
    database() {
      ready ??= ensureSandboxGraph(database).then(
        () => view,
        (error: unknown) => {
          ready = null;
          throw error;
        },
      );
      return ready;
    },
  };
}
