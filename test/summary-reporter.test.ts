// The closing line of test/summary-reporter.ts agrees with vitest's exit code:
// vitest itself runs each fixture of test/fixtures/reporter/ with that reporter,
// and the line's failures are zero exactly when vitest exits 0.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from './e2e/helpers.js';

const run = promisify(execFile);

/** Runs one test file under vitest (a fixture, unless another config is given); its exit code, the reporter's closing line, and all it printed. */
async function vitest(fixture: string, config = join(ROOT, 'test', 'fixtures', 'reporter', 'vitest.config.ts'), env = process.env): Promise<{ code: number; line: string; output: string }> {
  const argv = [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', config, fixture];
  const { code, stdout, stderr } = await run(process.execPath, argv, { cwd: ROOT, env }).then(
    (r) => ({ code: 0, ...r }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );
  const line = stdout.split('\n').filter((l) => l.startsWith('tests: ')).at(-1) ?? `no closing line in:\n${stdout}`;
  return { code, line, output: stdout + stderr };
}

/** How many tests a test file declares, as vitest's list mode collects them (no hook runs, no browser starts). */
async function browserTestCount(file: string): Promise<number> {
  // `--json` last: given a value (`--json FILE`, `--json=true`) it writes the list into that file.
  const argv = [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'list', file, '--config', join(ROOT, 'vitest.config.ts'), '--json'];
  const { stdout } = await run(process.execPath, argv, { cwd: ROOT });
  return (JSON.parse(stdout) as { name: string; file: string }[]).filter((t) => t.file === join(ROOT, file)).length;
}

describe.concurrent('the summary reporter', () => {
  it.for<[string, number, string]>([
    ['passing', 0, 'tests: 2 passed, 0 failed, 1 skipped'],
    ['failing-test', 1, 'tests: 1 passed, 1 failed'],
    // A throwing beforeAll only skips the tests; the hook is the failure.
    ['failing-before-all', 1, 'tests: 0 passed, 1 failed, 2 skipped'],
    ['failing-suite-hook', 1, 'tests: 2 passed, 1 failed'],
    ['unhandled', 1, 'tests: 1 passed, 1 failed'],
  ])('closes the %s run with the line its exit code means', async ([fixture, code, line], { expect }) => {
    const got = await vitest(`${fixture}.fixture`);
    expect({ code: got.code, line: got.line }).toEqual({ code, line });
  });
});

describe('the browser test when its browser cannot start', () => {
  it('fails once, in beforeAll, and its afterAll cleans up without a second error', async () => {
    // Every test of the file is skipped, and the beforeAll is the one failure. How many
    // tests the file has, vitest's list mode says (it collects them without running a
    // hook): a test added to the browser file changes the expected line with it.
    const file = 'test/preview/browser.test.ts';
    const tests = await browserTestCount(file);
    expect(tests).toBeGreaterThan(0);
    const got = await vitest(file, join(ROOT, 'vitest.config.ts'), { ...process.env, CHROMIUM_PATH: join(ROOT, 'no-such-chromium') });
    expect({ code: got.code, line: got.line }).toEqual({ code: 1, line: `tests: 0 passed, 1 failed, ${tests} skipped` });
    expect(got.output).toContain('CHROMIUM_PATH is');
    expect(got.output).not.toMatch(/TypeError|afterAll/);
  });
});
