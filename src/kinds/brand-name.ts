// What people call a brand (issue 38, "Names people use"): its name, from the
// kind whose handsets name the brand (`preview.page.namesBrand`: its profile), as the manifests
// declare it or else as it is live; and the folder its manifests declare it in.
// Every view names a brand by these beside its id.

import { dirname } from 'node:path';
import type { DesiredBrand } from '../manifest/types.js';
import type { LiveBrand } from '../core/live.js';
import { KINDS } from './index.js';
import { previewOf } from './resource-kind.js';

/** The brand's name: its home's (profile's) name in the manifests, else live; undefined when neither names one. */
export function brandNameOf(desired: DesiredBrand | undefined, live: LiveBrand | undefined): string | undefined {
  const kind = KINDS.find((k) => previewOf(k)?.page?.namesBrand === true);
  if (kind === undefined) return undefined;
  const d = desired === undefined ? undefined : (kind.desired(desired)[0] as unknown);
  const declared = d === undefined ? undefined : kind.identity.desiredName(d);
  if (d !== undefined && typeof declared === 'string' && declared !== '' && declared !== kind.identity.key(d)) return declared;
  const l = live === undefined ? undefined : (kind.live(live)[0] as unknown);
  const named = l === undefined ? undefined : kind.identity.liveName(l);
  return typeof named === 'string' && named !== '' ? named : undefined;
}

/** The folder of the file that declares the brand (its `brand:` line), as the manifests' paths are shown. */
export function brandFolderOf(desired: Pick<DesiredBrand, 'source'>): string {
  return dirname(desired.source.file);
}

/** A brand's name and folder, as plans and drift reports carry them (absent fields left out). */
export function brandLabelOf(desired: DesiredBrand | undefined, live: LiveBrand | undefined): { name?: string; folder?: string } {
  const name = brandNameOf(desired, live);
  return { ...(name !== undefined ? { name } : {}), ...(desired !== undefined ? { folder: brandFolderOf(desired) } : {}) };
}
