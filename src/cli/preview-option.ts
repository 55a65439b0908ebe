// `--preview DIR` and `--preview-url URL`, shared by `plan` and `show`: the
// before/after site of a plan's changed auto-replies and menus (docs/preview.md).

import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { PlanToPreview } from '../preview/index.js';
import { shortPath } from '../util/paths.js';
import { VERSION } from '../version.js';
import type { CommandContext } from './context.js';

/** Add `--preview <dir>`, `--preview-url <url>` and `--graph`. */
export function previewOptions(cmd: Command): Command {
  return cmd
    .option('--preview <dir>', 'draw each changed auto-reply and menu, live against proposed, as HTML in this folder')
    .option('--preview-url <url>', 'with --format markdown: where the preview will be published (linked from the comment)')
    .option('--graph', 'with --format markdown: add each brand\'s steps and their order as a Mermaid graph', false);
}

/** Write the before/after site; each brand's line goes to `notes`. Returns the index path as given, for the Markdown link. */
export async function writePlanPreview(ctx: CommandContext, dir: string, plans: PlanToPreview[], notes: string[]): Promise<string> {
  // The preview's modules load only when a preview is asked for.
  const { writeChangePreviews } = await import('../preview/index.js');
  const written = writeChangePreviews(resolve(ctx.io.cwd, dir), plans, { version: VERSION, redaction: ctx.redaction });
  for (const w of written) notes.push(`Preview of ${w.brandId} (${w.summary}): ${shortPath(ctx.io.cwd, w.path)}\n`);
  return join(dir, 'index.html');
}
