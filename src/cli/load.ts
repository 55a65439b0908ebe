// Loading manifests for the commands that talk to the service: diagnostics to
// stderr, and an error when any is fatal, before a single request goes out.

import { RcsctlError } from '../errors.js';
import { hasErrors, loadManifests, renderDiagnostics } from '../manifest/index.js';
import type { DesiredBrand, Diagnostic } from '../manifest/types.js';
import type { CommandContext } from './context.js';
import type { ConnectOptions } from './connect.js';

/** Load `paths`, print diagnostics, and return the brands (only those of `only`, when it names any). */
export async function loadOrFail(ctx: CommandContext, paths: string[], only: string[] = []): Promise<DesiredBrand[]> {
  return (await loadWithDiagnostics(ctx, paths, only)).brands;
}

/** The same as loadOrFail, and the (non-fatal) diagnostics too. */
export async function loadWithDiagnostics(ctx: CommandContext, paths: string[], only: string[] = []): Promise<{ brands: DesiredBrand[]; diagnostics: Diagnostic[] }> {
  const { io } = ctx;
  const result = await loadManifests(paths, { env: io.env, cwd: io.cwd });
  if (result.diagnostics.length > 0) io.stderr.write(renderDiagnostics(result.diagnostics, { color: ctx.globals().color, cwd: io.cwd, verbose: ctx.globals().verbose === true }));
  if (hasErrors(result.diagnostics)) {
    const n = result.diagnostics.filter((d) => d.severity === 'error').length;
    throw new RcsctlError('E_MANIFEST', `the manifests have ${n} error${n === 1 ? '' : 's'}; nothing was sent`);
  }
  const known = result.brands.map((b) => b.brandId);
  const missing = only.filter((id) => !known.includes(id));
  if (missing.length > 0) {
    throw new RcsctlError('E_NO_BRAND', `no manifest declares brand ${missing.join(', ')} (found: ${known.join(', ') || 'none'})`);
  }
  const brands = only.length === 0 ? result.brands : result.brands.filter((b) => only.includes(b.brandId));
  if (brands.length === 0) throw new RcsctlError('E_NO_BRAND', `the manifests in ${paths.join(', ')} declare no brand`);
  return { brands: brands.sort((a, b) => a.brandId.localeCompare(b.brandId)), diagnostics: result.diagnostics };
}

/** What `connect` needs to know of the loaded brands: `--sandbox` seeds each one its seed lacks. */
export function declaredBy(brands: DesiredBrand[]): ConnectOptions {
  return { declared: brands.map((b) => (b.brandKey !== undefined ? { brandId: b.brandId, brandKey: b.brandKey } : { brandId: b.brandId })) };
}
