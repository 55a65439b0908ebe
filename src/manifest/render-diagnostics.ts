// Compiler-style rendering of diagnostics: `file:line:col: severity CODE:
// message`, the source line, and a caret under the fault.

import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { escapeUnsafe } from '../util/terminal-text.js';
import type { Diagnostic, Severity } from './types.js';

/** Source excerpts shown (the first ones; later diagnostics get their message line only). */
export const MAX_EXCERPTS = 20;
/** Characters of a source line shown around the column; longer lines are cut with … */
export const EXCERPT_WIDTH = 100;
/** Longest message shown (a message quotes keys and values, which may be long). */
export const MAX_MESSAGE = 400;
/** Diagnostics rendered as text; the rest are counted (`validate --format json` lists them all). */
export const MAX_RENDERED = 200;

const RED = '\u001b[31m';
const YELLOW = '\u001b[33m';
const CYAN = '\u001b[36m';
const BOLD = '\u001b[1m';
const RESET = '\u001b[0m';

const TONE: Record<Severity, string> = { error: RED, warning: YELLOW, note: CYAN };

/**
 * `2 errors, 1 warning`, and `, 3 notes` when there are any: the count line of
 * every view (a note never fails a run, so a run without any says nothing of them).
 */
export function diagnosticCounts(diags: Diagnostic[]): string {
  const count = (sev: Severity): number => diags.filter((d) => d.severity === sev).length;
  const n = (k: number, one: string): string => `${k} ${one}${k === 1 ? '' : 's'}`;
  const notes = count('note');
  return `${n(count('error'), 'error')}, ${n(count('warning'), 'warning')}${notes > 0 ? `, ${n(notes, 'note')}` : ''}`;
}

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
  let excerpts = 0;
  const shown = sortDiagnostics(diags).filter((d) => d.followOn !== true || opts.verbose === true);
  for (const d of shown.slice(0, MAX_RENDERED)) {
    const sev = paint(TONE[d.severity] + BOLD, d.severity);
    const where = d.path === '' ? '' : ` [${escapeUnsafe(cut(d.path, 200))}]`;
    const at = d.line > 0 ? `${escapeUnsafe(d.file)}:${d.line}:${d.col}` : escapeUnsafe(d.file);
    out.push(`${paint(BOLD, at)}: ${sev} ${d.code}: ${escapeUnsafe(cut(d.message, MAX_MESSAGE))}${where}`);
    // A file that is not UTF-8 has no line worth showing.
    const line = excerpts < MAX_EXCERPTS && d.line > 0 && d.code !== 'RCS109' ? linesOf(d.file)?.[d.line - 1] : undefined;
    if (line !== undefined) {
      excerpts++;
      out.push(...caretLines(d, line, (s) => paint(TONE[d.severity], s)));
    }
  }
  if (shown.length > MAX_RENDERED) out.push(`… and ${shown.length - MAX_RENDERED} more (fix these first, or list them all with validate --format json)`);
  if (folded > 0) out.push(`${folded} follow-on error${folded === 1 ? '' : 's'} suppressed: fix the first error in the file and validate again (--verbose shows them all)`);
  if (diags.length > 0) out.push(diagnosticCounts(diags));
  return out.length === 0 ? '' : out.join('\n') + '\n';
}

/**
 * The source line of `d` and a caret under its column, as the text view shows
 * them (no colour): what a report keeps of a failed brand's first error.
 * Undefined when there is no line to show.
 */
export function diagnosticExcerpt(d: Diagnostic, cwd: string): string | undefined {
  if (d.line <= 0 || d.code === 'RCS109') return undefined;
  let line: string | undefined;
  try {
    line = readFileSync(isAbsolute(d.file) ? d.file : resolve(cwd, d.file), 'utf8').split(/\r?\n/)[d.line - 1];
  } catch {
    return undefined;
  }
  return line === undefined ? undefined : caretLines(d, line, (s) => s).join('\n');
}

// `  12 | the line` and `     |     ^` under the column.
function caretLines(d: Diagnostic, line: string, paint: (s: string) => string): [string, string] {
  const { text, caretAt } = excerpt(line, d.col - 1);
  const gutter = String(d.line).padStart(4);
  // Tabs keep their width under the caret so it lines up in a terminal.
  const pad = text.slice(0, caretAt).replace(/[^\t]/g, ' ');
  return [`${gutter} | ${text}`, `${' '.repeat(gutter.length)} | ${pad}${paint('^')}`];
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * A window of at most EXCERPT_WIDTH characters of `line` around column `col`
 * (0-based), escaped for the terminal, and where the caret goes in it.
 */
export function excerpt(line: string, col: number): { text: string; caretAt: number } {
  const at = Math.min(Math.max(0, col), line.length);
  let start = 0;
  let end = line.length;
  if (line.length > EXCERPT_WIDTH) {
    start = Math.max(0, Math.min(at - Math.floor(EXCERPT_WIDTH / 2), line.length - EXCERPT_WIDTH));
    end = start + EXCERPT_WIDTH;
  }
  const before = (start > 0 ? '…' : '') + escapeUnsafe(line.slice(start, at), { keepTabs: true });
  const rest = escapeUnsafe(line.slice(at, end), { keepTabs: true }) + (end < line.length ? '…' : '');
  return { text: before + rest, caretAt: before.length };
}
