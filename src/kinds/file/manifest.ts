// The `files:` section: image files by handle, read, checked and hashed; lint
// warns about a file no auto-reply body uses.

import type { FileUse } from '../../manifest/local-files.js';
import { AUTO_REPLY_FILE } from '../../spec/limits.js';
import type { KindManifest } from '../manifest-section.js';
import { schema } from './schema.js';
import type { DesiredFile } from './types.js';

/** An image an auto-reply shows (uploaded to the auto-reply file endpoint). */
export const AUTO_REPLY_IMAGE: FileUse = { ...AUTO_REPLY_FILE, image: true, label: 'auto-reply image' };

/** The files section. */
export const fileManifest: KindManifest = {
  section: 'files',
  order: 10,
  schema,
  async build(raw, ctx) {
    for (const [handle, f] of Object.entries(raw as Record<string, { path: string }>)) {
      if (!ctx.once(handle, 'RCS403', 'file handle')) continue;
      const loaded = await ctx.file(['files', handle, 'path'], f.path, AUTO_REPLY_IMAGE);
      if (loaded === undefined) continue;
      const d: DesiredFile = { handle, file: loaded, source: ctx.locationOf(['files', handle]) };
      ctx.add(handle, d);
    }
  },
  lint(ctx) {
    const used = new Set<string>();
    for (const a of ctx.brand.autoReplies.values()) {
      for (const value of Object.values(a.body)) if (typeof value !== 'string') used.add(value.file);
    }
    for (const [handle, f] of ctx.brand.files) {
      const src = ctx.srcOf(f);
      if (src !== undefined && !used.has(handle)) ctx.diag(src, 'RCS507', ['files', handle], `file "${handle}" is declared but no auto-reply body uses it`, { at: 'key' });
    }
  },
};
