import { defineConfig } from 'vitest/config';

/**
 * One runner for everything. The server suite runs on embedded PGlite and, when TEST_DATABASE_URL is set,
 * a second time on that PostgreSQL server; browser tests live in their own project (see scripts/test.mjs).
 */
const serverProject = (name: string, engine: 'pglite' | 'postgres') => ({
  test: {
    name,
    include: ['server/src/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['server/src/test/global-setup.ts'],
    env: { TEST_ENGINE: engine },
    // A bound, never a measure: the CLI and server-process tests start Node with tsx, which took ~28 s of wall time
    // (5 s of CPU) with the three test groups and the fault suite's server processes sharing two cores.
    testTimeout: 90_000,
    hookTimeout: 180_000,
    pool: 'forks' as const,
    // Files run one after another in a worker that keeps its modules and its database between them (decision
    // 0041): importing the app and starting PGlite once per worker, not once per file, took most of the suite's time.
    // The tests already share one database on PostgreSQL, so none relies on a fresh one.
    isolate: false,
    // Memory tests measure what is kept, after a collection (csv-input.test.ts).
    execArgv: ['--expose-gc'],
  },
});

export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    projects: [
      { test: { name: 'common', include: ['common/src/**/*.test.ts'], environment: 'node' } },
      serverProject('server', 'pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server-postgres', 'postgres')] : []),
      {
        extends: './web/vite.config.ts',
        test: {
          name: 'web',
          root: 'web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['src/test-setup.ts'],
          // Vitest's 5 s is short for a test that imports every page while CI's other groups share the two cores
          // (a bound, not a measure).
          testTimeout: 30_000,
        },
      },
      {
        // The client libraries (clients/*), each suite run by its own runner against a really started server.
        test: {
          name: 'clients',
          include: ['clients/**/*.suite.test.ts'],
          environment: 'node',
          // A migrated database for the servers' storage (server/src/test/pglite-template.ts).
          globalSetup: ['server/src/test/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 180_000,
          pool: 'forks' as const,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.spec.ts'],
          environment: 'node',
          globalSetup: ['server/src/test/global-setup.ts'],
          // A page's reaction is awaited, never timed: Vitest's 1 s default for expect.poll failed on a busy machine.
          expect: { poll: { timeout: 15_000 } },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks' as const,
          fileParallelism: false,
        },
      },
    ],
  },
});
