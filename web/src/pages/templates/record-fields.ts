/**
 * The identity record's fields as a tree, read from the record's JSON Schema (docs/identity-record.schema.json,
 * itself produced from the server's zod schema), so the template editor's completion and field browser name exactly
 * the fields a template receives and nothing here restates them. Vite imports the JSON at build time.
 */
import recordSchema from '../../../../docs/identity-record.schema.json';

/** The part of JSON Schema the record uses. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  additionalProperties?: boolean | JsonSchema;
}

export interface RecordField {
  name: string;
  /** From the record's top: `emails.address` (JSONata maps a path over an array's items). */
  path: string;
  /** As a template author reads it: `string`, `integer | null`, `object[]`. */
  type: string;
  description: string;
  /** The values a string may take, when the schema lists them. */
  values?: string[];
  /** An array: the path gives one value per item. */
  array: boolean;
  /** The fields of the object (an array's items, for an array). */
  children: RecordField[];
}

/** The schema's branches that are not `null`, and whether `null` is one of them. */
function branches(schema: JsonSchema): { parts: JsonSchema[]; nullable: boolean } {
  const parts = schema.anyOf ?? [schema];
  const nullable = parts.some((p) => p.type === 'null');
  return { parts: parts.filter((p) => p.type !== 'null'), nullable };
}

function typeName(schema: JsonSchema): string {
  if (schema.type === 'array') return `${schema.items ? typeName(schema.items) : 'any'}[]`;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (schema.type) return schema.type;
  if (!schema.anyOf) return 'any';
  const { parts, nullable } = branches(schema);
  const names = [...new Set(parts.map(typeName))];
  return [...names, ...(nullable ? ['null'] : [])].join(' | ') || 'any';
}

/** The fields of an object schema, in the schema's order. */
export function fieldsOf(schema: JsonSchema, prefix = ''): RecordField[] {
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    const { parts } = branches(property);
    const array = parts.some((p) => p.type === 'array');
    const object = parts.map((p) => (p.type === 'array' ? p.items : p)).find((p) => p?.properties);
    const described = property.description ?? parts.find((p) => p.description)?.description ?? '';
    const values = parts.flatMap((p) => p.enum ?? []).map(String);
    return {
      name,
      path,
      type: typeName(property),
      description: described,
      ...(values.length ? { values } : {}),
      array,
      children: object ? fieldsOf(object, path) : [],
    };
  });
}

/** Every field of the identity record. */
export const RECORD_FIELDS: RecordField[] = fieldsOf(recordSchema as JsonSchema);

/**
 * The fields valid after a path of names (`[]` for the record's top), or null when the path names no object.
 * A name that is not in the schema ends the walk: a template's own names are not the record's.
 */
export function fieldsAt(fields: RecordField[], path: readonly string[]): RecordField[] | null {
  let level = fields;
  for (const name of path) {
    const next = level.find((f) => f.name === name);
    if (!next || next.children.length === 0) return null;
    level = next.children;
  }
  return level;
}

/** What a field's description says in full: its own words and, when listed, the values it takes. */
export function fieldInfo(field: RecordField): string {
  const values = field.values?.map((v) => (v === '' ? "''" : v)).join(', ');
  return [field.description, values ? `One of: ${values}` : ''].filter(Boolean).join('. ');
}

/**
 * The fields whose name, path or description contains the text (any case), with their parents so each shows in
 * place; a parent that matches keeps all its children. Every field when the text is blank.
 */
export function filterFields(fields: RecordField[], text: string): RecordField[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return fields;
  return fields.flatMap((f) => {
    const hit = [f.path, f.description, f.type].some((s) => s.toLowerCase().includes(needle));
    if (hit) return [f];
    const children = filterFields(f.children, needle);
    return children.length ? [{ ...f, children }] : [];
  });
}
