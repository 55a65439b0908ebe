// Prints one plain closing line, `tests: N passed, N failed[, N skipped]`, after
// vitest's own summary, so any CI log reader can count the run. The line agrees
// with vitest's exit code: besides failed tests it counts, as one failure each, a
// file or suite whose own code failed (a throwing beforeAll or afterAll, an import
// error; its tests are then only skipped) and every unhandled error. A run that
// vitest still calls failed with none of those counted shows one failure.

import type { Reporter, TestModule, TestRunEndReason } from 'vitest/node';

/** The numbers of the closing line. */
export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

/** Counts a finished run the way vitest's exit code judges it. */
export function count(testModules: ReadonlyArray<TestModule>, unhandledErrors: number, reason: TestRunEndReason): Counts {
  const counts = { passed: 0, failed: unhandledErrors, skipped: 0 };
  for (const mod of testModules) {
    for (const suite of [mod, ...mod.children.allSuites()]) if (suite.errors().length > 0) counts.failed++;
    for (const test of mod.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') counts.passed++;
      else if (state === 'failed') counts.failed++;
      else counts.skipped++;
    }
  }
  if (reason !== 'passed' && counts.failed === 0) counts.failed = 1;
  return counts;
}

/** The closing line itself. */
export function closingLine({ passed, failed, skipped }: Counts): string {
  return `tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
}

/** A vitest reporter that adds the plain closing line. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>, reason: TestRunEndReason): void {
    process.stdout.write(`\n${closingLine(count(testModules, unhandledErrors.length, reason))}\n`);
  }
}
