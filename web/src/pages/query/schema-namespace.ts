/** A cluster's tables as the editor's completion reads them. */
import type { ClusterSchema } from '@tessera/common/query-console';

/** { 'public.users': [...] } → { public: { users: [...] } }, the namespace lang-sql completes from. */
export function namespaceOf(schema: ClusterSchema): Record<string, Record<string, string[]>> {
  const namespace: Record<string, Record<string, string[]>> = {};
  for (const [qualified, columns] of Object.entries(schema)) {
    const dot = qualified.indexOf('.');
    const schemaName = qualified.slice(0, dot);
    const table = qualified.slice(dot + 1);
    namespace[schemaName] = { ...(namespace[schemaName] ?? {}), [table]: columns };
  }
  return namespace;
}
