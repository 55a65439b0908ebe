// The saved plan (`plan --out`): versioned, checked against
// schemas/plan.schema.json on read, refused when it is from another format
// version, another service or another brand.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Ajv } from 'ajv';
import { RcsctlError } from '../errors.js';
import { KINDS, registryVersion } from '../kinds/index.js';
import { writeOutputFile } from '../util/output-file.js';
import { packageRoot } from '../util/paths.js';
import { cacheDirFor } from '../util/cache-dir.js';
import { MIN_SECRET_LENGTH, Redaction, sealStrings, type KeySource, type Secret } from '../util/redaction.js';
import { loadSealKey, type SealKey } from '../util/seal-key.js';
import { VERSION } from '../version.js';
import { PLAN_FILE_VERSION, type BrandPlan, type PlanFile } from './types.js';

/** The plan file for `plans`, made against `baseUrl`. */
export function makePlanFile(plans: BrandPlan[], baseUrl: string, now: Date = new Date()): PlanFile {
  return { version: PLAN_FILE_VERSION, rcsctlVersion: VERSION, createdAt: now.toISOString(), baseUrl: normaliseBaseUrl(baseUrl), brands: plans };
}

/**
 * Write a plan file atomically. Each secret of `redaction` is sealed as
 * `<sensitive:NAME:KEYID:HMAC>` under `key` (src/util/seal-key.ts; apply
 * --plan takes the value from the environment again and checks it:
 * sensitive-plan.ts), and so is the fingerprint of each live object that
 * holds one (a plain hash of it would let anyone test guesses). The key is
 * asked for only when there is something to seal. The file goes through the
 * redaction as every output file does.
 */
export function writePlanFile(path: string, plan: PlanFile, redaction: Redaction = new Redaction(), key: KeySource = () => loadSealKey(process.env, cacheDirFor({}, process.env, process.cwd()))): void {
  const secrets = redaction.secrets();
  const keyed = { ...plan, brands: plan.brands.map((b) => keyFingerprints(b, secrets, key)) };
  writeOutputFile(path, JSON.stringify(sealStrings(keyed, secrets, key), null, 2) + '\n', redaction);
}

/** `plan` with the fingerprint of each snapshot that holds a secret replaced by its MAC under `key`. */
function keyFingerprints(plan: BrandPlan, secrets: readonly Secret[], key: KeySource): BrandPlan {
  const holds = (v: unknown): boolean => {
    const text = JSON.stringify(v) ?? '';
    return secrets.some((s) => s.value.length >= MIN_SECRET_LENGTH && text.includes(JSON.stringify(s.value).slice(1, -1)));
  };
  const entries = Object.entries(plan.fingerprints);
  if (!entries.some(([address]) => holds(plan.snapshots[address]))) return plan;
  const k = typeof key === 'function' ? key() : key;
  return { ...plan, fingerprints: Object.fromEntries(entries.map(([address, fp]) => [address, holds(plan.snapshots[address]) ? keyedFingerprint(fp, k) : fp])) };
}

/** The fingerprint a saved plan keeps of a live object holding a secret: a MAC of its plain fingerprint. */
export function keyedFingerprint(fingerprint: string, key: SealKey): string {
  return key.mac(`fingerprint\0${fingerprint}`);
}

/** Read and check a plan file; every refusal says why. Without `expect`, the service it was made for is not checked (`rcsctl show`). */
export function readPlanFile(path: string, expect?: { baseUrl: string }): PlanFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new RcsctlError('E_PLAN_FILE', `cannot read plan file ${path}: ${(err as Error).message}`);
  }
  const version = (raw as { version?: unknown } | null)?.version;
  if (version !== PLAN_FILE_VERSION) {
    throw new RcsctlError('E_PLAN_VERSION', `plan file ${path} has format version ${JSON.stringify(version)}; this rcsctl reads version ${PLAN_FILE_VERSION} only. Make a new plan.`);
  }
  const validate = planValidator();
  if (!validate(raw)) {
    const first = validate.errors?.[0];
    throw new RcsctlError('E_PLAN_FILE', `plan file ${path} is not a valid plan: ${first?.instancePath || '/'} ${first?.message ?? ''}`.trim());
  }
  const plan = raw as PlanFile;
  if (expect !== undefined && plan.shortened === true) {
    throw new RcsctlError('E_PLAN_FILE', `plan file ${path} is a view of a plan with its long values shortened (plan --format json), not what apply must send; save the plan with plan --out FILE and apply that`);
  }
  if (expect !== undefined && normaliseBaseUrl(plan.baseUrl) !== normaliseBaseUrl(expect.baseUrl)) {
    throw new RcsctlError('E_PLAN_TARGET', `plan file ${path} was made for ${plan.baseUrl}, not ${normaliseBaseUrl(expect.baseUrl)}; make a new plan against this service`);
  }
  return plan;
}

let cachedValidator: ReturnType<Ajv['compile']> | undefined;
let cachedFor = -1;

/** The compiled validator of schemas/plan.schema.json. */
export function planValidator(): ReturnType<Ajv['compile']> {
  if (cachedValidator === undefined || cachedFor !== registryVersion()) {
    cachedFor = registryVersion();
    const schema = JSON.parse(readFileSync(join(packageRoot(), 'schemas', 'plan.schema.json'), 'utf8')) as { definitions: Record<string, object> };
    // The file lists the kinds rcsctl ships; a program may have registered more.
    schema.definitions.kind = { ...schema.definitions.kind, enum: KINDS.map((k) => k.name) };
    // ajv (about 30 ms to load) only when a plan file is read: `plan --out` writes one without it.
    const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
    cachedValidator = new AjvClass({ allErrors: false, strict: true, strictTypes: false, strictRequired: false }).compile(schema);
  }
  return cachedValidator;
}

/** A base URL without trailing slashes, for comparison. */
export function normaliseBaseUrl(url: string): string {
  return url.replace(/\/+$/, '');
}
