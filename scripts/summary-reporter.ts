// Prints one plain closing line, 'tests: N passed, N failed, N skipped', that any CI can read, and above it the
// slowest test files of the run, so a CI that grows slower says where the time went, and a line per failed test
// ('failed: file > test: first line of its error'), so a CI log's tail names what failed.
import type { Reporter, TestModule } from 'vitest/node';

const SLOWEST_SHOWN = 8;
const MESSAGE_SHOWN = 300;

/** The first line of an error, shortened to what a log tail can hold. */
function firstLine(error: unknown): string {
  const message = (error as { message?: unknown } | undefined)?.message;
  const line = String(message ?? error ?? '').split('\n')[0] ?? '';
  return line.length > MESSAGE_SHOWN ? `${line.slice(0, MESSAGE_SHOWN)}…` : line;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = errors.length;
    let skipped = 0;
    const failures: string[] = errors.map((error) => `failed: (outside a test): ${firstLine(error)}`);
    const cwd = process.cwd();
    for (const module of modules) {
      const file = module.moduleId.replace(`${cwd}/`, '');
      const tests = [...module.children.allTests()];
      // A file that failed outside its tests (its set-up threw, so its tests were skipped) fails the run as one.
      if (module.state() === 'failed' && !tests.some((test) => test.result().state === 'failed')) {
        failed += 1;
        failures.push(`failed: ${file}: ${firstLine(module.errors()[0])}`);
      }
      for (const test of tests) {
        const result = test.result();
        if (result.state === 'passed') passed += 1;
        else if (result.state === 'failed') {
          failed += 1;
          failures.push(`failed: ${file} > ${test.fullName}: ${firstLine(result.errors?.[0])}`);
        } else skipped += 1;
      }
    }
    const timed = modules
      .map((module) => {
        const d = module.diagnostic();
        return { file: module.moduleId, ms: d.duration + d.setupDuration + d.collectDuration + d.prepareDuration };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST_SHOWN);
    if (timed.length > 1) {
      process.stdout.write('\nslowest files:\n');
      for (const { file, ms } of timed) {
        process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file.replace(`${cwd}/`, '')}\n`);
      }
    }
    if (failures.length > 0) process.stdout.write(`\n${failures.join('\n')}\n`);
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
