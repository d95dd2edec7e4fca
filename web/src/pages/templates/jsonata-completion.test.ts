import { autocompletion, CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { describe, expect, it } from 'vitest';
import recordSchema from '../../../../docs/identity-record.schema.json';
import { jsonataCompletion, pathState } from './jsonata-completion';
import { JSONATA_FUNCTIONS } from './jsonata-functions';
import { RECORD_FIELDS } from './record-fields';
import { placeInfo } from './template-code';

const source = jsonataCompletion(RECORD_FIELDS);
const TOP = Object.keys(recordSchema.properties);
const EMAIL = Object.keys(recordSchema.properties.emails.items.properties);
const PHONE = Object.keys(recordSchema.properties.phones.items.properties);

/** The completion at `|` in the text (which is removed), as typing would ask for it or as Ctrl+Space would. */
function complete(marked: string, explicit = false): CompletionResult | null {
  const pos = marked.indexOf('|');
  const doc = marked.slice(0, pos) + marked.slice(pos + 1);
  const state = EditorState.create({ doc, selection: { anchor: pos } });
  return source(new CompletionContext(state, pos, explicit)) as CompletionResult | null;
}

const labels = (marked: string, explicit = false) => complete(marked, explicit)?.options.map((o) => o.label) ?? null;
const fieldLabels = (marked: string, explicit = false) =>
  complete(marked, explicit)
    ?.options.filter((o) => o.type === 'property')
    .map((o) => o.label) ?? null;

describe('field completion from the record schema', () => {
  it('offers the top-level fields at the start and while a name is typed', () => {
    expect(fieldLabels('|', true)).toEqual(TOP);
    expect(fieldLabels('fir|')).toEqual(TOP);
    expect(complete('fir|')?.from).toBe(0);
  });

  it('offers an array’s item fields after its path and a dot', () => {
    expect(labels('emails.|')).toEqual(EMAIL);
    expect(labels('phones.nu|')).toEqual(PHONE);
    expect(complete('phones.nu|')?.from).toBe(7);
    expect(labels('$count(phones[type = "mobile"].|)')).toEqual(PHONE);
    expect(labels('finances.|')).toEqual(Object.keys(recordSchema.properties.finances.anyOf[0]?.properties ?? {}));
  });

  it('offers the top-level fields inside an object constructor, after $. and after $$.', () => {
    expect(fieldLabels('{ "name": |', true)).toEqual(TOP);
    expect(fieldLabels('{\n  "id": id,\n  "first": fi|')).toEqual(TOP);
    expect(labels('$.|')).toEqual(TOP);
    expect(labels('emails[$$.|')).toEqual(TOP);
    expect(labels('{ "a": $.emails.|')).toEqual(EMAIL);
  });

  it('takes the context from a predicate, a group and a step, and not from a call or a constructor', () => {
    expect(fieldLabels('emails[addr|')).toEqual(EMAIL);
    expect(fieldLabels('emails[$.|')).toEqual(EMAIL);
    expect(fieldLabels('phones{ typ|')).toEqual(PHONE);
    expect(fieldLabels('emails.{ "at": la|')).toEqual(EMAIL);
    expect(fieldLabels('phones.(carr|')).toEqual(PHONE);
    expect(fieldLabels('emails[0].{ "x": [fir|')).toEqual(EMAIL);
    // After the predicate closes, the path goes on from the array.
    expect(labels('emails[0].|')).toEqual(EMAIL);
    expect(fieldLabels('$count(emai|')).toEqual(TOP);
    expect(fieldLabels('[firstName, la|')).toEqual(TOP);
    expect(fieldLabels('$map(emails, function($e) { fi|')).toEqual(TOP);
  });

  it('gives the type and description of each field', () => {
    const address = complete('emails.|')?.options.find((o) => o.label === 'address');
    expect(address?.detail).toBe('string');
    expect(address?.info).toBe(
      `emails.address: string\n${recordSchema.properties.emails.items.properties.address.description}`,
    );
    const emails = complete('em|')?.options.find((o) => o.label === 'emails');
    expect(emails?.detail).toBe('object[]');
    const gender = complete('ge|')?.options.find((o) => o.label === 'gender');
    expect(gender?.info).toContain("One of: F, M, ''");
  });

  it('offers nothing for a path the schema does not know, a field with no fields, or a function’s result', () => {
    expect(complete('nickname.|')).toBeNull();
    expect(complete('firstName.|')).toBeNull();
    expect(complete('$x.|')).toBeNull();
    expect(complete('$string(id).|')).toBeNull();
    expect(complete('$map(emails, function($e) { $e.|')).toBeNull();
  });

  it('offers nothing inside strings, comments and regular expressions', () => {
    expect(complete('"emails.|', true)).toBeNull();
    expect(complete("{ 'na|", true)).toBeNull();
    expect(complete('/* emails.|', true)).toBeNull();
    expect(complete('$match(firstName, /em|', true)).toBeNull();
    expect(complete('`first na|', true)).toBeNull();
    // A closed string, comment or regular expression ends; completion goes on after it.
    expect(fieldLabels('/* a */ "x" & fi|')).toEqual(TOP);
    expect(fieldLabels('$contains(firstName, /a.b/i) and la|')).toEqual(TOP);
  });

  it('waits for a name or a dot unless asked, and offers nothing right after a finished operand', () => {
    expect(complete('{ "a": |')).toBeNull();
    expect(complete('firstName |', true)).toBeNull();
    expect(complete('"x" |', true)).toBeNull();
  });
});

describe('function completion', () => {
  it('offers the built-in functions with a signature after $', () => {
    const result = complete('$ma|');
    expect(result?.from).toBe(0);
    const names = result?.options.map((o) => o.label) ?? [];
    for (const name of ['$map', '$filter', '$string', '$count', '$join', '$sum', '$exists', '$lowercase']) {
      expect(names).toContain(name);
    }
    expect(result?.options.find((o) => o.label === '$join')?.detail).toBe('(array, separator?) → string');
    expect(result?.options.every((o) => o.type === 'function')).toBe(true);
  });

  it('offers fields and functions together when asked with nothing typed, and fields only for a bare name', () => {
    const asked = labels('{ "a": |', true) ?? [];
    expect(asked).toEqual([...TOP, ...JSONATA_FUNCTIONS.map((f) => f.name)]);
    expect(labels('{ "a": ci|')).toEqual(TOP);
  });

  it('inserts the function with its brackets and the cursor inside them', () => {
    for (const [doc, expected, cursor] of [
      ['$jo', '$join()', 6],
      ['$jo(', '$join(', 6],
    ] as const) {
      const view = new EditorView({
        state: EditorState.create({ doc, selection: { anchor: 3 }, extensions: [autocompletion()] }),
      });
      const option = complete(`$jo|${doc.slice(3)}`)?.options.find((o) => o.label === '$join');
      if (typeof option?.apply !== 'function') throw new Error('no apply');
      option.apply(view, option, 0, 3);
      expect(view.state.doc.toString()).toBe(expected);
      expect(view.state.selection.main.head).toBe(cursor);
      view.destroy();
    }
  });
});

describe('pathState', () => {
  it('reads paths through backtick names and ranges', () => {
    expect(pathState('`emails`.')).toMatchObject({ prev: 'dot', chain: ['emails'] });
    expect(pathState('[1..3]').prev).toBe('operand');
    expect(pathState('firstName and ')).toMatchObject({ prev: 'op', chain: null, base: [] });
    expect(pathState('x := 1; ')).toMatchObject({ prev: 'op', base: [] });
  });

  it('survives more closing brackets than opening ones', () => {
    expect(pathState(')) ]')).toMatchObject({ prev: 'operand', base: [] });
  });
});

describe('placeInfo', () => {
  const view = {} as EditorView;
  const rect = (left: number, top: number, right: number, bottom: number) => ({ left, top, right, bottom });

  it('puts the description beside the list at the chosen option when there is room, right before left', () => {
    const space = rect(0, 0, 1280, 900);
    expect(placeInfo(view, rect(400, 100, 600, 200), rect(400, 120, 600, 140), rect(0, 0, 300, 40), space)).toEqual({
      style: 'top: 20px; max-width: 400px',
      class: 'cm-completionInfo-right',
    });
    expect(placeInfo(view, rect(1000, 100, 1200, 200), rect(1000, 100, 1200, 120), rect(0, 0, 300, 40), space)).toEqual(
      { style: 'top: 0px; max-width: 400px', class: 'cm-completionInfo-left' },
    );
  });

  it('puts it under the whole list on a narrow window, or over it when there is more room there', () => {
    const space = rect(0, 0, 360, 780);
    const info = rect(0, 0, 300, 40);
    expect(placeInfo(view, rect(100, 300, 350, 380), rect(100, 300, 350, 320), info, space)).toEqual({
      style: 'top: 80px; left: 0; max-width: 260px',
    });
    expect(placeInfo(view, rect(100, 700, 350, 760), rect(100, 700, 350, 720), info, space)).toEqual({
      style: 'bottom: 60px; left: 0; max-width: 260px',
    });
  });
});
