// Service codes are named, never written: every result and error code lives in
// src/contract/codes.ts, and code elsewhere in src/ refers to it by constant
// (ERRORS.noChanges.code), so a code is looked up, documented and changed in
// one place. This scans every string in src/ outside src/contract (comments are
// not code and are not scanned) for one that is a service code.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { AGENCY_ERRORS, DELIVERY_ERRORS, EMULATOR_ERRORS, ERRORS, NO_CONTENT_CODE, SUCCESS_CODE } from '../../src/contract/codes.js';
import { packageRoot } from '../../src/util/paths.js';

/** A service code: five digits (management, agency), or the success code. */
const CODE = new RegExp(`^(\\d{5}|${SUCCESS_CODE})$`);

/** One string literal in a source that holds a service code. */
interface CodeLiteral {
  file: string;
  line: number;
  code: string;
}

/** The string literals (quoted, or template text) of `source` that hold a service code. */
function codeLiterals(source: string, file: string): CodeLiteral[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: CodeLiteral[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node)) && CODE.test(node.text.trim())) {
      out.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, code: node.text.trim() });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.generated.ts') ? [path] : [];
  });
}

describe('service codes are named, never written', () => {
  it('the scanner finds a code in a string, a template (or its text after a placeholder) and a key, and not in a comment, a number or a constant', () => {
    const sample = [
      "const a = '64323';",
      'const b = `64108`;',
      "const c = { '61004': 'expired' };",
      'const d = `code ${x} 64109`;',
      "const e = \"20000000\";",
      '// 64377 in a comment is documentation',
      'const f = 64377;',
      "const g = '643';",
      "const h = ERRORS.noChanges.code;",
    ].join('\n');
    expect(codeLiterals(sample, 'sample.ts').map((l) => `${l.line}:${l.code}`)).toEqual(['1:64323', '2:64108', '3:61004', '4:64109', '5:20000000']);
  });

  it('no string in src/ outside src/contract holds a service code', () => {
    const root = packageRoot();
    const found = sources(join(root, 'src'))
      .filter((f) => !relative(root, f).split(sep).join('/').startsWith('src/contract/'))
      .flatMap((f) => codeLiterals(readFileSync(f, 'utf8'), relative(root, f).split(sep).join('/')));
    expect(found.map((l) => `${l.file}:${l.line}: '${l.code}' (use the constant from src/contract/codes.ts)`)).toEqual([]);
  });

  it('every code the scan looks for is one the contract names', () => {
    const named = [SUCCESS_CODE, NO_CONTENT_CODE, ...[ERRORS, AGENCY_ERRORS, DELIVERY_ERRORS, EMULATOR_ERRORS].flatMap((t) => Object.values(t).map((d) => d.code))];
    for (const code of named) expect(code).toMatch(CODE);
  });
});
