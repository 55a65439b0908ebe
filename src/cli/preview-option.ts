// `--preview DIR` and `--preview-url URL`, shared by `plan` and `show`: the
// before/after site of a plan's changed auto-replies and menus (docs/preview.md).

import { join, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { RcsctlError } from '../errors.js';
import { manifestFilesUnder } from '../manifest/index.js';
import type { PlanToPreview } from '../preview/index.js';
import { shortPath } from '../util/paths.js';
import { VERSION } from '../version.js';
import type { CommandContext } from './context.js';

/** The folder `--preview` writes to when given no folder: the one `rcsctl preview` writes to. */
export const DEFAULT_PREVIEW_DIR = 'preview';

/** Add `--preview [dir]`, `--preview-url <url>` and `--graph`. */
export function previewOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--preview [dir]', `draw each changed auto-reply and menu, live against proposed, as HTML in this folder (default: ${DEFAULT_PREVIEW_DIR})`).preset(DEFAULT_PREVIEW_DIR))
    .option('--preview-url <url>', 'with --format markdown: where the preview will be published (linked from the comment)')
    .option('--graph', 'with --format markdown: add each brand\'s steps and their order as a Mermaid graph', false);
}

/**
 * Refuse a `--preview` folder that holds manifests. The folder is optional, so
 * commander takes the word after `--preview` as the folder: `plan --preview
 * shop` would plan `.` and write the site into the manifests of `shop/`.
 */
export async function checkPreviewDir(ctx: CommandContext, dir: string | undefined): Promise<void> {
  if (dir === undefined) return;
  const found = await manifestFilesUnder(resolve(ctx.io.cwd, dir));
  if (found === 'missing' || found.length === 0) return;
  throw new RcsctlError(
    'E_USAGE',
    `--preview ${dir}: ${dir} holds manifests (${shortPath(ctx.io.cwd, found[0] as string)}); the word after --preview is the folder the preview is written to. ` +
      `Give the manifests first (rcsctl plan ${dir} --preview), or name the folder with = (--preview=${DEFAULT_PREVIEW_DIR} ${dir})`,
  );
}

/** Write the before/after site; each brand's line goes to `notes`. Returns the index path as given, for the Markdown link. */
export async function writePlanPreview(ctx: CommandContext, dir: string, plans: PlanToPreview[], notes: string[]): Promise<string> {
  // The preview's modules load only when a preview is asked for.
  const { writeChangePreviews } = await import('../preview/index.js');
  const written = writeChangePreviews(resolve(ctx.io.cwd, dir), plans, { version: VERSION, redaction: ctx.redaction });
  for (const w of written) notes.push(`Preview of ${w.brandId} (${w.summary}): ${shortPath(ctx.io.cwd, w.path)}\n`);
  // Without a folder the site lands in the working directory, beside the manifests a user commits.
  if (dir === DEFAULT_PREVIEW_DIR) notes.push(`The preview was written to ${DEFAULT_PREVIEW_DIR}/ in the working directory (${resolve(ctx.io.cwd, dir)}); keep it out of git: add ${DEFAULT_PREVIEW_DIR}/ to .gitignore.\n`);
  return join(dir, 'index.html');
}
