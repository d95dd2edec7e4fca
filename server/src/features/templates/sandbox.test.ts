/** The template sandbox on its own: jobs, limits, a killed or overflowing process replaced, close. */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Unavailable } from '../../http/errors';
import { type Allowance, compileTemplate, fullAllowance, TEMPLATE_LIMITS, TemplateError } from './evaluate';
import { createTemplateSandbox, SANDBOX_MESSAGES } from './sandbox';
import { watchSandbox } from './test-sandbox-events';

const sandbox = createTemplateSandbox({ size: 1 });
afterAll(() => sandbox.close());

const { events, nextEvent } = watchSandbox();
afterEach(() => {
  events.length = 0;
});

const ada = { id: 7, firstName: 'Ada', lastName: 'Lovelace', emails: [{ address: 'ada@example.com' }] };
const apply = (expression: string, records: Record<string, unknown>[] = [ada], allowance?: Allowance, detail = false) =>
  compileTemplate(expression, sandbox).applyAll(records, allowance, { detail });
/** On a record that holds no one: failures told in full. */
const applyDetailed = (expression: string) => apply(expression, [ada], undefined, true);
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a TemplateError');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(TemplateError);
      return (error as TemplateError).message;
    },
  );

const SHAPE =
  'it must produce an object for each identity, holding only objects, arrays, strings, numbers, booleans and null.';

describe('template sandbox', () => {
  it('applies a template to each record of a batch, in order, in one message', async () => {
    const records = [ada, { ...ada, id: 8, firstName: 'Grace' }];
    expect(await apply('{ "id": id, "who": firstName, "emails": emails.address }', records)).toEqual([
      { id: 7, who: 'Ada', emails: 'ada@example.com' },
      { id: 8, who: 'Grace', emails: 'ada@example.com' },
    ]);
    expect(events.filter((e) => e.event === 'dispatch')).toHaveLength(1);
  });

  it('leaves the Full template to the caller: no message at all', async () => {
    const full = compileTemplate(' $ ', sandbox);
    expect(full.full).toBe(true);
    expect(await full.applyAll([ada])).toEqual([ada]);
    expect(events).toEqual([]);
  });

  it('kills a process stuck in one call, fails only that job, and serves the next from a new process', async () => {
    const stuck = apply('{ "m": $match("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", /(a+)+$/) }');
    expect(await failure(stuck)).toBe(SANDBOX_MESSAGES.stopped);
    expect(await apply('{ "ok": true }')).toEqual([{ ok: true }]);
    const stopped = events.find((e) => e.event === 'stop')!;
    expect(stopped.reason).toBe(SANDBOX_MESSAGES.stopped);
    const spawned = events.filter((e) => e.event === 'spawn').map((e) => e.pid);
    expect(spawned).toHaveLength(1);
    expect(spawned[0]).not.toBe(stopped.pid);
  });

  it('lets a process the machine kept from the CPU finish: the hard limit is of CPU time, not of waiting', async () => {
    // Paused by SIGSTOP (as a machine too busy to run it would) for twice the limit, in the middle of a job.
    const dispatched = nextEvent('dispatch');
    // Each record needs a few milliseconds of CPU, far below the per-record limit even on a loaded machine (30,000
    // numbers took 100-170 ms of CPU a record at a load of 10 on two cores, 500 ms at worst).
    const job = apply('{ "n": $count([1..3000][$ % 7 = 0]) }', Array(10).fill(ada), {
      ms: 60_000,
      bytes: TEMPLATE_LIMITS.maxReplyBytes,
    });
    const { pid } = await dispatched;
    process.kill(pid!, 'SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 2 * TEMPLATE_LIMITS.hardRecordMs));
    process.kill(pid!, 'SIGCONT');
    expect(await job).toEqual(Array(10).fill({ n: 428 }));
    expect(events.some((e) => e.event === 'stop')).toBe(false);
  });

  it('answers a heap overflow as the memory limit, and recovers', async () => {
    // Ten million numbers in one array: one allocation past the heap, which aborts the process (not the server).
    expect(await failure(apply('{ "n": $count([1..10000000]) }'))).toBe(SANDBOX_MESSAGES.memory);
    expect(events.some((e) => e.event === 'exit' && e.signal === 'SIGABRT')).toBe(true);
    expect(await apply('{ "ok": true }')).toEqual([{ ok: true }]);
  });

  it('keeps a long job of quick records alive past the hard limit of one record', async () => {
    // Each record takes about 15 ms, far less than the per-record timeout (500 ms, wall clock, so a loaded machine
    // stretches it); together, in one job, they take longer than the hard limit.
    const work = (n: number) => `{ "n": $count([1..${n}][$ % 7 = 0]) }`;
    const perRecord = async (n: number) => {
      const measured = fullAllowance();
      await apply(work(n), [ada, ada, ada], measured);
      return (TEMPLATE_LIMITS.requestBudgetMs - measured.ms) / 3;
    };
    // Warmed up, then sized from a small job: a first record of 30,000 numbers could take the per-record limit on a
    // loaded machine before any size was measured.
    await perRecord(3000);
    let size = 3000;
    let one = await perRecord(size);
    for (let tries = 0; tries < 5 && (one < 10 || one > 30); tries++) {
      size = Math.min(1_000_000, Math.max(1000, Math.round((size * 15) / Math.max(one, 0.1))));
      one = await perRecord(size);
    }
    const count = Math.min(TEMPLATE_LIMITS.recordsPerJob, Math.ceil((3 * TEMPLATE_LIMITS.hardRecordMs) / one));
    expect(count * one, `${count} records of ${one} ms`).toBeGreaterThan(1.5 * TEMPLATE_LIMITS.hardRecordMs);
    const allowance = { ms: 60_000, bytes: TEMPLATE_LIMITS.maxReplyBytes };
    expect(await apply(work(size), Array(count).fill(ada), allowance)).toHaveLength(count);
    expect(events.some((e) => e.event === 'stop')).toBe(false);
  });

  it("stops at the request's budget and its reply size, naming them", async () => {
    const slow = '{ "n": $count([1..10000][$ % 7 = 0]) }';
    const spent: Allowance = { ms: 1, bytes: TEMPLATE_LIMITS.maxReplyBytes };
    expect(await failure(apply(slow, [ada, ada], spent))).toBe(
      `it took more than ${TEMPLATE_LIMITS.requestBudgetMs} ms for this request in all.`,
    );
    const full: Allowance = { ...fullAllowance(), bytes: 100 };
    expect(await failure(apply('{ "x": $pad("", 60, "x") }', [ada, ada], full))).toContain(
      'larger than 8 MB in all, the limit per reply',
    );
    for (const width of [70_000, 100_000_000]) {
      expect(await failure(apply(`{ "x": $pad("", ${width}, "x") }`))).toBe(
        'its output for one identity is larger than 64 KB, the limit per identity.',
      );
    }
  });

  it('takes from the allowance what each job spent', async () => {
    const allowance = fullAllowance();
    await apply('{ "x": "abc" }', [ada, ada], allowance);
    expect(allowance.bytes).toBe(TEMPLATE_LIMITS.maxReplyBytes - 2 * '{"x":"abc"}'.length);
    expect(allowance.ms).toBeLessThan(TEMPLATE_LIMITS.requestBudgetMs);
  });

  it('refuses functions anywhere in the output, and a function for an output', async () => {
    for (const expression of [
      '{ "f": $string }',
      '{ "f": function($x) { $x } }',
      '{ "r": /a/ }',
      '{ "deep": { "list": [1, { "f": $uppercase }] } }',
    ]) {
      expect(await failure(applyDetailed(expression)), expression).toMatch(
        /^its output holds a function, which JSON cannot/,
      );
      expect(await failure(apply(expression)), expression).toBe(SHAPE);
    }
    expect(await failure(applyDetailed('function($x) { $x }'))).toBe(
      'it must produce an object for each identity; it produced a function.',
    );
    expect(await failure(apply('function($x) { $x }'))).toBe(SHAPE);
  });

  it('tells a failure on real records by its class alone: no value, no $error text, no position', async () => {
    expect(await failure(apply('$assert(false, $string($))'))).toBe('the template called $error() or $assert().');
    expect(await failure(apply('$error("secret " & lastName)'))).toBe('the template called $error() or $assert().');
    expect(await failure(apply('{ "n": $number(firstName) }'))).toBe('it failed while evaluating a record.');
    expect(await failure(apply('{ "n": emails[0].address + 1 }'))).toBe(
      'a function or operator was given a value of a type it cannot take (a type error).',
    );
    // In full on the sample: code, message with values hidden, and position.
    expect(await failure(applyDetailed('{ "n": $number(firstName) }'))).toMatch(/^D3030: .* \(at character \d+\)$/);
  });

  it('never quotes the record in a failure', async () => {
    for (const expression of ['$error($string($))', '{ "n": $number(firstName) }', '{ "n": emails[0].address + 1 }']) {
      const message = await failure(applyDetailed(expression));
      expect(message, expression).not.toContain('Ada');
      expect(message, expression).not.toContain('ada@example.com');
    }
  });

  it('ends its processes when closed, failing the job in hand and every later run', async () => {
    const own = createTemplateSandbox({ size: 1 });
    const dispatched = nextEvent('dispatch');
    const job = compileTemplate('{ "m": $match("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", /(a+)+$/) }', own).applyAll([ada]);
    const caught = job.catch((error: unknown) => error);
    const { pid } = await dispatched;
    await own.close();
    expect(await caught).toBeInstanceOf(Unavailable);
    expect(events.some((e) => e.event === 'exit' && e.pid === pid)).toBe(true);
    await expect(compileTemplate('{ "a": 1 }', own).applyAll([ada])).rejects.toBeInstanceOf(Unavailable);
  });
});
