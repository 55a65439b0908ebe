// Logos back to a manifest, each image downloaded under images/logos/; a name
// two logos share is pinned by fileId.

import type { Logo } from '../../api/types.js';
import { localName } from '../../util/upload-name.js';
import { assignHandles, shared } from '../handles.js';
import type { KindExporter } from '../resource-kind.js';

/** The `logos:` section. */
export const logoExporter: KindExporter<Logo> = {
  section: 'logos',
  handles: (logos) => assignHandles(logos, (l) => l.fileId, (l) => l.name, 'logo'),
  entries(logos, ctx) {
    const sharedNames = shared(logos.map((l) => l.name));
    const out: Record<string, unknown> = {};
    const handleOf = (l: Logo): string => ctx.handle('logo', l.fileId) as string;
    for (const l of [...logos].sort((a, b) => handleOf(a).localeCompare(handleOf(b)))) {
      const path = ctx.image(l.fileName, l.fileUrl, 'images/logos');
      const entry: Record<string, unknown> = { name: l.name };
      if (l.description !== null && l.description !== '') entry.description = l.description;
      entry.path = path;
      out[handleOf(l)] = sharedNames.has(l.name) ? { fileId: l.fileId, ...entry } : entry;
      if (localName(l.fileName).sha12 === undefined) ctx.note(`logo "${l.name}" was not registered by rcsctl; the first plan shows its image as changed (a modification goes to review)`);
    }
    return out;
  },
};
