// One process of the template sandbox (sandbox.ts, decision 0018). It applies a template to a batch of records and
// answers with their outputs, checked to be JSON and measured, or with the first failure in words safe to show. Plain JavaScript, so it
// starts in a tenth of a second with no TypeScript loader; its environment is empty, so it holds no secret, and it
// sees no record but those a job brings. The server kills it when one record runs too long and replaces it; a heap
// overflow ends it by itself.
//
// Messages (JSON) in: { id, expression, records, limits, detail } (limits: see SandboxLimits in sandbox.ts). `detail`
// is true only for the synthetic sample record, which holds no one: there a failure is told in full (JSONata's code,
// message and position) to help the author. On real records every failure is a fixed sentence per class of error,
// with no value, no $error()/$assert() text and no position, since which branch failed (and so where) is the data's
// (issue 28, finding 1); the call is then metered and audited as served.
// Messages out: { kind: 'ready' } once; { kind: 'progress', id } at most every PROGRESS_MS while a job runs, so the
// server can tell a long job from one stuck in a single call; then { kind: 'done', id, outputs, bytes, ms } (outputs
// checked to be JSON and measured as such) or { kind: 'failed', id, reason, position, ms }.
import jsonata from 'jsonata';

/**
 * The time a template is given and charged is CPU time: this process's (every thread: the evaluation and its garbage
 * collection), so a record or a request is stopped for running too long, not for waiting on a machine too busy to run
 * it (decision 0018). JSONata's per-record timeout reads Date.now(), which in this process, running nothing but
 * templates, is this clock. Templates cannot read it: $now() and $millis() come from `new Date()`, which V8 does not
 * take from Date.now.
 */
function cpuNow() {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}
Date.now = () => Math.floor(cpuNow());

const PROGRESS_MS = 100;
const MAX_COMPILED = 100;
/** What replaces a record's value quoted in a failure: a 422 is not billed, so it must not hand out the record. */
const HIDDEN_VALUE = '(a value from the record)';

class Failure extends Error {
  constructor(message, position) {
    super(message);
    this.position = position;
  }
}

const kb = (bytes) => `${Math.round(bytes / 1024).toLocaleString('en-US')} KB`;
const mb = (bytes) => `${Math.round(bytes / 1024 / 1024).toLocaleString('en-US')} MB`;

/** The fixed sentences of failures on real records, one per class of error. */
const FIXED = {
  raised: 'the template called $error() or $assert().',
  type: 'a function or operator was given a value of a type it cannot take (a type error).',
  other: 'it failed while evaluating a record.',
  shape:
    'it must produce an object for each identity, holding only objects, arrays, strings, numbers, booleans and null.',
};

/** A JSONata failure on a real record: its class only. */
function classify(e) {
  if (e.code === 'D3137' || e.code === 'D3141') return new Failure(FIXED.raised);
  if (typeof e.code === 'string' && e.code.startsWith('T')) return new Failure(FIXED.type);
  return new Failure(FIXED.other);
}

/**
 * An evaluation error of JSONata in words safe to show. On the synthetic sample (`detail`): its code, message and
 * position, the values it names hidden and `$error()` text dropped. On real records: the class of error alone.
 */
function describe(error, limits, detail) {
  if (error instanceof Failure) return error;
  const e = error ?? {};
  if (e.code === 'D1012') return new Failure(`it ran longer than ${limits.timeoutMs} ms on one record.`);
  if (e.code === 'D1011' || (error instanceof RangeError && /call stack/.test(error.message))) {
    return new Failure(`it nested deeper than ${limits.maxDepth} levels.`);
  }
  if (!e.code) return new Failure(detail ? 'it failed while evaluating.' : FIXED.other);
  if (!detail) return classify(e);
  const at = typeof e.position === 'number' ? ` (at character ${e.position})` : '';
  let message = e.code === 'D3137' ? 'the template called $error().' : String(e.message ?? 'it failed.');
  for (const value of [e.value, e.value2]) {
    if (value === undefined) continue;
    for (const shown of new Set([safeJson(value), safeString(value)])) {
      if (shown) message = message.split(shown).join(HIDDEN_VALUE);
    }
  }
  return new Failure(`${e.code}: ${message}${at}`, e.position);
}

function safeJson(value) {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
function safeString(value) {
  try {
    return String(value);
  } catch {
    return undefined;
  }
}

const isFunction = (value) =>
  typeof value === 'function' || value?._jsonata_lambda === true || value?._jsonata_function === true;

function kindOf(value) {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return isFunction(value) ? 'a function' : typeof value;
}

/**
 * What in `value` JSON cannot carry (a function, symbol or BigInt; JSONata's functions are objects marked
 * `_jsonata_lambda` or `_jsonata_function`), else null. `chars` counts its strings' characters, a lower bound of its
 * size as JSON, so an output far over the limit is refused before it is serialised.
 */
function unfit(value, depth, limits, chars) {
  switch (typeof value) {
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    case 'bigint':
      return 'a BigInt';
    case 'string':
      chars.n += value.length;
      return chars.n > limits.maxIdentityBytes ? 'too much' : null;
    case 'object':
      break;
    default:
      return null;
  }
  if (value === null) return null;
  if (isFunction(value)) return 'a function';
  if (depth >= limits.maxDepth) return 'too deep';
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    const found = unfit(item, depth + 1, limits, chars);
    if (found) return found;
  }
  return null;
}

/** The size of one record's output as JSON, in bytes, or the Failure that says why it cannot be sent. */
function measure(output, limits, detail) {
  if (!output || typeof output !== 'object' || Array.isArray(output) || isFunction(output)) {
    throw new Failure(
      detail ? `it must produce an object for each identity; it produced ${kindOf(output)}.` : FIXED.shape,
    );
  }
  const found = unfit(output, 0, limits, { n: 0 });
  if (found === 'too deep') throw new Failure(`its output nests deeper than ${limits.maxDepth} levels.`);
  if (found && found !== 'too much') {
    if (!detail) throw new Failure(FIXED.shape);
    throw new Failure(
      `its output holds ${found}, which JSON cannot carry; a template may produce only objects, arrays, strings, numbers, booleans and null.`,
    );
  }
  const bytes = found ? Number.POSITIVE_INFINITY : Buffer.byteLength(JSON.stringify(output));
  if (bytes > limits.maxIdentityBytes) {
    throw new Failure(
      `its output for one identity is larger than ${kb(limits.maxIdentityBytes)}, the limit per identity.`,
    );
  }
  return bytes;
}

const compiled = new Map();
function compile(expression, limits) {
  let template = compiled.get(expression);
  if (!template) {
    try {
      template = jsonata(expression, { timeout: limits.timeoutMs, stack: limits.maxDepth });
    } catch (error) {
      throw new Failure(`${error?.code ? `${error.code}: ` : ''}${error?.message ?? 'it does not compile.'}`);
    }
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value);
    compiled.set(expression, template);
  }
  return template;
}

async function run({ id, expression, records, limits, detail = false }) {
  const started = cpuNow();
  let signed = started;
  const outputs = [];
  let bytes = 0;
  try {
    const template = compile(expression, limits);
    for (const record of records) {
      let output;
      try {
        output = await template.evaluate(record);
      } catch (error) {
        throw describe(error, limits, detail);
      }
      bytes += measure(output, limits, detail);
      if (bytes > limits.bytesLeft) {
        throw new Failure(
          `its output for this request is larger than ${mb(limits.maxReplyBytes)} in all, the limit per reply; please look up fewer inputs at a time.`,
        );
      }
      outputs.push(output);
      const now = cpuNow();
      if (now - started > limits.msLeft) {
        throw new Failure(`it took more than ${limits.requestBudgetMs} ms for this request in all.`);
      }
      if (now - signed >= PROGRESS_MS) {
        process.send({ kind: 'progress', id });
        signed = now;
      }
    }
    process.send({ kind: 'done', id, outputs, bytes, ms: cpuNow() - started });
  } catch (error) {
    const failure = describe(error, limits, detail);
    process.send({
      kind: 'failed',
      id,
      reason: failure.message,
      position: detail ? failure.position : undefined,
      ms: cpuNow() - started,
    });
  }
}

process.on('disconnect', () => process.exit(0));
process.on('message', (job) => {
  void run(job);
});
process.send({ kind: 'ready' });
