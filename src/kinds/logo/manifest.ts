// The `logos:` section: logos by handle with their image; lint refuses
// duplicate names and duplicate pinned fileIds.

import type { FileUse } from '../../manifest/local-files.js';
import { LOGO } from '../../spec/limits.js';
import type { KindManifest } from '../manifest-section.js';
import { schema } from './schema.js';
import type { DesiredLogo } from './types.js';

/** A logo image: the service takes one size only. */
export const LOGO_IMAGE: FileUse = {
  extensions: LOGO.extensions,
  maxBytes: LOGO.maxBytes,
  image: true,
  label: 'logo',
  dimensions: (width, height) => (width === LOGO.width && height === LOGO.height ? undefined : `the service takes ${LOGO.width}x${LOGO.height} only`),
};

/** The logos section. */
export const logoManifest: KindManifest = {
  section: 'logos',
  order: 30,
  schema,
  async build(raw, ctx) {
    for (const [handle, l] of Object.entries(raw as Record<string, { name: string; description?: string; path: string; fileId?: string }>)) {
      if (!ctx.once(handle, 'RCS403', 'logo handle')) continue;
      const loaded = await ctx.file(['logos', handle, 'path'], l.path, LOGO_IMAGE);
      if (loaded === undefined) continue;
      const d: DesiredLogo = {
        handle,
        name: l.name,
        file: loaded,
        source: ctx.locationOf(['logos', handle]),
        ...(l.fileId !== undefined ? { fileId: l.fileId } : {}),
        ...(l.description !== undefined ? { description: l.description } : {}),
      };
      ctx.add(handle, d);
    }
  },
  lint(ctx) {
    const names = new Map<string, string>();
    const ids = new Map<string, string>();
    for (const [handle, l] of ctx.brand.logos) {
      const src = ctx.srcOf(l);
      if (src === undefined) continue;
      const prior = names.get(l.name);
      if (prior !== undefined) ctx.diag(src, 'RCS504', ['logos', handle, 'name'], `logo name "${l.name}" is also used by "${prior}"; names identify logos, so they must be unique`);
      else names.set(l.name, handle);
      if (l.fileId !== undefined) {
        const priorId = ids.get(l.fileId);
        if (priorId !== undefined) ctx.diag(src, 'RCS509', ['logos', handle, 'fileId'], `logo fileId ${l.fileId} is also pinned by "${priorId}"`);
        else ids.set(l.fileId, handle);
      }
    }
  },
};
