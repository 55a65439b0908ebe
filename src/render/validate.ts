// The views of `rcsctl validate` besides text: Markdown for a pull-request
// comment, JUnit XML for CI test views (one suite per manifest file, one case
// per diagnostic; a file without any is one passing case).

import type { Diagnostic, Severity } from '../manifest/types.js';
import { cell } from '../util/markdown.js';
import { xmlAttr, xmlText } from '../util/xml.js';

/** What validate found, for any view. */
export interface ValidateResult {
  ok: boolean;
  errors: number;
  warnings: number;
  /** Notes: shown, never failing (not even under --strict). */
  notes: number;
  diagnostics: Diagnostic[];
  /** Every manifest file read, so files without diagnostics are shown too. */
  files: string[];
}

const ICON: Record<Severity, string> = { error: '❌', warning: '⚠️', note: 'ℹ️' };

function where(d: Diagnostic): string {
  return d.line > 0 ? `${d.file}:${d.line}:${d.col}` : d.file;
}

/** Markdown: a verdict, then a table of diagnostics. */
export function renderValidateMarkdown(r: ValidateResult): string {
  const out = ['## rcsctl validate', ''];
  const notes = r.notes > 0 ? `, ${r.notes} note${r.notes === 1 ? '' : 's'}` : '';
  out.push(r.ok ? `**Valid**: ${r.files.length} manifest file${r.files.length === 1 ? '' : 's'}, ${r.warnings} warning${r.warnings === 1 ? '' : 's'}${notes}.` : `**Invalid**: ${r.errors} error${r.errors === 1 ? '' : 's'}, ${r.warnings} warning${r.warnings === 1 ? '' : 's'}${notes}.`);
  if (r.diagnostics.length > 0) {
    out.push('', '| | Code | Where | Field | Message |', '|---|---|---|---|---|');
    for (const d of r.diagnostics) {
      out.push(`| ${ICON[d.severity]} | ${d.code} | \`${cell(where(d))}\` | \`${cell(d.path || '/')}\` | ${cell(d.message)} |`);
    }
  }
  return out.join('\n') + '\n';
}

/** JUnit XML: errors fail their case; warnings fail only under `strict`; notes never. */
export function renderValidateJunit(r: ValidateResult, opts: { strict: boolean; now?: Date }): string {
  const timestamp = (opts.now ?? new Date()).toISOString().slice(0, 19);
  const byFile = new Map<string, Diagnostic[]>(r.files.map((f) => [f, []]));
  for (const d of r.diagnostics) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
  const fails = (d: Diagnostic): boolean => d.severity === 'error' || (d.severity === 'warning' && opts.strict);
  const cases = [...byFile.values()].reduce((n, ds) => n + Math.max(1, ds.length), 0);
  const failures = r.diagnostics.filter(fails).length;
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="rcsctl validate" tests="${cases}" failures="${failures}" errors="0" timestamp="${timestamp}">`];
  for (const [file, ds] of byFile) {
    out.push(`  <testsuite name="${xmlAttr(file)}" tests="${Math.max(1, ds.length)}" failures="${ds.filter(fails).length}" errors="0" skipped="0" timestamp="${timestamp}">`);
    if (ds.length === 0) out.push(`    <testcase classname="${xmlAttr(file)}" name="valid"/>`);
    for (const d of ds) {
      const head = `    <testcase classname="${xmlAttr(file)}" name="${xmlAttr(`${d.code} ${where(d)} ${d.path || '/'}`)}"`;
      if (fails(d)) {
        out.push(`${head}>`, `      <failure message="${xmlAttr(d.message)}" type="${xmlAttr(d.code)}">${xmlText(`${d.severity} ${d.code} at ${where(d)} (${d.path || '/'}): ${d.message}`)}</failure>`, '    </testcase>');
      } else {
        out.push(`${head}>`, `      <system-out>${xmlText(`${d.severity} ${d.code}: ${d.message}`)}</system-out>`, '    </testcase>');
      }
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}
