// A create re-checks, before it is sent, that nothing of its name exists: the
// plan may be minutes old, and another process may have created it since.
// Generic over the kinds that declare `named`.
//
// The re-check costs O(1) list reads per kind per apply, not one per batch of
// creates (docs/concurrency.md, Across machines: detection):
// - the first create of a kind reads the kind's list (after the lock and the
//   plan), and the creates after it are checked against that read while it is
//   younger than `RECHECK_WINDOW_MS`;
// - once the read is older than half the window, a new one is started in the
//   background; the creates go on with the last read until it is replaced, and
//   only wait for a read when the last one is older than the whole window;
// - a name the read shows is a refusal only once a read started after the
//   create was ready shows it too, so a refusal never rests on an older read
//   (one taken before a delete this run made, say).
// An acceptance may thus rest on a read up to one window old: a name another
// process creates inside that window is not refused here, and the create makes
// a second one. Verification's list read after the run catches it (created by
// someone else during this run, two of one name: `--dedupe`), so the apply
// still fails rather than reporting success.

import type { BrandRef, RcsClient } from '../api/index.js';
import type { KindName } from '../core/step.js';
import { RcsctlError } from '../errors.js';
import { kindByName, isNamed } from '../kinds/index.js';

/**
 * How old a list read may be and still clear a create (*chosen*: 5 s). While
 * creates keep coming, a kind's list is read about once every half window,
 * whatever their number; a name someone else makes less than a window before
 * our create of it is left to verification. See docs/decisions.md, "The create
 * re-check reads once per window".
 */
export const RECHECK_WINDOW_MS = 5_000;

/** Names of one kind as the service lists them now, by name → ids. */
type NameIndex = Map<string, string[]>;

/** One re-checker per run (it holds the list reads, in flight and done). */
export interface AbsenceCheck {
  /** Throws E_APPLY_CONFLICT when an object of `kind` named `name` exists now. */
  assertAbsent(kind: KindName, name: string, address: string): Promise<void>;
}

/** How the re-check keeps its reads (the tests shorten the window and drive the clock). */
export interface AbsenceCheckOptions {
  /** How old a read may be and still clear a create (default `RECHECK_WINDOW_MS`). */
  windowMs?: number;
  /** A monotonic clock in milliseconds (default `performance.now`). */
  now?: () => number;
}

/** A list read and when it was started. */
interface Read<T> {
  startedAt: number;
  value: T;
}

/** One kind's reads: the newest done, and the newest in flight. */
interface KindReads {
  done?: Read<NameIndex>;
  pending?: Read<Promise<NameIndex>>;
}

/** A re-checker for one brand. */
export function absenceCheck(client: RcsClient, brand: BrandRef, opts: AbsenceCheckOptions = {}): AbsenceCheck {
  const windowMs = opts.windowMs ?? RECHECK_WINDOW_MS;
  const now = opts.now ?? (() => performance.now());
  const kinds = new Map<KindName, KindReads>();

  const start = (kind: KindName, reads: KindReads): Promise<NameIndex> => {
    const startedAt = now();
    const value = readNames(client, brand, kind).then((index) => {
      if (reads.done === undefined || reads.done.startedAt <= startedAt) reads.done = { startedAt, value: index };
      return index;
    });
    const entry = { startedAt, value };
    reads.pending = entry;
    // A failed read is forgotten: the next create starts another.
    const forget = (): void => {
      if (reads.pending === entry) delete reads.pending;
    };
    value.then(forget, forget);
    return value;
  };

  /** A read no older than the window: the last one done, else the one in flight, else a new one. */
  const recent = (kind: KindName, reads: KindReads, t: number): NameIndex | Promise<NameIndex> => {
    const { done, pending } = reads;
    if (done !== undefined && t - done.startedAt <= windowMs) {
      // Past half the window, the next read is started without waiting for it.
      if (t - done.startedAt > windowMs / 2 && (pending === undefined || pending.startedAt <= done.startedAt)) start(kind, reads).catch(() => undefined);
      return done.value;
    }
    if (pending !== undefined && t - pending.startedAt <= windowMs) return pending.value;
    return start(kind, reads);
  };

  return {
    async assertAbsent(kind, name, address) {
      let reads = kinds.get(kind);
      if (reads === undefined) kinds.set(kind, (reads = {}));
      const t = now();
      if (!holds(await recent(kind, reads, t), name)) return;
      // Refuse only on a read started after this create was ready.
      const fresh = reads.pending !== undefined && reads.pending.startedAt >= t ? reads.pending.value : start(kind, reads);
      const ids = (await fresh).get(name);
      if (ids === undefined || ids.length === 0) return;
      throw new RcsctlError(
        'E_APPLY_CONFLICT',
        `${withArticle(kindByName(kind).label)} named "${name}" now exists (${ids.join(', ')}), made since the plan by someone else; not created again. Run plan to see the brand as it is now`,
        { address, ids },
      );
    },
  };
}

function holds(index: NameIndex, name: string): boolean {
  return (index.get(name)?.length ?? 0) > 0;
}

async function readNames(client: RcsClient, brand: BrandRef, kind: KindName): Promise<NameIndex> {
  const k = kindByName(kind);
  if (!isNamed(k)) throw new Error(`kind "${kind}" is not identified by name: nothing to re-check`);
  const listing = k.named;
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
