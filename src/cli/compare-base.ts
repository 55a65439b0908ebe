// `plan --compare-to DIR`: load the base's manifests (a checkout of the target
// branch) and split each planned brand's steps into the change's and those
// that undo changes made outside rcsctl (src/plan/compare.ts). The base is
// planned against the live state the plan read: no request more.

import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { RcsctlError } from '../errors.js';
import { loadManifests } from '../manifest/index.js';
import type { DesiredBrand, Diagnostic } from '../manifest/types.js';
import { buildPlan } from '../plan/build-plan.js';
import { baseFailed, compareWithBase } from '../plan/compare.js';
import { isFailed, type BrandOutcome } from '../plan/plan-brands.js';
import type { PlanOptions } from '../kinds/resource-kind.js';
import type { CommandContext } from './context.js';
import { rootOption } from './options.js';
import { credentialsInPlay, protectSensitive } from './secrets.js';

/**
 * Mark the steps of every planned brand of `outcomes` with their origin,
 * against the manifests under `dir`; give the brands the base declares and
 * `declared` (every brand the change's manifests declare) does not: the
 * change removed their manifests.
 */
export async function compareToBase(ctx: CommandContext, dir: string, outcomes: BrandOutcome[], plan: PlanOptions, declared: readonly string[] = []): Promise<DesiredBrand[]> {
  const { io } = ctx;
  const abs = checkBaseDir(ctx, dir);
  const base = await loadManifests([abs], { env: io.env, cwd: io.cwd, credentials: credentialsInPlay(ctx), ...rootOption(ctx) });
  protectSensitive(ctx, base.sensitive);
  // An empty base (the change adds the first brands) declares no brand; any other error is reported per brand.
  const errors = base.diagnostics.filter((d) => d.severity === 'error' && d.code !== 'RCS108');
  const owned = new Map<string, Diagnostic[]>();
  const files = new Map<string, string[]>();
  for (const b of base.brands) for (const f of b.manifestFiles) files.set(f, [...(files.get(f) ?? []), b.brandId]);
  for (const s of base.skipped) files.set(s.file, [...(files.get(s.file) ?? []), s.brandId]);
  const unowned = errors.filter((d) => !files.has(d.file));
  for (const d of errors) for (const id of files.get(d.file) ?? []) owned.set(id, [...(owned.get(id) ?? []), d]);
  const skipped = new Set(base.skipped.map((s) => s.brandId));
  for (const o of outcomes) {
    if (isFailed(o)) continue;
    const id = o.plan.brandId;
    const first = unowned[0] ?? owned.get(id)?.[0];
    if (first !== undefined) {
      baseFailed(o.plan, `the base's manifests have errors (${first.file}${first.line > 0 ? `:${first.line}` : ''}: ${first.code} ${first.message})`);
      continue;
    }
    const desired = base.brands.find((b) => b.brandId === id);
    if (desired === undefined) {
      if (skipped.has(id)) baseFailed(o.plan, "the base's manifests of this brand could not be read");
      else compareWithBase(o.plan, undefined);
      continue;
    }
    try {
      compareWithBase(o.plan, buildPlan(desired, o.live, plan));
    } catch (err) {
      baseFailed(o.plan, `the base could not be planned (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  const now = new Set(declared);
  return base.brands.filter((b) => !now.has(b.brandId));
}

/** The base directory, absolute; refused before any request when it is not a directory. */
export function checkBaseDir(ctx: CommandContext, dir: string): string {
  const abs = resolve(ctx.io.cwd, dir);
  if (!isDirectory(abs)) throw new RcsctlError('E_USAGE', `--compare-to ${dir}: no such directory (give the base's manifests: a checkout of the target branch, as docs/ci.md shows)`);
  return abs;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
