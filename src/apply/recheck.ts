// A create re-checks, right before it is sent, that nothing of its name exists:
// the plan may be minutes old, and another process may have created it since.
// Concurrent creates of one kind share one list read, so a hundred creates at
// concurrency 8 cost a handful of list reads, each started after the creates
// waiting on it were ready to send.

import type { BrandRef, RcsClient } from '../api/index.js';
import { RcsctlError } from '../errors.js';
import type { NamedKind } from './interference.js';

/** Names of one kind as the service lists them now, by name → ids. */
type NameIndex = Map<string, string[]>;

/** One re-checker per run (it holds the list reads in flight). */
export interface AbsenceCheck {
  /** Throws E_APPLY_CONFLICT when an object of `kind` named `name` exists now. */
  assertAbsent(kind: NamedKind, name: string, address: string): Promise<void>;
}

/** A re-checker for one brand. */
export function absenceCheck(client: RcsClient, brand: BrandRef): AbsenceCheck {
  const inFlight = new Map<NamedKind, Promise<NameIndex>>();
  const read = (kind: NamedKind): Promise<NameIndex> => {
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
      const label = kind === 'autoReply' ? 'an auto-reply' : 'a logo';
      throw new RcsctlError(
        'E_APPLY_CONFLICT',
        `${label} named "${name}" now exists (${ids.join(', ')}), made since the plan by someone else; not created again. Run plan to see the brand as it is now`,
        { address, ids },
      );
    },
  };
}

async function readNames(client: RcsClient, brand: BrandRef, kind: NamedKind): Promise<NameIndex> {
  const out: NameIndex = new Map();
  const add = (name: string, id: string): void => {
    out.set(name, [...(out.get(name) ?? []), id]);
  };
  if (kind === 'autoReply') for await (const a of client.autoReplies.list(brand)) add(a.autoReplyMsgName, a.autoReplyMsgId);
  else for await (const l of client.logos.list(brand)) add(l.name, l.fileId);
  return out;
}
