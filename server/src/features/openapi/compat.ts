/**
 * Whether a new OpenAPI document breaks clients of the previous one. Breaking: an operation, a parameter, a request
 * content type or a success response removed; a parameter or body property made required that was not; a property
 * of a success response's schema or of a component schema removed; a security scheme removed. A breaking change is
 * allowed only with a new major version that docs/api-changes.md describes, or, when the earlier document was simply
 * wrong (the server never behaved as it said, so no working client relies on it), as a correction the new version's
 * section there lists word for word: "- correction: `GET /v2/identities/byPii: parameter query:firstName now required`".
 */
// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are JSON of any shape
type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

function resolve(doc: Json, schema: Json | undefined): Json | undefined {
  const target = schema?.$ref as string | undefined;
  if (!target) return schema;
  return target
    .split('/')
    .slice(1)
    .reduce<Json | undefined>((at, part) => at?.[part], doc);
}

function propertiesRemoved(where: string, before: Json | undefined, after: Json | undefined, out: string[]): void {
  const was = Object.keys(before?.properties ?? {});
  const now = new Set(Object.keys(after?.properties ?? {}));
  for (const name of was) if (!now.has(name)) out.push(`${where}: property ${name} removed`);
}

export function breakingChanges(previous: Json, next: Json): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries<Json>(previous.paths ?? {})) {
    for (const method of METHODS) {
      const before = item[method] as Json | undefined;
      if (!before) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const after = next.paths?.[path]?.[method] as Json | undefined;
      if (!after) {
        out.push(`${where} removed`);
        continue;
      }
      const params = (op: Json) =>
        new Map<string, Json>((op.parameters ?? []).map((p: Json) => [`${p.in}:${p.name}`, p]));
      const was = params(before);
      const now = params(after);
      for (const [key, p] of was) {
        if (!now.has(key)) out.push(`${where}: parameter ${key} removed`);
        else if (!p.required && now.get(key)!.required) out.push(`${where}: parameter ${key} now required`);
      }
      for (const [key, p] of now) if (!was.has(key) && p.required) out.push(`${where}: new required parameter ${key}`);
      for (const [type, content] of Object.entries<Json>(before.requestBody?.content ?? {})) {
        const later = after.requestBody?.content?.[type] as Json | undefined;
        if (!later) {
          out.push(`${where}: request body ${type} no longer accepted`);
          continue;
        }
        const required = new Set<string>(resolve(previous, content.schema)?.required ?? []);
        for (const name of resolve(next, later.schema)?.required ?? []) {
          if (!required.has(name)) out.push(`${where}: request body property ${name} now required`);
        }
      }
      for (const [status, response] of Object.entries<Json>(before.responses ?? {})) {
        if (!status.startsWith('2')) continue;
        const later = after.responses?.[status] as Json | undefined;
        if (!later) {
          out.push(`${where}: response ${status} removed`);
          continue;
        }
        for (const [type, content] of Object.entries<Json>(response.content ?? {})) {
          const latest = later.content?.[type] as Json | undefined;
          if (!latest) out.push(`${where}: response ${status} ${type} removed`);
          else
            propertiesRemoved(
              `${where} ${status}`,
              resolve(previous, content.schema),
              resolve(next, latest.schema),
              out,
            );
        }
      }
    }
  }
  for (const [name, schema] of Object.entries<Json>(previous.components?.schemas ?? {})) {
    const later = next.components?.schemas?.[name] as Json | undefined;
    if (!later) out.push(`schema ${name} removed`);
    else propertiesRemoved(`schema ${name}`, schema, later, out);
  }
  for (const name of Object.keys(previous.components?.securitySchemes ?? {})) {
    if (!next.components?.securitySchemes?.[name]) out.push(`security scheme ${name} removed`);
  }
  return out;
}

const major = (version: string) => Number(String(version).split('.')[0]);

/** The section of docs/api-changes.md for `version`, from its heading to the next. */
function sectionOf(changesNote: string, version: string): string {
  const start = changesNote.indexOf(`## ${version}\n`);
  if (start < 0) return '';
  const end = changesNote.indexOf('\n## ', start + 1);
  return changesNote.slice(start, end < 0 ? undefined : end);
}

/**
 * The problems with going from `previous` to `next`: none when compatible, when a new major version is noted, or
 * when each breaking change is listed as a correction under the new version.
 */
export function compatibilityProblems(previous: Json, next: Json, changesNote: string): string[] {
  const section = sectionOf(changesNote, String(next.info?.version ?? ''));
  const breaking = breakingChanges(previous, next).filter((b) => !section.includes(`- correction: \`${b}\``));
  if (breaking.length === 0) return [];
  const version = String(next.info?.version ?? '');
  const noted = major(version) > major(String(previous.info?.version ?? '0')) && changesNote.includes(`## ${version}`);
  if (noted) return [];
  return [
    `OpenAPI ${previous.info?.version} → ${version} breaks clients without a new major version noted in docs/api-changes.md:`,
    ...breaking.map((b) => `  - ${b}`),
  ];
}
