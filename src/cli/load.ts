// Loading manifests for the commands that talk to the service: diagnostics to
// stderr, and an error when any is fatal, before a single request goes out.

import { dirname } from 'node:path';
import { RcsctlError } from '../errors.js';
import { cacheDirFor } from '../util/cache-dir.js';
import { diagnosticExcerpt, hasErrors, loadManifests, renderDiagnostics } from '../manifest/index.js';
import type { PolicyRule } from '../manifest/policy.js';
import type { SourceDoc } from '../manifest/source.js';
import type { BrandError } from '../plan/brand-error.js';
import type { DesiredBrand, Diagnostic } from '../manifest/types.js';
import { failedBrand, type FailedBrand } from '../plan/plan-brands.js';
import { inShard, missingBrandsMessage, type Shard } from '../plan/shard.js';
import type { CommandContext } from './context.js';
import type { ConnectOptions } from './connect.js';
import { credentialsInPlay, protectSensitive } from './secrets.js';
import { rootOption } from './options.js';

/** Load `paths`, print diagnostics, and return the brands; any error stops (emulator --brands-from seeds all or nothing). */
export async function loadOrFail(ctx: CommandContext, paths: string[]): Promise<DesiredBrand[]> {
  const { io } = ctx;
  const result = await loadManifests(paths, { env: io.env, cwd: io.cwd, credentials: credentialsInPlay(ctx), ...rootOption(ctx) });
  protectSensitive(ctx, result.sensitive);
  if (result.diagnostics.length > 0) io.stderr.write(renderDiagnostics(result.diagnostics, { color: ctx.globals().color, cwd: io.cwd, verbose: ctx.globals().verbose === true }));
  if (hasErrors(result.diagnostics)) {
    const n = result.diagnostics.filter((d) => d.severity === 'error').length;
    throw new RcsctlError('E_MANIFEST', `the manifests have ${n} error${n === 1 ? '' : 's'}; nothing was sent`);
  }
  if (result.brands.length === 0) throw new RcsctlError('E_NO_BRAND', `the manifests in ${paths.join(', ')} declare no brand`);
  return result.brands.sort((a, b) => a.brandId.localeCompare(b.brandId));
}

/** What `connect` needs to know of the loaded brands: `--sandbox` seeds each one its seed lacks. */
export function declaredBy(brands: DesiredBrand[], shard?: Shard): ConnectOptions {
  const declared = brands.map((b) => (b.brandKey !== undefined ? { brandId: b.brandId, brandKey: b.brandKey } : { brandId: b.brandId }));
  // The other shards of the set share the account's rate limit (docs/concurrency.md).
  return shard === undefined ? { declared } : { declared, peers: shard.count };
}

/** The brands to work on, and those whose manifests failed (each reported on its own). */
export interface LoadedBrands {
  brands: DesiredBrand[];
  failed: FailedBrand[];
  /** Every brand id the paths declare, sorted, before any selection: what `--shard` splits. */
  all: string[];
  /** The policy rules among the paths (docs/policies.md). */
  policies?: PolicyRule[];
  /** Each brand's documents, composed and interpolated (the policy rules read them). */
  docs?: Map<string, SourceDoc[]>;
}

/** Which brands a command works on. */
export interface BrandSelection {
  /** Only these brands (`--brand`, repeatable); all when empty or absent. */
  brand?: string[];
  /** Only the brands of this shard (`--shard i/n`). */
  shard?: Shard;
}

/** What loadBrands gives a command that also shows diagnostics (preview): the selection's. */
export interface LoadedWithDiagnostics extends LoadedBrands {
  diagnostics: Diagnostic[];
}

/**
 * The run stops before any request: manifest errors that belong to no brand
 * (docs/diagnostics.md, "Which brand a broken file fails"). `error` is the
 * first of them as a report shows it; a command with `--output` still writes
 * its report, with that error in it.
 */
export class ManifestsStopped extends RcsctlError {
  constructor(
    message: string,
    /** The first error, with its file, line, column and source excerpt. */
    readonly error: BrandError,
    /** Every brand id the paths declare, sorted: a sharded report of the stopped run still says which shard of which list it was. */
    readonly all: string[],
  ) {
    super('E_MANIFEST', message, { file: error.file, line: error.line, col: error.col });
  }
}

/**
 * Load `paths` for a command that isolates brands: an error in one brand's
 * manifests fails that brand only (it is returned in `failed` and never sent).
 * A file with errors that names no brand is the brand's whose tree it is in
 * (src/manifest/owners.ts); one tied to no brand stops the command before any
 * request (ManifestsStopped). Diagnostics of brands outside the selection are
 * not printed.
 */
export async function loadBrands(ctx: CommandContext, paths: string[], select: BrandSelection & { cache?: boolean; cacheDir?: string }): Promise<LoadedWithDiagnostics> {
  const { io } = ctx;
  const cacheDir = cacheDirFor(select, io.env, io.cwd);
  const result = await loadManifests(paths, { env: io.env, cwd: io.cwd, credentials: credentialsInPlay(ctx), keepDocs: true, ...rootOption(ctx), ...(cacheDir !== undefined ? { cacheDir } : {}) });
  protectSensitive(ctx, result.sensitive);
  const owners = new Map<string, Set<string>>();
  const own = (file: string, brandId: string): void => {
    const set = owners.get(file) ?? new Set<string>();
    set.add(brandId);
    owners.set(file, set);
  };
  for (const b of result.brands) for (const f of b.manifestFiles) own(f, b.brandId);
  for (const s of result.skipped) own(s.file, s.brandId);
  const allIds = [...new Set([...result.brands.map((b) => b.brandId), ...result.skipped.map((s) => s.brandId)])].sort();
  const only = select.brand ?? [];
  const selected = new Set(allIds.filter((id) => (only.length === 0 || only.includes(id)) && inShard(id, select.shard)));

  const shown = result.diagnostics.filter((d) => {
    const ids = d.brands ?? owners.get(d.file);
    return ids === undefined || [...ids].some((id) => selected.has(id));
  });
  if (shown.length > 0) io.stderr.write(renderDiagnostics(shown, { color: ctx.globals().color, cwd: io.cwd, verbose: ctx.globals().verbose === true }));
  const unowned = shown.filter((d) => d.severity === 'error' && !owners.has(d.file));
  if (unowned.length > 0) {
    const n = unowned.filter((d) => d.followOn !== true).length;
    const error: BrandError = { ...manifestError(unowned, io.cwd, belongToNone), hint: 'a file that names no brand, in no brand\'s folder: fix it, or move it into its brand\'s folder (docs/diagnostics.md)' };
    throw new ManifestsStopped(`the manifests have ${belongToNone(n)}; nothing was sent`, error, allIds);
  }
  const missing = only.filter((id) => !selected.has(id));
  if (missing.length > 0) {
    throw new RcsctlError('E_NO_BRAND', missingBrandsMessage(missing, allIds, select.shard));
  }
  if (allIds.length === 0) throw new RcsctlError('E_NO_BRAND', `the manifests in ${paths.join(', ')} declare no brand`);

  const failed: FailedBrand[] = [];
  const brands: DesiredBrand[] = [];
  for (const id of selected) {
    // A finding at a shared base's line fails the brands it names, not every brand that uses the base.
    const errors = shown.filter((d) => d.severity === 'error' && (d.brands !== undefined ? d.brands.includes(id) : owners.get(d.file)?.has(id) === true));
    const desired = result.brands.find((b) => b.brandId === id);
    if (errors.length === 0 && desired !== undefined) {
      brands.push(desired);
      continue;
    }
    const error: BrandError = errors.length === 0 ? { code: 'E_MANIFEST', stage: 'manifest', message: 'its manifests could not be read' } : manifestError(errors, io.cwd);
    const brand = failedBrand(id, { ...error, hint: 'run rcsctl validate on the brand for every diagnostic' }, desired);
    // A brand whose manifests did not build is still named by the folder of the document that declares it.
    const declaring = result.skipped.find((s) => s.brandId === id && s.by === 'document')?.file;
    if (brand.plan.folder === undefined && declaring !== undefined) brand.plan.folder = dirname(declaring);
    failed.push(brand);
  }
  return { brands, failed, all: allIds, diagnostics: shown, policies: result.policies, ...(result.docs !== undefined ? { docs: result.docs } : {}) };
}

function belongToNone(n: number): string {
  return n === 1 ? '1 error that belongs to no brand' : `${n} errors that belong to no brand`;
}

/** The BrandError of manifest `errors`: the first (a root cause, not a follow-on) with its position and source line, and how many more. */
function manifestError(errors: Diagnostic[], cwd: string, lead = (n: number) => `${n} error${n === 1 ? '' : 's'} in its manifests`): BrandError {
  const first = errors.find((d) => d.followOn !== true) ?? (errors[0] as Diagnostic);
  // Follow-on YAML errors are not counted: fixing the first fixes them.
  const n = Math.max(1, errors.filter((d) => d.followOn !== true).length);
  const more = n > 1 ? ` (and ${n - 1} more error${n === 2 ? '' : 's'}, on stderr and in rcsctl validate)` : '';
  const at = first.line > 0 ? `${first.file}:${first.line}:${first.col}` : first.file;
  // A refused credential's line is never copied into a report.
  const excerpt = first.code === 'RCS115' ? undefined : diagnosticExcerpt(first, cwd);
  return {
    code: 'E_MANIFEST',
    stage: 'manifest',
    message: `${lead(n)}: ${at}: ${first.code} ${first.message}${more}`,
    file: first.file,
    ...(first.line > 0 ? { line: first.line, col: first.col } : {}),
    ...(excerpt !== undefined ? { excerpt } : {}),
  };
}
