/**
 * The columns a statement would return, from PostgreSQL's Parse and Describe messages: the statement is parsed and
 * analysed, never planned or run. The console needs them because run() hands rows back as record text, which
 * carries no names or types. (PGlite has this as describeQuery.)
 */
import type pg from 'pg';

export interface Field {
  name: string;
  dataTypeID: number;
}

export function describeStatement(client: pg.Client, text: string): Promise<Field[]> {
  return new Promise((resolve, reject) => {
    let fields: Field[] = [];
    let failed = false;
    const ignore = () => {};
    // A custom query for the driver's queue (as pg-cursor is): it writes its own messages and is told the replies.
    const describe = {
      submit(connection: {
        parse(m: { text: string; types: number[] }): void;
        describe(m: { type: 'S' }): void;
        sync(): void;
      }) {
        connection.parse({ text, types: [] });
        connection.describe({ type: 'S' });
        connection.sync();
      },
      handleRowDescription(message: { fields: Field[] }) {
        fields = message.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID }));
      },
      handleError(err: unknown) {
        failed = true;
        reject(err);
      },
      handleReadyForQuery() {
        if (!failed) resolve(fields);
      },
      handleDataRow: ignore,
      handleCommandComplete: ignore,
      handleEmptyQuery: ignore,
      handlePortalSuspended: ignore,
      handleCopyInResponse: ignore,
      handleCopyData: ignore,
    };
    client.query(describe as unknown as pg.Submittable);
  });
}
