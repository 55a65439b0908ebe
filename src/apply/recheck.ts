// A create re-checks, right before it is sent, that nothing of its name exists:
// the plan may be minutes old, and another process may have created it since.
// Concurrent creates of one kind share one list read, so a hundred creates at
// concurrency 8 cost a handful of list reads, each started after the creates
// waiting on it were ready to send. Generic over the kinds that declare `named`.

import type { BrandRef, RcsClient } from '../api/index.js';
import type { KindName } from '../core/step.js';
import { RcsctlError } from '../errors.js';
import { kindByName } from '../kinds/index.js';

/** Names of one kind as the service lists them now, by name → ids. */
type NameIndex = Map<string, string[]>;

/** One re-checker per run (it holds the list reads in flight). */
export interface AbsenceCheck {
  /** Throws E_APPLY_CONFLICT when an object of `kind` named `name` exists now. */
  assertAbsent(kind: KindName, name: string, address: string): Promise<void>;
}

/** A re-checker for one brand. */
export function absenceCheck(client: RcsClient, brand: BrandRef): AbsenceCheck {
  const inFlight = new Map<KindName, Promise<NameIndex>>();
  const read = (kind: KindName): Promise<NameIndex> => {
    let p = inFlight.get(kind);
    if (p === undefined) {
      p = readNames(client, brand, kind).finally(() => inFlight.delete(kind));
      inFlight.set(kind, p);
    }
    return p;
  };
  return {
    async assertAbsent(kind, name, address) {
      const ids = (await read(kind)).get(name);
      if (ids === undefined || ids.length === 0) return;
      throw new RcsctlError(
        'E_APPLY_CONFLICT',
        `${withArticle(kindByName(kind).label)} named "${name}" now exists (${ids.join(', ')}), made since the plan by someone else; not created again. Run plan to see the brand as it is now`,
        { address, ids },
      );
    },
  };
}

async function readNames(client: RcsClient, brand: BrandRef, kind: KindName): Promise<NameIndex> {
  const listing = kindByName(kind).named;
  if (listing === undefined) throw new Error(`kind "${kind}" is not identified by name: nothing to re-check`);
  const out: NameIndex = new Map();
  for (const item of await listing.list(client, brand)) {
    const { id, name } = listing.listed(item);
    out.set(name, [...(out.get(name) ?? []), id]);
  }
  return out;
}

/** `an auto-reply`, `a logo`. */
function withArticle(label: string): string {
  return `${/^[aeiou]/i.test(label) ? 'an' : 'a'} ${label}`;
}
