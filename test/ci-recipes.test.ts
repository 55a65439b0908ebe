// The CI recipes in examples/ci/ use only real commands and flags: every
// `rcsctl …` (or `npx rcsctl …`) in their scripts is parsed by the real CLI
// (src/cli/main.ts) with no service configured, so a typo in a command or
// flag, a bad --format value or a missing argument fails here.

import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, EXAMPLE, ROOT } from './e2e/helpers.js';
import { invocations } from './ci-shell.js';

/** Every string under a `run:` (GitHub) or `script:` / `before_script:` (GitLab) key. */
function scripts(node: unknown, key = ''): string[] {
  if (typeof node === 'string') return ['run', 'script', 'before_script', 'after_script'].includes(key) ? [node] : [];
  if (Array.isArray(node)) return node.flatMap((n) => scripts(n, key));
  if (node !== null && typeof node === 'object') return Object.entries(node).flatMap(([k, v]) => scripts(v, k));
  return [];
}

let cwd: string;
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'rcsctl-ci-'));
  cpSync(EXAMPLE, join(cwd, 'brands'), { recursive: true });
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/**
 * Whether the real CLI accepts `argv`: run with no service address and no
 * credentials, it either succeeds (validate) or stops at connecting. Commander's
 * own errors (`error: unknown option …`) and rcsctl usage errors fail.
 */
async function accepted(argv: string[]): Promise<{ ok: boolean; why: string }> {
  const r = await cli(argv, { cwd, env: {} });
  if (/^error: /m.test(r.stderr)) return { ok: false, why: r.stderr };
  if (r.code === 0) return { ok: true, why: '' };
  const stoppedAtConnect = /^Error: no service address: set RCSCTL_BASE_URL/m.test(r.stderr);
  return { ok: stoppedAtConnect, why: r.stderr };
}

const RECIPES = ['github-actions.yml', 'gitlab-ci.yml'];

describe('CI recipes', () => {
  for (const file of RECIPES) {
    it(`${file}: every rcsctl invocation is a valid command line`, async () => {
      const doc = parse(readRecipe(file)) as unknown;
      const calls = scripts(doc).flatMap(invocations);
      const commands = new Set(calls.map((argv) => argv[0]));
      // validate and plan on changes, apply of a saved plan, nightly drift with JUnit.
      for (const c of ['validate', 'plan', 'apply', 'drift']) expect(commands, `${file} runs rcsctl ${c}`).toContain(c);
      expect(calls.some((a) => a[0] === 'apply' && a.includes('--plan'))).toBe(true);
      expect(calls.some((a) => a[0] === 'drift' && a.join(' ').includes('--format junit'))).toBe(true);
      // The pull-request plan draws its changes (docs/preview.md), kept as an artifact and linked from the comment.
      expect(calls.some((a) => a[0] === 'plan' && a.includes('--format') && a.includes('--preview'))).toBe(true);
      expect(readRecipe(file)).toMatch(file.startsWith('github') ? /path: preview\/[\s\S]*steps\.preview\.outputs\.artifact-url/ : /paths: \[[^\]]*preview\/\]/);
      for (const argv of calls) {
        const r = await accepted(argv);
        expect(r.ok, `rcsctl ${argv.join(' ')}\n${r.why}`).toBe(true);
      }
    });
  }

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
