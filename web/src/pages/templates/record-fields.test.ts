import { describe, expect, it } from 'vitest';
import recordSchema from '../../../../docs/identity-record.schema.json';
import { fieldInfo, fieldsAt, fieldsOf, filterFields, RECORD_FIELDS, type RecordField } from './record-fields';

const find = (fields: RecordField[], path: string): RecordField | undefined => {
  for (const f of fields) {
    if (f.path === path) return f;
    const inner = find(f.children, path);
    if (inner) return inner;
  }
  return undefined;
};

describe('the record fields read from docs/identity-record.schema.json', () => {
  it('lists every top-level property of the schema, in its order', () => {
    expect(RECORD_FIELDS.map((f) => f.name)).toEqual(Object.keys(recordSchema.properties));
  });

  it('gives each array of objects the properties of its items as children', () => {
    for (const [name, property] of Object.entries(recordSchema.properties)) {
      const field = find(RECORD_FIELDS, name);
      const items = (property as { items?: { properties?: object } }).items;
      if (!items?.properties) continue;
      expect(field?.array, name).toBe(true);
      expect(field?.children.map((c) => c.name)).toEqual(Object.keys(items.properties));
    }
  });

  it('reads the e-mail address with its type, description and path', () => {
    const emails = find(RECORD_FIELDS, 'emails');
    expect(emails).toMatchObject({ type: 'object[]', array: true });
    expect(find(RECORD_FIELDS, 'emails.address')).toMatchObject({
      name: 'address',
      type: 'string',
      array: false,
      description: recordSchema.properties.emails.items.properties.address.description,
      children: [],
    });
  });

  it('names nullable fields, the fields of a nullable object, and enumerated values', () => {
    expect(find(RECORD_FIELDS, 'birthYear')?.type).toBe('integer | null');
    const finances = find(RECORD_FIELDS, 'finances');
    expect(finances?.type).toBe('object | null');
    expect(finances?.children.map((c) => c.name)).toEqual(
      Object.keys(recordSchema.properties.finances.anyOf[0]?.properties ?? {}),
    );
    expect(find(RECORD_FIELDS, 'gender')?.values).toEqual(recordSchema.properties.gender.enum);
    expect(find(RECORD_FIELDS, 'phones.type')?.values).toEqual(['mobile', 'landline']);
    // An object of free keys has no fields to list.
    expect(find(RECORD_FIELDS, 'data')).toMatchObject({ type: 'object', children: [] });
  });

  it('reads a schema of its own shape: arrays of scalars, type lists, missing types', () => {
    const fields = fieldsOf({
      properties: {
        tags: { type: 'array', items: { type: 'string' } },
        either: { type: ['string', 'number'] },
        loose: {},
        nested: { type: 'array', items: { type: 'array', items: { type: 'object', properties: { x: {} } } } },
      },
    });
    expect(fields.map((f) => [f.path, f.type, f.array, f.children.length])).toEqual([
      ['tags', 'string[]', true, 0],
      ['either', 'string | number', false, 0],
      ['loose', 'any', false, 0],
      ['nested', 'object[][]', true, 0],
    ]);
  });
});

describe('fieldsAt', () => {
  it('gives the top level for an empty path and an object’s fields for its path', () => {
    expect(fieldsAt(RECORD_FIELDS, [])).toBe(RECORD_FIELDS);
    expect(fieldsAt(RECORD_FIELDS, ['phones'])?.map((f) => f.path)).toContain('phones.doNotCall');
    expect(fieldsAt(RECORD_FIELDS, ['finances'])?.map((f) => f.name)).toContain('income');
  });

  it('gives null for a name the schema lacks and for a field with no fields', () => {
    expect(fieldsAt(RECORD_FIELDS, ['nope'])).toBeNull();
    expect(fieldsAt(RECORD_FIELDS, ['firstName'])).toBeNull();
    expect(fieldsAt(RECORD_FIELDS, ['emails', 'address'])).toBeNull();
  });
});

describe('fieldInfo and filterFields', () => {
  it('adds the listed values to the description, and shows an empty value as two quotes', () => {
    expect(fieldInfo(find(RECORD_FIELDS, 'gender') as RecordField)).toBe("'' when unknown. One of: F, M, ''");
    expect(fieldInfo(find(RECORD_FIELDS, 'firstName') as RecordField)).toBe('');
  });

  it('keeps matching fields with their parents, by name, path, description or type', () => {
    const byName = filterFields(RECORD_FIELDS, 'DONOTCALL');
    expect(byName.map((f) => f.path)).toEqual(['phones']);
    expect(byName[0]?.children.map((c) => c.path)).toEqual(['phones.doNotCall']);
    expect(filterFields(RECORD_FIELDS, 'E.164').map((f) => f.path)).toEqual(['phones']);
    expect(filterFields(RECORD_FIELDS, 'boolean').flatMap((f) => f.children.map((c) => c.path))).toContain(
      'properties.ownerOccupied',
    );
    // A parent that matches keeps all its children.
    expect(filterFields(RECORD_FIELDS, 'emails')[0]?.children).toEqual(find(RECORD_FIELDS, 'emails')?.children);
    expect(filterFields(RECORD_FIELDS, '   ')).toBe(RECORD_FIELDS);
    expect(filterFields(RECORD_FIELDS, 'no such field')).toEqual([]);
  });
});
