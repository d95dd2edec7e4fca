// Prints one plain closing line, 'tests: N passed, N failed, N skipped', that any CI can read, and above it the
// slowest test files of the run, so a CI that grows slower says where the time went.
import type { Reporter, TestModule } from 'vitest/node';

const SLOWEST_SHOWN = 8;

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = errors.length;
    let skipped = 0;
    for (const module of modules) {
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed += 1;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
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
      const cwd = process.cwd();
      process.stdout.write('\nslowest files:\n');
      for (const { file, ms } of timed) {
        process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file.replace(`${cwd}/`, '')}\n`);
      }
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
