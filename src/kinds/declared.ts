// The objects a brand's manifests declare, kind by kind, under the keys the
// manifest gives them (a file's handle, a room's chatbotId): what the graph
// and the preview draw. A kind with no section of its own (a room's menu), or
// whose section is one object (`manifest.single`), gives its desired objects
// under their key.

import type { DesiredBrand } from '../manifest/types.js';
import { desiredSection } from '../manifest/types.js';
import type { AnyKind } from './resource-kind.js';

/** Each object of `kind` the manifests of `brand` declare, with its key, in the order declared. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function declaredObjects(kind: AnyKind, brand: DesiredBrand): [key: string, desired: any][] {
  const section = kind.manifest?.section;
  const map = section === undefined ? undefined : desiredSection(brand, section);
  if (map !== undefined) return [...map.entries()];
  return kind.desired(brand).map((d) => [kind.identity.key(d), d]);
}
