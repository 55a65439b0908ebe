// Splitting CI scripts into rcsctl command lines, for the recipe tests:
// enough of the shell (quotes, escapes, continuations, operators) to find
// every `rcsctl …` and its words; the scripts of a CI file, and whether the
// real CLI accepts a command line found there.

import { cli } from './e2e/helpers.js';

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

/** Every string under one of `keys` (`run:`, `script:` …) in a parsed CI file. */
export function scripts(node: unknown, keys: readonly string[], key = ''): string[] {
  if (typeof node === 'string') return keys.includes(key) ? [node] : [];
  if (Array.isArray(node)) return node.flatMap((n) => scripts(n, keys, key));
  if (node !== null && typeof node === 'object') return Object.entries(node).flatMap(([k, v]) => scripts(v, keys, k));
  return [];
}

/**
 * Whether the real CLI accepts `argv`, run in `cwd` with no service address and
 * no credentials: it succeeds (validate) or stops at connecting. Commander's own
 * errors (`error: unknown option …`) and rcsctl usage errors fail. With
 * `missingReports`, `report merge` and `show` may also stop at reading a report the CI
 * jobs would have made, and `plan --compare-to` at the base's checkout an earlier step makes.
 */
export async function acceptedIn(cwd: string, argv: string[], opts: { missingReports?: boolean } = {}): Promise<{ ok: boolean; why: string }> {
  const r = await cli(argv, { cwd, env: {} });
  if (/^error: /m.test(r.stderr)) return { ok: false, why: r.stderr };
  if (r.code === 0) return { ok: true, why: '' };
  const atConnect = /^Error: no service address: set RCSCTL_BASE_URL/m.test(r.stderr);
  const atReport = opts.missingReports === true && ((argv[0] === 'report' && /^Error: cannot read \S+ \(ENOENT\)/m.test(r.stderr)) || (argv[0] === 'show' && /^Error: cannot read plan file \S+: ENOENT/m.test(r.stderr)));
  // The base's checkout (plan --compare-to) is made by an earlier step of the job.
  const atBase = opts.missingReports === true && argv.includes('--compare-to') && /^Error: --compare-to \S+: no such directory/m.test(r.stderr);
  return { ok: atConnect || atReport || atBase, why: r.stderr };
}
