// renderDiagnostics: compiler-style lines, a caret under the fault, colour only when asked.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasErrors, renderDiagnostics, type Diagnostic } from '../../src/manifest/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rcsctl-render-'));
  await writeFile(join(dir, 'm.yaml'), 'a: 1\n\tb: x\n');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const warning: Diagnostic = { code: 'RCS507', severity: 'warning', file: 'm.yaml', line: 2, col: 3, path: '/b', message: 'unused' };
const error: Diagnostic = { code: 'RCS201', severity: 'error', file: 'm.yaml', line: 1, col: 1, path: '/a', message: 'unknown key "a"' };

describe('renderDiagnostics', () => {
  it('sorts by position, keeps tabs under the caret and counts errors and warnings', () => {
    expect(renderDiagnostics([warning, error], { color: false, cwd: dir })).toBe(
      'm.yaml:1:1: error RCS201: unknown key "a" [/a]\n' +
        '   1 | a: 1\n' +
        '     | ^\n' +
        'm.yaml:2:3: warning RCS507: unused [/b]\n' +
        '   2 | \tb: x\n' +
        '     | \t ^\n' +
        '1 error, 1 warning\n',
    );
  });

  it('colours only when asked, and renders nothing for no diagnostics', () => {
    expect(renderDiagnostics([error], { color: true, cwd: dir })).toContain('\u001b[31m');
    expect(renderDiagnostics([error], { color: false, cwd: dir })).not.toContain('\u001b[');
    expect(renderDiagnostics([], { color: false, cwd: dir })).toBe('');
  });

  it('still prints the diagnostic when the file cannot be read', () => {
    const gone = { ...error, file: 'gone.yaml' };
    expect(renderDiagnostics([gone], { color: false, cwd: dir })).toBe('gone.yaml:1:1: error RCS201: unknown key "a" [/a]\n1 error, 0 warnings\n');
  });

  it('hasErrors ignores warnings', () => {
    expect(hasErrors([warning])).toBe(false);
    expect(hasErrors([warning, error])).toBe(true);
  });
});
