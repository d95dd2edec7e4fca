/**
 * A small CodeMirror stream language for JSONata (no maintained mode exists): comments, strings, backtick names,
 * numbers, $variables and functions, keywords, operators, brackets, and regular expressions where a value may
 * start. Enough for highlighting and bracket matching; the compiler on the server is what checks the text.
 */
import { StreamLanguage, type StringStream } from '@codemirror/language';

export interface JsonataState {
  /** Inside a block comment that continues on the next line. */
  inComment: boolean;
  /** The last token could end a value, so a following `/` divides rather than opening a regular expression. */
  afterValue: boolean;
}

const KEYWORDS = new Set(['and', 'or', 'in']);
const ATOMS = new Set(['true', 'false', 'null']);
const FUNCTION_WORDS = new Set(['function', 'λ']);
const OPERATORS = /^(?::=|~>|\.\.|!=|<=|>=|\?:|\?\?|[-+*/%=<>&!?:^#@.|~])/;

function readString(stream: StringStream, quote: string): void {
  let escaped = false;
  for (let ch = stream.next(); ch !== undefined && ch !== null; ch = stream.next()) {
    if (ch === quote && !escaped) return;
    escaped = !escaped && ch === '\\';
  }
}

function readComment(stream: StringStream, state: JsonataState): string {
  state.inComment = !stream.skipTo('*/');
  if (state.inComment) stream.skipToEnd();
  else stream.match('*/');
  return 'comment';
}

export function tokenize(stream: StringStream, state: JsonataState): string | null {
  if (state.inComment) return readComment(stream, state);
  if (stream.eatSpace()) return null;
  if (stream.match('/*')) return readComment(stream, state);
  const ch = stream.peek() ?? '';
  let type: string | null;
  let value = true;
  if (ch === '"' || ch === "'") {
    stream.next();
    readString(stream, ch);
    type = 'string';
  } else if (ch === '`') {
    stream.next();
    stream.skipTo('`') ? stream.next() : stream.skipToEnd();
    type = 'propertyName';
  } else if (stream.match(/^-?\d+(\.\d+)?([eE][-+]?\d+)?/)) {
    type = 'number';
  } else if (stream.match(/^\$\$?[\p{L}\p{N}_]*/u)) {
    // $name(: a function call; $name alone: a variable; $ and $$: the context and the root.
    type = stream.peek() === '(' ? 'variableName.function' : 'variableName';
  } else if (ch === '/' && !state.afterValue) {
    stream.next();
    readString(stream, '/');
    stream.match(/^[im]*/);
    type = 'regexp';
  } else if (/[[\](){}]/.test(ch)) {
    stream.next();
    type = 'bracket';
    value = ch === ']' || ch === ')' || ch === '}';
  } else if (ch === ',' || ch === ';') {
    stream.next();
    type = 'punctuation';
    value = false;
  } else if (stream.match(OPERATORS)) {
    type = 'operator';
    value = false;
  } else if (stream.match(/^[\p{L}_λ][\p{L}\p{N}_]*/u)) {
    const word = stream.current();
    type = KEYWORDS.has(word)
      ? 'keyword'
      : ATOMS.has(word)
        ? 'atom'
        : FUNCTION_WORDS.has(word)
          ? 'keyword'
          : 'propertyName';
    value = !KEYWORDS.has(word) && !FUNCTION_WORDS.has(word);
  } else {
    stream.next();
    type = null;
    value = false;
  }
  state.afterValue = value;
  return type;
}

export const jsonataLanguage = StreamLanguage.define<JsonataState>({
  name: 'jsonata',
  startState: () => ({ inComment: false, afterValue: false }),
  copyState: (s) => ({ ...s }),
  token: tokenize,
  languageData: {
    commentTokens: { block: { open: '/*', close: '*/' } },
    closeBrackets: { brackets: ['(', '[', '{', '"', "'"] },
  },
});
