// Usage beside the change: for each step that removes or changes what users
// press (a menu item, a button, a chip), how often they pressed it in the last
// 30 days, from the service's statistics. Each statistics source (a room's
// menu) is read once per run however many steps and brands ask; a read that
// fails leaves those steps without figures and says so once, never failing
// the plan (docs/plan.md, "Usage beside the change").

import type { BrandRef, RcsClient } from '../api/index.js';
import { errorMessage } from '../errors.js';
import { KINDS, isUsageCounted } from '../kinds/index.js';
import type { UsageEntry } from '../kinds/resource-kind.js';
import type { BrandPlan, LiveBrand } from './types.js';

/** The days the figures cover (the service answers at most 31 a query). */
export const USAGE_DAYS = 30;
const DAY_MS = 86_400_000;
const KST_MS = 9 * 3_600_000;

/** The statistics reads of one run, by brand and source: each made once. */
export class UsageReads {
  private readonly reads = new Map<string, Promise<Map<string, number> | undefined>>();
  /** Why figures are missing, once per brand and source. */
  readonly unavailable: string[] = [];

  constructor(
    private readonly client: RcsClient,
    readonly now: Date = new Date(),
  ) {}

  /** Presses by key of `source`, read once; undefined when the read failed. */
  read(brand: BrandRef, source: string, reader: (client: RcsClient, brand: BrandRef, source: string, from: string, to: string) => Promise<Map<string, number>>): Promise<Map<string, number> | undefined> {
    const key = `${brand.id} ${source}`;
    let p = this.reads.get(key);
    if (p === undefined) {
      const { from, to } = usagePeriod(this.now);
      p = reader(this.client, brand, source, from, to).catch((err: unknown) => {
        this.unavailable.push(`${brand.id}: usage statistics of ${source} could not be read (${errorMessage(err)})`);
        return undefined;
      });
      this.reads.set(key, p);
    }
    return p;
  }
}

/** The last USAGE_DAYS service days up to today (yyyymmdd, Korean time). */
export function usagePeriod(now: Date): { from: string; to: string } {
  const day = (ms: number): string => new Date(ms + KST_MS).toISOString().slice(0, 10).replaceAll('-', '');
  return { from: day(now.getTime() - (USAGE_DAYS - 1) * DAY_MS), to: day(now.getTime()) };
}

/** Give each step of `plan` that removes or changes pressed entries its `usage`. */
export async function addUsage(reads: UsageReads, brand: BrandRef, plan: BrandPlan, live: LiveBrand): Promise<void> {
  await Promise.all(
    plan.steps.map(async (step) => {
      if (step.liveId === undefined) return;
      const kind = KINDS.find((k) => k.name === step.kind);
      if (kind === undefined || !isUsageCounted(kind)) return;
      const object = kind.live(live).find((l) => kind.identity.liveId(l) === step.liveId);
      if (object === undefined) return;
      const entries: UsageEntry[] = kind.usage.entries(step, object, live);
      if (entries.length === 0) return;
      const counted = await Promise.all(entries.map(async (e) => ({ e, counts: await reads.read(brand, e.source, kind.usage.read) })));
      // A source that could not be read gives no figure (not a zero); the same label sent from several places is summed.
      const summed = new Map<string, { entry: string; change: 'removed' | 'changed'; pressed: number }>();
      for (const { e, counts } of counted) {
        if (counts === undefined) continue;
        const n = counts.get(e.key) ?? 0;
        const at = `${e.change}\u0000${e.entry}`;
        const row = summed.get(at) ?? { entry: e.entry, change: e.change, pressed: 0 };
        row.pressed += n;
        summed.set(at, row);
      }
      if (summed.size > 0) step.usage = { days: USAGE_DAYS, entries: [...summed.values()] };
    }),
  );
}
