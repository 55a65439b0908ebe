// Every report rcsctl writes validates against its own schema (issue 35 §1:
// `report merge` refused rcsctl's own drift report when a brand profile's
// review gate carried `fields`, which the drift report schema did not allow).
// Generated, not listed by hand: a step of every kind (from the registry) with
// every operation and every gate shape goes through the real builders (the
// drift report's findings come from buildDrift, the plan file from
// makePlanFile), beside a finding of every code (the registry's content and
// state codes) carrying every gate shape; both are validated against
// schemas/drift-report.schema.json and schemas/plan.schema.json.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import formatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { BRAND_FINDING_CODES, CONTENT_FINDING_CODES, finding, type FindingCode } from '../../src/core/finding.js';
import type { Gate, Step } from '../../src/core/step.js';
import { BUILTIN_KINDS } from '../../src/kinds/index.js';
import { emptyBrand } from '../../src/manifest/build-brand.js';
import { makePlanFile, planValidator } from '../../src/plan/plan-file.js';
import type { BrandPlan } from '../../src/plan/types.js';
import { buildDrift, withUnmanagedBrands } from '../../src/report/build-drift.js';
import { unmanagedBrandFinding, type UnmanagedBrand } from '../../src/plan/unmanaged-brands.js';
import { renderDriftJson } from '../../src/render/drift-json.js';
import { packageRoot } from '../../src/util/paths.js';
import { liveBrand } from '../kinds/helpers.js';

/**
 * Every gate shape with every optional field present: the mapped type makes
 * this table fail to compile when Gate gains a variant or a field (the type
 * check of the tests), so the schemas are checked against what Gate can hold.
 */
const GATES: { [T in Gate['type']]: Required<Extract<Gate, { type: T }>> } = {
  none: { type: 'none' },
  blocked: { type: 'blocked', state: '승인대기', reason: 'the brand is under review' },
  review: { type: 'review', review: 'the brand goes back to operator review', withdraws: 'the pending review', fields: ['name', 'profileImage'] },
  destructive: { type: 'destructive' },
  option: { type: 'option', option: 'allow-something', reason: 'the dangerous change', set: true },
};
/** The same, with the optional fields left out where there are any. */
const BARE_GATES: Gate[] = [{ type: 'review', review: 'the room goes to review' }, { type: 'option', option: 'allow-something', reason: 'the dangerous change' }];
const EVERY_GATE: Gate[] = [...Object.values(GATES), ...BARE_GATES];
const OPS: Step['op'][] = ['upload', 'create', 'update', 'link', 'delete'];
const CODES: FindingCode[] = [...CONTENT_FINDING_CODES, ...BRAND_FINDING_CODES, ...BUILTIN_KINDS.flatMap((k) => ('findingCodes' in k && k.findingCodes !== undefined ? [...k.findingCodes] : []))] as FindingCode[];

/** A step of `kind` with `op` and `gate`, shaped as the plan schema's rules want it for `op`. */
function step(kind: string, op: Step['op'], gate: Gate, i: number): Step {
  const address = `${kind}.k${i}`;
  return {
    id: `${address}:${op}`,
    op,
    kind: kind as Step['kind'],
    address,
    name: `name ${i}`,
    gate,
    changes: op === 'update' ? [{ path: 'name', type: 'change', before: 'a', after: 'b' }] : [],
    dependsOn: [],
    ...(op === 'update' || op === 'delete' ? { liveId: `LIVE${i}` } : {}),
    ...(op === 'update' ? { readAs: 'master' } : {}),
    ...(op === 'delete' && i % 2 === 0 ? { declared: true as const } : {}),
    ...(op === 'upload' ? { file: { path: '/tmp/x.png', sha256: '0'.repeat(64), size: 1, fileName: 'x.png', contentType: 'image/png' } } : {}),
    ...(op === 'create' || op === 'update' || op === 'link' ? { request: { any: 'thing' } } : {}),
  } as Step;
}

/** One brand's plan: every kind × operation × gate, and a finding of every code with every gate. */
function everyPlan(): BrandPlan {
  let i = 0;
  const steps = BUILTIN_KINDS.flatMap((k) => OPS.flatMap((op) => EVERY_GATE.map((g) => step(k.name, op, g, i++))));
  const findings = CODES.flatMap((code) => EVERY_GATE.map((gate) => finding(code, 'warning', `autoReply.f${i++}`, 'message', 'action', gate.type === 'none' ? {} : { gate })));
  return { brandId: 'BR.every00001', steps, unmanaged: [], problems: [], findings, fingerprints: {}, snapshots: {} };
}

/** A brand nobody declares (BRAND_UNMANAGED), as plan and drift carry it. */
const UNMANAGED: UnmanagedBrand = { brandId: 'BR.orphan0001', name: 'Old Client', accounts: ['master'], declaredBefore: true, finding: unmanagedBrandFinding('BR.orphan0001', 'Old Client', true) };

const ajv = (formatsModule as unknown as (a: Ajv) => Ajv)(new Ajv({ strict: true, allErrors: true }));
const driftSchema = ajv.compile(JSON.parse(readFileSync(join(packageRoot(), 'schemas', 'drift-report.schema.json'), 'utf8')) as object);

describe('every report rcsctl writes validates against its schema', () => {
  it('covers every kind, finding code and gate shape (else this test says nothing)', () => {
    const plan = everyPlan();
    expect(new Set(plan.steps.map((s) => s.kind))).toEqual(new Set(BUILTIN_KINDS.map((k) => k.name)));
    expect(new Set(plan.findings?.map((f) => f.code))).toEqual(new Set(CODES));
    expect(CODES.length).toBeGreaterThan(CONTENT_FINDING_CODES.length);
  });

  it('the drift report', () => {
    const plan = everyPlan();
    const desired = emptyBrand(plan.brandId, { file: 'brand.yaml', line: 1, column: 1 } as never);
    const live = { ...liveBrand(), brandId: plan.brandId };
    const report = buildDrift([{ desired, live, plan }], new Date('2026-11-27T00:00:00Z'));
    const resources = report.brands[0]?.resources ?? [];
    // The steps' findings came through buildDrift with their gates; every code's findings with every gate are added to a resource of each kind.
    expect(resources.flatMap((r) => r.findings).some((f) => f.gate?.type === 'review' && f.gate.fields !== undefined)).toBe(true);
    for (const [n, r] of resources.entries()) r.findings.push(...(n === 0 ? (plan.findings ?? []) : []));
    withUnmanagedBrands(report, [UNMANAGED, { ...UNMANAGED, brandId: 'BR.nameless01', name: null }]);
    const json = JSON.parse(renderDriftJson(report)) as unknown;
    expect(driftSchema(json), ajv.errorsText(driftSchema.errors?.slice(0, 4))).toBe(true);
  });

  it('the plan file', () => {
    const file = { ...makePlanFile([everyPlan()], 'http://127.0.0.1:8080', new Date('2026-11-27T00:00:00Z')), unmanagedBrands: [UNMANAGED] };
    const validate = planValidator();
    expect(validate(JSON.parse(JSON.stringify(file))), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });
});
