// The `agencyFiles:` section: files by their user-chosen fileId; the mimeType
// must match the file, and lint asks for the brandId (or a room) as prefix.

import { extensionsOf, mimeTypeOf, type FileUse } from '../../manifest/local-files.js';
import { AGENCY_FILE } from '../../spec/limits.js';
import type { KindManifest } from '../manifest-section.js';
import { schema } from './schema.js';
import type { DesiredAgencyFile } from './types.js';

/** An agency message file: the image types the service states by MIME type. */
const AGENCY_FILE_USE: FileUse = { extensions: extensionsOf(AGENCY_FILE.mimeTypes), maxBytes: AGENCY_FILE.maxBytes, image: true, label: 'agency file' };

/** The agency files section. */
export const agencyFileManifest: KindManifest = {
  section: 'agencyFiles',
  order: 50,
  schema,
  async build(raw, ctx) {
    for (const [fileId, a] of Object.entries(raw as Record<string, { path: string; mimeType?: string; usageType?: 'send'; messagebaseId?: string }>)) {
      if (!ctx.once(fileId, 'RCS405', 'agency fileId')) continue;
      const loaded = await ctx.file(['agencyFiles', fileId, 'path'], a.path, AGENCY_FILE_USE);
      if (loaded === undefined) continue;
      const mimeType = a.mimeType ?? loaded.mimeType;
      if (mimeTypeOf(loaded.extension) !== mimeType) {
        ctx.diag('RCS308', ['agencyFiles', fileId, 'mimeType'], `mimeType ${mimeType} does not match "${a.path}" (${loaded.mimeType})`);
        continue;
      }
      const d: DesiredAgencyFile = {
        fileId,
        usageType: 'send',
        mimeType,
        file: loaded,
        source: ctx.locationOf(['agencyFiles', fileId]),
        ...(a.messagebaseId !== undefined ? { messagebaseId: a.messagebaseId } : {}),
      };
      ctx.add(fileId, d);
    }
  },
  lint(ctx) {
    const { brand } = ctx;
    const prefixes = [brand.brandId, ...brand.chatbots.keys()].map((p) => p + '.');
    for (const [fileId, a] of brand.agencyFiles) {
      const src = ctx.srcOf(a);
      if (src !== undefined && !prefixes.some((p) => fileId.startsWith(p))) {
        ctx.diag(src, 'RCS508', ['agencyFiles', fileId], `agency fileId "${fileId}" should read ${brand.brandId}.<code> (or <chatbotId>.<code>) so it stays unique`, { at: 'key' });
      }
    }
  },
};
