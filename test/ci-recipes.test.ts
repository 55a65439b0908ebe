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

/** Every string under a `run:` (GitHub) or `script:` / `before_script:` (GitLab) key. */
function scripts(node: unknown, key = ''): string[] {
  if (typeof node === 'string') return ['run', 'script', 'before_script', 'after_script'].includes(key) ? [node] : [];
  if (Array.isArray(node)) return node.flatMap((n) => scripts(n, key));
  if (node !== null && typeof node === 'object') return Object.entries(node).flatMap(([k, v]) => scripts(v, k));
  return [];
}

const OPERATORS = new Set([';', '&&', '||', '|', '&', '>', '>>', '<', '2>', '2>&1', '(', ')', '{', '}', '\n', 'then', 'do']);

/** Split shell text into words and operators (quotes, escapes and line continuations; `$VAR` becomes `x`). */
export function shellWords(text: string): string[] {
  const out: string[] = [];
  let word = '';
  let has = false;
  const flush = () => {
    if (has) out.push(word);
    word = '';
    has = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\' && text[i + 1] === '\n') {
      i++;
      continue;
    }
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      word += text.slice(i + 1, end);
      has = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      word += expand(text.slice(i + 1, j));
      has = true;
      i = j;
    } else if (c === '#' && !has) {
      while (i < text.length && text[i] !== '\n') i++;
      i--;
    } else if (c === ' ' || c === '\t') flush();
    else if (c === '\n' || c === ';' || c === '(' || c === ')') {
      flush();
      out.push(c);
    } else if (c === '&' || c === '|' || c === '>' || c === '<') {
      flush();
      const two = text.slice(i, i + 2);
      if (two === '&&' || two === '||' || two === '>>') {
        out.push(two);
        i++;
      } else out.push(c);
    } else {
      word += c;
      has = true;
    }
  }
  flush();
  return out.map((w) => (w.startsWith('$') && !w.startsWith('$(') ? expand(w) : w));
}

function expand(s: string): string {
  return s.replace(/\$\{\{[^}]*\}\}|\$\{[A-Za-z_]\w*\}|\$[A-Za-z_]\w*/g, 'x');
}

/** Each rcsctl invocation's argv (without `rcsctl`) in a script. */
export function invocations(script: string): string[][] {
  const words = shellWords(script);
  const found: string[][] = [];
  for (let i = 0; i < words.length; i++) {
    if (words[i] !== 'rcsctl') continue;
    const prev = words[i - 1];
    const starts = prev === undefined || OPERATORS.has(prev) || prev === 'npx' || prev === 'then' || prev === 'else';
    if (!starts) continue;
    const argv: string[] = [];
    for (let j = i + 1; j < words.length && !OPERATORS.has(words[j] as string); j++) argv.push(words[j] as string);
    found.push(argv);
  }
  return found;
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
