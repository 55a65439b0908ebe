// The JUnit XML view of a drift report, so CI test views show drift: one test
// suite per brand, one test case per resource. A resource with an error or
// warning finding fails; info findings go to system-out; a brand that could
// not be compared gets an errored `plan` case, and a brand that failed (403,
// no connection, broken manifests) an errored case named by its stage.

import type { BrandDrift, DriftReport, Finding, ResourceDrift } from '../report/types.js';
import { isDrift } from '../report/build-drift.js';
import { formatChange } from './change.js';
import { requestsLine } from './plan-text.js';
import { xmlAttr as attr, xmlText as text_ } from '../util/xml.js';
import { brandErrorJunit, STOPPED_HEADLINE } from './brand-error.js';
import { partialJunit } from './partial.js';
import { unmanagedBrandsJunit } from './unmanaged-brands.js';

/** Render the report as JUnit XML. */
export function renderDriftJunit(report: DriftReport): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const unmanaged = report.unmanagedBrands?.length ?? 0;
  const failures = report.brands.reduce((n, b) => n + b.resources.filter(failed).length, 0) + unmanaged;
  const partial = report.partial !== undefined ? 1 : 0;
  const stopped = report.error !== undefined ? 1 : 0;
  const errors = report.brands.filter(errored).length + partial + stopped;
  const tests = report.brands.reduce((n, b) => n + b.resources.length + (errored(b) ? 1 : 0), 0) + partial + stopped + unmanaged;
  // JUnit's schema wants a local date-time without zone or fraction; the report's is UTC.
  const timestamp = report.generatedAt.slice(0, 19);
  out.push(`<testsuites name="rcsctl drift" tests="${tests}" failures="${failures}" errors="${errors}" timestamp="${timestamp}">`);
  // JUnit has no place for a run's figures above the suites; a comment keeps them beside the counts, where a person reads them.
  if (report.requests !== undefined) out.push(`  <!-- ${requestsLine(report.requests)} -->`);
  if (report.partial !== undefined) out.push(...partialJunit(report.partial, report.brands.length));
  if (report.error !== undefined) {
    // The run stopped: one suite, `manifests`, with the error that stopped it.
    out.push(`  <testsuite name="manifests" tests="1" failures="0" errors="1" skipped="0" timestamp="${timestamp}">`, ...brandErrorJunit('manifests', report.error, '    ', STOPPED_HEADLINE), '  </testsuite>');
  }
  for (const b of report.brands) {
    const bf = b.resources.filter(failed).length;
    const be = errored(b) ? 1 : 0;
    out.push(`  <testsuite name="${attr(b.brandId)}" tests="${b.resources.length + be}" failures="${bf}" errors="${be}" skipped="0" timestamp="${timestamp}">`);
    // The suite keeps the id (CI views key their history on it); its name, folder and owners are the suite's properties.
    const props = [...(b.name !== undefined ? [['brand.name', b.name]] : []), ...(b.folder !== undefined ? [['brand.folder', b.folder]] : []), ...(b.owners !== undefined ? [['brand.owners', b.owners.join(', ')]] : [])];
    if (props.length > 0) out.push('    <properties>', ...props.map(([k, v]) => `      <property name="${attr(k as string)}" value="${attr(v as string)}"/>`), '    </properties>');
    if (b.error !== undefined) out.push(...brandErrorJunit(b.brandId, b.error));
    else if (be > 0) {
      const text = b.problems.map((p) => `${p.code}: ${p.message}`).join('\n');
      out.push(`    <testcase classname="${attr(b.brandId)}" name="plan">`);
      out.push(`      <error message="${attr(`the brand could not be compared (${b.problems.length} problem${b.problems.length === 1 ? '' : 's'})`)}" type="plan">${text_(text)}</error>`);
      out.push('    </testcase>');
    }
    for (const r of b.resources) out.push(...testcase(b.brandId, r));
    out.push('  </testsuite>');
  }
  out.push(...unmanagedBrandsJunit(report.unmanagedBrands, timestamp));
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}

function errored(b: BrandDrift): boolean {
  return b.problems.length > 0 || b.error !== undefined;
}

function failed(r: ResourceDrift): boolean {
  return r.findings.some(isDrift);
}

function testcase(brandId: string, r: ResourceDrift): string[] {
  const head = `    <testcase classname="${attr(`${brandId}.${r.kind}`)}" name="${attr(r.address)}"`;
  const bad = r.findings.filter(isDrift);
  const info = r.findings.filter((f) => !isDrift(f));
  if (bad.length === 0 && info.length === 0) return [`${head}/>`];
  const lines = [`${head}>`];
  if (bad.length > 0) {
    const first = bad[0] as Finding;
    const message = bad.length === 1 ? first.message : `${bad.length} findings: ${bad.map((f) => f.code).join(', ')}`;
    lines.push(`      <failure message="${attr(message)}" type="${attr(first.code)}">${text_(bad.map(describe).join('\n\n'))}</failure>`);
  }
  if (info.length > 0) lines.push(`      <system-out>${text_(info.map(describe).join('\n\n'))}</system-out>`);
  lines.push('    </testcase>');
  return lines;
}

function describe(f: Finding): string {
  const lines = [`${f.severity} ${f.code}: ${f.message}`];
  for (const c of f.changes ?? []) lines.push(`  ${formatChange(c)}`);
  lines.push(`what to do: ${f.action}`, `see ${f.help}`);
  return lines.join('\n');
}
