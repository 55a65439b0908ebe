// The CI recipes in examples/ci/ use only real commands and flags: every
// `rcsctl …` (or `npx rcsctl …`) in their scripts is parsed by the real CLI
// (src/cli/main.ts) with no service configured, so a typo in a command or
// flag, a bad --format value or a missing argument fails here.

import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE, ROOT } from './e2e/helpers.js';
import { acceptedIn, invocations, scripts } from './ci-shell.js';

/** Script keys: `run:` (GitHub), `script:` / `before_script:` / `after_script:` (GitLab). */
const SCRIPT_KEYS = ['run', 'script', 'before_script', 'after_script'];

let cwd: string;
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'rcsctl-ci-'));
  cpSync(EXAMPLE, join(cwd, 'brands'), { recursive: true });
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** Accepted, or stopped at reading a report (plan.json, drift.json) an earlier command of the job makes. */
const accepted = (argv: string[]) => acceptedIn(cwd, argv, { missingReports: true });

const RECIPES = ['github-actions.yml', 'gitlab-ci.yml'];

describe('CI recipes', () => {
  for (const file of RECIPES) {
    it(`${file}: every rcsctl invocation is a valid command line`, async () => {
      const doc = parse(readRecipe(file)) as unknown;
      const calls = scripts(doc, SCRIPT_KEYS).flatMap(invocations);
      const commands = new Set(calls.map((argv) => argv[0]));
      // validate and plan on changes, apply of a saved plan, nightly drift with JUnit.
      for (const c of ['validate', 'plan', 'apply', 'drift']) expect(commands, `${file} runs rcsctl ${c}`).toContain(c);
      expect(calls.some((a) => a[0] === 'apply' && a.includes('--plan'))).toBe(true);
      expect(calls.some((a) => a[0] === 'drift' && a.join(' ').includes('--format junit'))).toBe(true);
      // The pull-request plan draws its changes (docs/preview.md), kept as an artifact and linked from the comment.
      expect(calls.some((a) => a[0] === 'plan' && a.includes('--preview'))).toBe(true);
      // One comment of the plan and its drift, the drift the plan shows not repeated, with the steps' graph (issue 38).
      expect(calls.some((a) => a[0] === 'report' && a.includes('plan.json') && a.includes('drift.json') && a.join(' ').includes('--format markdown') && a.includes('--graph'))).toBe(true);
      expect(readRecipe(file)).toMatch(file.startsWith('github') ? /path: preview\/[\s\S]*steps\.preview\.outputs\.artifact-url/ : /paths: \[[^\]]*preview\/\]/);
      for (const argv of calls) {
        const r = await accepted(argv);
        expect(r.ok, `rcsctl ${argv.join(' ')}\n${r.why}`).toBe(true);
      }
    });
  }

  it("every recipe checks, on a request, that the CODEOWNERS file requesting each brand's owners' review is current (a stale one fails the job)", () => {
    for (const file of [...RECIPES, 'github-actions-matrix.yml', 'gitlab-ci-parallel.yml']) {
      const doc = parse(readRecipe(file)) as unknown;
      const owners = file.startsWith('github') ? '.github/CODEOWNERS' : '.gitlab/CODEOWNERS';
      const lines = scripts(doc, SCRIPT_KEYS).flatMap((s) => s.split('\n')).filter((l) => l.includes('--format codeowners'));
      expect(lines, file).toHaveLength(1);
      expect(lines[0], file).toContain(`npx rcsctl brands brands --owners --format codeowners | diff -u ${owners} - || `);
    }
  });

  it('no recipe edits a comment it did not mark, and every GitHub job that installs caches npm', () => {
    for (const file of [...RECIPES, 'github-actions-matrix.yml', 'gitlab-ci-parallel.yml']) {
      const text = readRecipe(file);
      expect(text, file).not.toContain('--edit-last');
      if (file.includes('gitlab')) continue;
      const doc = parse(text) as { jobs: Record<string, { steps: { uses?: string; run?: string; with?: Record<string, unknown> }[] }> };
      for (const [id, job] of Object.entries(doc.jobs)) {
        if (!job.steps.some((s) => s.run === 'npm ci')) continue;
        const setup = job.steps.find((s) => s.uses?.startsWith('actions/setup-node@') === true);
        expect(setup?.with?.cache, `${file} ${id}`).toBe('npm');
      }
    }
  });

  it('the checker rejects unknown commands, unknown flags, bad values and missing arguments', async () => {
    for (const argv of [
      ['plna', 'brands'],
      ['drift', 'brands', '--formt', 'junit'],
      ['drift', 'brands', '--format', 'xml'],
      ['show'], // its plan file is required (plan's paths default to .)
      ['export', '--out', 'x'], // --brand is required
      ['validate', 'brands', 'extra', '--strictly'],
    ]) {
      expect((await accepted(argv)).ok, argv.join(' ')).toBe(false);
    }
  });

  it('the shell splitter finds invocations behind npx, operators, continuations and redirects', () => {
    expect(invocations('set +e\nnpx rcsctl plan brands --detailed-exitcode > plan.txt\ncode=$?')).toEqual([['plan', 'brands', '--detailed-exitcode']]);
    expect(invocations('rcsctl drift a \\\n  --format "junit" --output "$OUT" || true')).toEqual([['drift', 'a', '--format', 'junit', '--output', 'x']]);
    expect(invocations('echo rcsctl plan && if x; then rcsctl validate b; fi')).toEqual([['validate', 'b']]);
  });
});

function readRecipe(name: string): string {
  return readFileSync(join(ROOT, 'examples', 'ci', name), 'utf8');
}
