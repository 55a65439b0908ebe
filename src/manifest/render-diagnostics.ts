// Compiler-style rendering of diagnostics: `file:line:col: severity CODE:
// message`, the source line, and a caret under the fault.

import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Diagnostic } from './types.js';

const RED = '\u001b[31m';
const YELLOW = '\u001b[33m';
const BOLD = '\u001b[1m';
const RESET = '\u001b[0m';

/** True when any diagnostic is an error. */
export function hasErrors(diags: Diagnostic[]): boolean {
  return diags.some((d) => d.severity === 'error');
}

/** Order diagnostics by file, line and column, so output reads top to bottom. */
export function sortDiagnostics(diags: Diagnostic[]): Diagnostic[] {
  return [...diags].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col || a.code.localeCompare(b.code));
}

/**
 * Render diagnostics as text with source excerpts; `cwd` resolves relative file
 * names. Follow-on YAML errors are counted, not shown, unless `verbose`.
 */
export function renderDiagnostics(diags: Diagnostic[], opts: { color: boolean; cwd: string; verbose?: boolean }): string {
  const texts = new Map<string, string[] | undefined>();
  const linesOf = (file: string): string[] | undefined => {
    if (!texts.has(file)) {
      try {
        texts.set(file, readFileSync(isAbsolute(file) ? file : resolve(opts.cwd, file), 'utf8').split(/\r?\n/));
      } catch {
        texts.set(file, undefined);
      }
    }
    return texts.get(file);
  };
  const paint = (code: string, s: string): string => (opts.color ? code + s + RESET : s);
  const out: string[] = [];
  const folded = opts.verbose === true ? 0 : diags.filter((d) => d.followOn === true).length;
  for (const d of sortDiagnostics(diags)) {
    if (d.followOn === true && opts.verbose !== true) continue;
    const sev = d.severity === 'error' ? paint(RED + BOLD, 'error') : paint(YELLOW + BOLD, 'warning');
    const where = d.path === '' ? '' : ` [${d.path}]`;
    out.push(`${paint(BOLD, d.line > 0 ? `${d.file}:${d.line}:${d.col}` : d.file)}: ${sev} ${d.code}: ${d.message}${where}`);
    const line = linesOf(d.file)?.[d.line - 1];
    if (line !== undefined && line.length < 500) {
      const gutter = String(d.line).padStart(4);
      // Tabs keep their width under the caret so it lines up in a terminal.
      const pad = line.slice(0, Math.max(0, d.col - 1)).replace(/[^\t]/g, ' ');
      out.push(`${gutter} | ${line}`);
      out.push(`${' '.repeat(gutter.length)} | ${pad}${paint(d.severity === 'error' ? RED : YELLOW, '^')}`);
    }
  }
  const errors = diags.filter((d) => d.severity === 'error').length;
  const warnings = diags.length - errors;
  if (folded > 0) out.push(`${folded} follow-on error${folded === 1 ? '' : 's'} suppressed: fix the first error in the file and validate again (--verbose shows them all)`);
  if (diags.length > 0) out.push(`${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`);
  return out.length === 0 ? '' : out.join('\n') + '\n';
}
