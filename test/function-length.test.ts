// No function in src over 100 lines without a reason written beside it: a
// long function hides its state and cannot be tested in pieces (long work is
// an object with parts). A function may be longer when a
// `// long: <reason>` comment sits right above it (its doc comment block or
// the statement that holds it). Found with the TypeScript compiler's parser,
// so every function counts: declarations, methods, arrows, function
// expressions, constructors and accessors, nested ones included.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './e2e/helpers.js';

const MAX_LINES = 100;
const REASON = /\/\/\s*long:\s*\S/;

/** Functions that are over the limit on purpose while their split is under way, each with why. */
const PENDING: { path: string; name: string; why: string }[] = [];

interface LongFunction {
  at: string;
  name: string;
  lines: number;
  reasoned: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return p.endsWith('.ts') && !p.endsWith('.d.ts') && !p.endsWith('.generated.ts') ? [p] : [];
  });
}

/** The function's name, or the name it is given (`const f = () =>`, `{ f: () => }`), or `(anonymous)`. */
function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name !== undefined) return parent.name.getText();
  return '(anonymous)';
}

/** The comments right above the function, and above each enclosing node that starts on its line (the `export const` statement of an arrow). */
function commentsAbove(node: ts.Node, source: ts.SourceFile): string {
  const text = source.getFullText();
  const line = (pos: number): number => source.getLineAndCharacterOfPosition(pos).line;
  const first = line(node.getStart(source));
  const out: string[] = [];
  for (let n: ts.Node | undefined = node; n !== undefined && !ts.isSourceFile(n) && line(n.getStart(source)) === first; n = n.parent) {
    for (const c of ts.getLeadingCommentRanges(text, n.getFullStart()) ?? []) out.push(text.slice(c.pos, c.end));
  }
  return out.join('\n');
}

/** Every function of `text` over MAX_LINES lines. */
export function longFunctions(path: string, text: string): LongFunction[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const out: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isConstructorDeclaration(node) || ts.isAccessor(node)) && node.body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const lines = source.getLineAndCharacterOfPosition(node.end).line - start + 1;
      if (lines > MAX_LINES) out.push({ at: `${path}:${start + 1}`, name: nameOf(node), lines, reasoned: REASON.test(commentsAbove(node, source)) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe('no function in src over 100 lines without a reason beside it', () => {
  const found = sourceFiles(join(ROOT, 'src')).flatMap((abs) => {
    const path = relative(ROOT, abs);
    return longFunctions(path, readFileSync(abs, 'utf8')).filter((f) => !PENDING.some((p) => p.path === path && p.name === f.name));
  });

  it('each long function says why it is long', () => {
    expect(found.filter((f) => !f.reasoned).map((f) => `${f.at} ${f.name}: ${f.lines} lines, no "// long: <reason>" above it`)).toEqual([]);
  });

  it('every pending exception is still long (a finished split leaves none behind)', () => {
    for (const p of PENDING) {
      const long = longFunctions(p.path, readFileSync(join(ROOT, p.path), 'utf8')).some((f) => f.name === p.name);
      expect(long, `${p.path} ${p.name} is no longer over ${MAX_LINES} lines: remove it from PENDING`).toBe(true);
    }
  });

  it('the check finds each form it is for', () => {
    const body = Array.from({ length: MAX_LINES }, (_, i) => `  const x${i} = ${i};`).join('\n');
    const forms = [
      `export function f() {\n${body}\n}`,
      `export const g = () => {\n${body}\n};`,
      `class C {\n  m() {\n${body}\n  }\n}`,
      `const o = { h: function () {\n${body}\n} };`,
      `function outer() {\n  function inner() {\n${body}\n  }\n}`,
    ];
    expect(forms.map((t) => longFunctions('t.ts', t).map((f) => [f.name, f.reasoned]))).toEqual([[['f', false]], [['g', false]], [['m', false]], [['h', false]], [['outer', false], ['inner', false]]]);
    expect(longFunctions('t.ts', `/** Doc. */\n// long: a table of routes, one entry each\nexport function f() {\n${body}\n}`)[0]?.reasoned).toBe(true);
    expect(longFunctions('t.ts', `// long: a table of routes\nexport const g = () => {\n${body}\n};`)[0]?.reasoned).toBe(true);
    expect(longFunctions('t.ts', `export function f() {\n${body.split('\n').slice(2).join('\n')}\n}`)).toEqual([]);
  });
});
