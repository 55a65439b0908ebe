// The `files:` section: image files by handle, read, checked and hashed; lint
// warns about a file no auto-reply body uses.

import type { KindManifest } from '../manifest-section.js';
import { schema } from './schema.js';
import type { DesiredFile } from './types.js';

/** The files section. */
export const fileManifest: KindManifest = {
  section: 'files',
  order: 10,
  schema,
  async build(raw, ctx) {
    for (const [handle, f] of Object.entries(raw as Record<string, { path: string }>)) {
      if (!ctx.once(handle, 'RCS403', 'file handle')) continue;
      const loaded = await ctx.file(['files', handle, 'path'], f.path, 'autoReplyFile');
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
