// What the live cache keeps of layouts, and when it serves it: a layout in
// full while the layout list's updateDate for it holds (every modification
// moves it), so a warm plan reads the list alone.

import type { Layout } from '../../api/layouts.js';
import { isListedVersion } from '../cache-trust.js';
import { cachePart, type LiveCache } from '../live-cache.js';

const DETAILS = cachePart<Layout>('layouts');

/** The cached layout, when it is the version the list shows (its id and updateDate). */
export function cachedLayout(cache: LiveCache, brandId: string, listed: { layoutId: string; updateDate: string }): Layout | undefined {
  const kept = cache.get(brandId, DETAILS, listed.layoutId);
  return kept !== undefined && isListedVersion(kept, kept.layoutId, listed, listed.layoutId) ? kept : undefined;
}

/** Keep a layout just read. */
export function cacheLayout(cache: LiveCache, brandId: string, layout: Layout): void {
  cache.set(brandId, DETAILS, layout.layoutId, layout);
}
