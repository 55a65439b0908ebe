// Reading a shard's JSON report for `rcsctl report merge`: a drift report or a
// plan, told apart by their fields and checked against their schema, with an
// error naming the file and the first field that is wrong.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import formatsModule from 'ajv-formats';
import { RcsctlError } from '../errors.js';
import { planValidator } from '../plan/plan-file.js';
import type { PlanFile } from '../plan/types.js';
import { packageRoot } from '../util/paths.js';
import type { ShardReport } from './merge.js';
import type { DriftReport } from './types.js';

const addFormats = formatsModule as unknown as (ajv: Ajv) => Ajv;
let driftValidator: ReturnType<Ajv['compile']> | undefined;

function validDrift(): ReturnType<Ajv['compile']> {
  if (driftValidator === undefined) {
    const schema = JSON.parse(readFileSync(join(packageRoot(), 'schemas', 'drift-report.schema.json'), 'utf8')) as object;
    driftValidator = addFormats(new Ajv({ allErrors: false, strict: true })).compile(schema);
  }
  return driftValidator;
}

/** Read `path` (shown as `shown`) as a drift report or a plan; throws E_REPORT naming what is wrong. */
export function readShardReport(path: string, shown: string): ShardReport {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : 'not JSON';
    throw new RcsctlError('E_REPORT', `cannot read ${shown} (${code}): give the JSON reports of drift --format json or plan --format json`);
  }
  const rec = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const kind = 'options' in rec && 'summary' in rec ? 'drift' : 'baseUrl' in rec && 'createdAt' in rec ? 'plan' : undefined;
  if (kind === undefined) throw new RcsctlError('E_REPORT', `${shown} is neither a drift report (drift --format json) nor a plan (plan --format json)`);
  const validate = kind === 'drift' ? validDrift() : planValidator();
  if (!validate(raw)) {
    const first = validate.errors?.[0];
    throw new RcsctlError('E_REPORT', `${shown} is not a valid ${kind} report: ${first?.instancePath || '/'} ${first?.message ?? 'is invalid'}`);
  }
  return kind === 'drift' ? { kind, file: shown, report: raw as DriftReport } : { kind, file: shown, report: stripSummaries(raw as PlanFile) };
}

/** `plan --format json` adds a summary per brand and one of them all; the plan file itself has none. */
function stripSummaries(file: PlanFile): PlanFile {
  const withoutSummary = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'summary')) as T;
  return { ...withoutSummary(file), brands: file.brands.map(withoutSummary) };
}
