/** What the global setup hands every test worker (vitest provide/inject). */
declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's PostgreSQL database, or null on PGlite. */
    databaseUrl: string | null;
    /** A migrated PGlite data folder to copy for children's storage (pglite-template.ts), or null. */
    pgliteTemplate: string | null;
  }
}

export {};
