// Layouts back to a manifest: each with its name, product and areas (every
// component's options as the service keeps them); a name two layouts share is
// pinned by layoutId.

import type { Layout } from '../../api/layouts.js';
import type { LayoutComposition } from '../../contract/wire.js';
import { assignHandles, shared } from '../handles.js';
import type { KindExporter } from '../resource-kind.js';
import { LAYOUT_AREAS } from './types.js';

/** The `layouts:` section. */
export const layoutExporter: KindExporter<Layout> = {
  section: 'layouts',
  unread: (live) => live.layouts?.unread,
  handles: (layouts) => assignHandles(layouts, (l) => l.layoutId, (l) => l.layoutName, 'layout'),
  entries(layouts, ctx) {
    const sharedNames = shared(layouts.map((l) => l.layoutName));
    const out: Record<string, unknown> = {};
    const handleOf = (l: Layout): string => ctx.handle('layout', l.layoutId) as string;
    for (const l of [...layouts].sort((a, b) => handleOf(a).localeCompare(handleOf(b)))) {
      const entry: Record<string, unknown> = sharedNames.has(l.layoutName) ? { layoutId: l.layoutId } : {};
      entry.layoutName = l.layoutName;
      entry.productCode = l.productCode;
      for (const area of LAYOUT_AREAS) if (l[area].length > 0 || area === 'bodyComposition') entry[area] = l[area].map(component);
      out[handleOf(l)] = entry;
    }
    return out;
  },
};

function component(c: LayoutComposition): Record<string, unknown> {
  if (c.options === undefined || c.options === null) return { componentId: c.componentId };
  const options = { ...c.options };
  // The manifest's schema takes the row count as a number; the service lists some as a string.
  if (typeof options.maxCount === 'string' && /^\d+$/.test(options.maxCount)) options.maxCount = Number(options.maxCount);
  return { componentId: c.componentId, options };
}
