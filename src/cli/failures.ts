// Brands that failed while the others went on, on stderr after everything
// ran, so a CI log shows each one's error and hint.

import type { BrandError } from '../plan/brand-error.js';
import { brandErrorLine } from '../plan/brand-error.js';
import type { FailedBrand } from '../plan/plan-brands.js';
import { makeStyle } from '../render/style.js';
import type { CommandContext } from './context.js';
import { EXIT_ERROR, EXIT_OK, type ExitCode } from './exit-codes.js';

/** `Error: <brand>: <code> (<stage>): <message>` and its hint per failure, then `tail`, on stderr (which redacts them, as every writer is). */
export function writeFailures(ctx: CommandContext, failures: readonly (readonly [string, BrandError])[], tail: string | undefined): void {
  const style = makeStyle(ctx.globals().color);
  const lines = failures.flatMap(([id, e]) => [`Error: ${id}: ${brandErrorLine(e)}`, ...(e.hint !== undefined ? [`  hint: ${e.hint}`] : [])]);
  if (tail !== undefined) lines.push(tail);
  if (lines.length > 0) ctx.io.stderr.write(style.red(lines.join('\n')) + '\n');
}

/**
 * For an offline command (preview, graph): each brand whose manifests failed,
 * after the others' output, and the exit code (1 when any failed).
 */
export function reportLoadFailures(ctx: CommandContext, failed: FailedBrand[], total: number, done: string): ExitCode {
  if (failed.length === 0) return EXIT_OK;
  writeFailures(ctx, failed.map((f) => [f.brandId, f.error] as const), `${failed.length} of ${total} brand${total === 1 ? '' : 's'} failed; the others are ${done}.`);
  return EXIT_ERROR;
}
