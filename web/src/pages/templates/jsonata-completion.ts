/**
 * Completion for the template editor: the record's fields valid where the cursor is, and JSONata's built-in
 * functions. Where is read from the text before the cursor: a path (`emails.`, `$.`, `$$.`) offers the fields of
 * what it names; a name starting an operand offers the fields of the context, which a predicate (`emails[...]`), a
 * group (`emails{...}`) or a step (`emails.{...}`, `emails.(...)`) sets to what precedes it, and an object
 * constructor (`{ "x": ... }`), a block or a function call leaves as it was. Fields come from the record's schema
 * (record-fields.ts); names the schema does not know (a template's own variables) get no field completion.
 */
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete';
import type { EditorView } from '@codemirror/view';
import { JSONATA_FUNCTIONS } from './jsonata-functions';
import { fieldInfo, fieldsAt, type RecordField } from './record-fields';

type Prev = 'start' | 'operand' | 'dot' | 'op';

interface Frame {
  /** The path bare names are relative to inside the brackets; null when unknown. */
  base: string[] | null;
  /** The path the bracketed operand leaves behind when it closes (a predicate keeps its path). */
  after: string[] | null;
  /** A lambda's parameters: the body's `{` that follows is a block, not a group. */
  params?: boolean;
}

/** What the text before the cursor leaves: the last token's kind, the path it ends, the bracket frames. */
export interface PathState {
  prev: Prev;
  /** The path the operand just read names, when it is one; null otherwise. */
  chain: string[] | null;
  /** The path bare names are relative to at the cursor. */
  base: string[] | null;
  /** The text ends inside a string, a backtick name or a comment. */
  inText: boolean;
}

const NAME = /^[\p{L}_][\p{L}\p{N}_]*/u;
const OPERATORS = new Set(['and', 'or', 'in']);
const VALUES = new Set(['true', 'false', 'null']);

/** Where the quoted text starting at `i` ends (just past its closing quote), or -1 when it runs to the end. */
function closingQuote(text: string, i: number, quote: string): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\' && quote !== '`') j++;
    else if (text[j] === quote) return j + 1;
  }
  return -1;
}

/** Reads JSONata text (the part before the cursor) into the path state at its end. */
export function pathState(text: string): PathState {
  const frames: Frame[] = [{ base: [], after: null }];
  const st: { prev: Prev; chain: string[] | null } = { prev: 'start', chain: null };
  /** The last token is `function`, so `(` opens a lambda's parameters. */
  let lambda = false;
  /** The last token closed a lambda's parameters, so `{` opens its body. */
  let body = false;
  const base = () => frames[frames.length - 1]?.base ?? null;
  const operand = (path: string[] | null) => {
    st.chain = path;
    st.prev = 'operand';
  };
  const name = (word: string) => {
    if (st.prev === 'dot') operand(st.chain ? [...st.chain, word] : null);
    else {
      const b = base();
      operand(b ? [...b, word] : null);
    }
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? '';
    const rest = text.slice(i);
    let closedParams = false;
    let keyword = false;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (rest.startsWith('/*')) {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return { ...st, base: base(), inText: true };
      i = end + 2;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') {
      const end = closingQuote(text, i, ch);
      if (end < 0) return { ...st, base: base(), inText: true };
      if (ch === '`') name(text.slice(i + 1, end - 1));
      else operand(null);
      i = end;
    } else if (ch === '$') {
      const word = /^\$\$?[\p{L}\p{N}_]*/u.exec(rest)?.[0] ?? '$';
      if (word === '$$') operand([]);
      else if (word === '$') operand(st.prev === 'dot' ? st.chain : base());
      else operand(null);
      i += word.length;
    } else if (ch === '.' && text[i + 1] !== '.') {
      if (st.prev === 'operand') st.prev = 'dot';
      else {
        st.chain = null;
        st.prev = 'op';
      }
      i++;
    } else if (ch === '[' || ch === '{' || ch === '(') {
      // After a path, `[` filters it and `{` groups it, so names inside are its fields; `(` after a name calls it.
      const step = st.prev === 'dot' || (st.prev === 'operand' && ch !== '(' && !body);
      const inner = step ? st.chain : base();
      frames.push({ base: inner, after: ch === '[' && st.prev === 'operand' ? st.chain : null, params: lambda });
      st.chain = null;
      st.prev = 'start';
      i++;
    } else if (ch === ']' || ch === '}' || ch === ')') {
      const frame = frames.length > 1 ? frames.pop() : undefined;
      operand(frame?.after ?? null);
      closedParams = frame?.params === true;
      i++;
    } else if (ch === '/' && st.prev !== 'operand') {
      // A regular expression, where a value may start.
      const end = closingQuote(text, i, '/');
      if (end < 0) return { ...st, base: base(), inText: true };
      i = end + (/^[im]*/.exec(text.slice(end))?.[0].length ?? 0);
      operand(null);
    } else if (/\d/.test(ch)) {
      i += /^\d+(\.\d+)?([eE][-+]?\d+)?/.exec(rest)?.[0].length ?? 1;
      operand(null);
    } else if (NAME.test(rest)) {
      const word = NAME.exec(rest)?.[0] ?? '';
      i += word.length;
      if (OPERATORS.has(word) && st.prev === 'operand') {
        st.chain = null;
        st.prev = 'op';
      } else if (VALUES.has(word)) operand(null);
      else if (word === 'function' || word === 'λ') {
        st.chain = null;
        st.prev = 'op';
        keyword = true;
      } else name(word);
    } else {
      i += /^(:=|~>|\.\.|!=|<=|>=|\?:|\?\?)/.exec(rest)?.[0].length ?? 1;
      st.chain = null;
      st.prev = 'op';
    }
    body = closedParams;
    lambda = keyword;
  }
  return { ...st, base: base(), inText: false };
}

const IDENTIFIER = /^[\p{L}_][\p{L}\p{N}_]*$/u;

function fieldOption(field: RecordField): Completion {
  const info = fieldInfo(field);
  return {
    label: field.name,
    ...(IDENTIFIER.test(field.name) ? {} : { apply: `\`${field.name}\`` }),
    type: 'property',
    detail: field.type,
    info: info ? `${field.path}: ${field.type}\n${info}` : `${field.path}: ${field.type}`,
    boost: 1,
  };
}

/** Inserts the function's name with its brackets, the cursor between them (only the name when `(` follows). */
function applyFunction(name: string) {
  return (view: EditorView, _completion: Completion, from: number, to: number) => {
    const bracket = view.state.sliceDoc(to, to + 1) === '(';
    const insert = bracket ? name : `${name}()`;
    view.dispatch({
      changes: { from, to, insert },
      selection: { anchor: from + name.length + 1 },
      userEvent: 'input.complete',
      scrollIntoView: true,
    });
  };
}

const FUNCTION_OPTIONS: Completion[] = JSONATA_FUNCTIONS.map((f) => ({
  label: f.name,
  type: 'function',
  detail: f.signature,
  info: `${f.name}${f.signature}\n${f.info}`,
  apply: applyFunction(f.name),
}));

/** The word being typed before the cursor: a name, or a `$` name. */
const WORD = /\$?\$?[\p{L}\p{N}_]*$/u;

/** The completion source over the given fields (the record's, in the editor). */
export function jsonataCompletion(fields: RecordField[]): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const line = context.state.doc.lineAt(context.pos);
    const word = WORD.exec(line.text.slice(0, context.pos - line.from))?.[0] ?? '';
    const from = context.pos - word.length;
    const state = pathState(context.state.sliceDoc(0, from));
    if (state.inText) return null;
    if (!word && !context.explicit && state.prev !== 'dot') return null;
    const validFor = /^\$?\$?[\p{L}\p{N}_]*$/u;
    if (word.startsWith('$')) return { from, options: FUNCTION_OPTIONS, validFor };
    if (state.prev === 'dot') {
      const found = state.chain ? fieldsAt(fields, state.chain) : null;
      return found ? { from, options: found.map(fieldOption), validFor } : null;
    }
    if (state.prev === 'operand') return null;
    const found = state.base ? (fieldsAt(fields, state.base) ?? []) : [];
    const options = [...found.map(fieldOption), ...(word ? [] : FUNCTION_OPTIONS)];
    return options.length ? { from, options, validFor } : null;
  };
}
