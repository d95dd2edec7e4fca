/**
 * Examples as RapiDoc 9.3.8 can read them (issue 32 item 7). OpenAPI's `example` on a media type, a parameter or a
 * header is the example value itself, so a JSON object example such as POST /v2/keys's `{…, "expiresAt": null}` is
 * valid. RapiDoc takes any object `example` for a map of named examples and reads `.value` of each of its
 * properties (`standardizeExample`; rapi-doc/RapiDoc#1093, open, no later release): a null property throws
 * `TypeError: Cannot read properties of null (reading 'value')` while the page renders, and an object without one
 * is silently not shown. The published document stays as OpenAPI has it (the clients are generated from it); the
 * page hands RapiDoc a copy with each such `example` moved into the `examples` map, which both read the same way.
 */

type Json = unknown;

const isObject = (value: Json): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A copy of `doc` in which every media type, parameter and header (the objects with a `schema` beside their
 * `example`) whose `example` is a JSON object has it as `examples: { Example: { value } }` instead.
 */
export function forRapiDoc(doc: Json): Json {
  if (Array.isArray(doc)) return doc.map(forRapiDoc);
  if (!isObject(doc)) return doc;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(doc)) {
    // Examples are data, not document structure: copied as they are.
    out[key] = key === 'example' || key === 'examples' ? value : forRapiDoc(value);
  }
  if ('schema' in out && isObject(out.example) && out.examples === undefined) {
    out.examples = { Example: { value: out.example } };
    delete out.example;
  }
  return out;
}
