// Layouts and the service: reading the list and each layout in full (from the
// live cache while the list's updateDate holds: cache.ts), with the
// components, product rules and samples the checks need (read once for every
// brand planned at once, through the client's catalogues); re-reading by id;
// the apply handlers and the codes they treat as "already as asked".
//
// A plan reads a brand's layouts when its manifests declare one, prune them or
// give the brand key (an agency's: the service lists layouts to agencies
// alone), so a layout made in the console is found on a brand that declares
// none; a brand without a key (a master's or manager's) costs no request.
// Export always reads them (docs/decisions.md, "Layouts").

import type { BrandRef, RcsClient } from '../../api/index.js';
import { isServiceError } from '../../api/index.js';
import type { Layout, LayoutSummary } from '../../api/layouts.js';
import { ERRORS } from '../../contract/codes.js';
import type { LayoutComponent, LayoutRequest, LayoutRule } from '../../contract/wire.js';
import type { LiveBrand } from '../../core/live.js';
import type { PlanProblem, Step } from '../../core/step.js';
import { mapLimit } from '../../util/concurrency.js';
import { collect, createOnce, gone, liveIdOf, requestOf, tolerate } from '../apply-helpers.js';
import type { Handler, KindListing, ListReader, NamedListing, ReadEnv, Reread } from '../resource-kind.js';
import { catalogueStore } from '../service-catalogue.js';
import { cachedLayout, cacheLayout } from './cache.js';
import { layoutProblems } from './rules.js';
import type { DesiredLayout } from './types.js';

/** Service codes apply treats as "already as asked": a layout gone, a modification already made. */
export const LAYOUT_CODES = { gone: ERRORS.invalidLayoutId.code, noChange: ERRORS.noChanges.code, roleRefused: ERRORS.invalidToken.code } as const;

/** The prune entry that makes a plan read a brand's layouts even when it declares none. */
const PRUNE = 'layouts';

/** Why layouts were not read: the service's answer to an account that is not an agency's. */
const ROLE_REFUSED = 'the service lists layouts to agency accounts only (401 61003)';

/** A brand's layouts, and the service's lists a plan checks them against (absent when not read). */
export interface LiveLayouts {
  items: Layout[];
  components?: LayoutComponent[];
  rules?: LayoutRule[];
  sampleIds?: string[];
  /** Why the layouts were not read: the service refused the account's role. */
  unread?: string;
}

/** Reads the list, then every layout in full; the service's lists when the manifests declare layouts. */
export const layoutReader: ListReader<LiveLayouts> = {
  async list(env) {
    const declared = [...(env.desired?.layouts?.values() ?? [])];
    const pruned = env.desired?.prune.includes(PRUNE) === true;
    if (env.desired !== undefined && declared.length === 0 && !pruned && env.brand.key === undefined) return { items: [] };
    let listed: LayoutSummary[];
    try {
      listed = await collect(env.client.layouts.list(env.brand));
    } catch (err) {
      // An account the service refuses layouts to (not an agency): export has none to write, a plan of declared layouts fails at them (layoutsProblems) rather than at an "Invalid token", and a brand read only for its key has none to find. Pruning undeclared layouts with such an account stays an error: the prune could not be done.
      if ((!pruned || declared.length > 0) && isServiceError(err, LAYOUT_CODES.roleRefused)) return { items: [], unread: ROLE_REFUSED };
      throw err;
    }
    const [items, lists] = await Promise.all([mapLimit(listed, env.concurrency, (s) => detail(env, s)), declared.length === 0 ? undefined : catalogues(env, declared)]);
    return { items, ...lists };
  },
};

/** One listed layout in full: from the live cache while the list's updateDate holds (the list's fields, its state among them, win), else read and kept. */
async function detail(env: ReadEnv, listed: LayoutSummary): Promise<Layout> {
  const cached = env.cache === undefined ? undefined : cachedLayout(env.cache, env.brand.id, listed);
  if (cached !== undefined) return { ...cached, ...listed };
  const layout = await env.client.layouts.get(env.brand, listed.layoutId);
  if (env.cache !== undefined) cacheLayout(env.cache, env.brand.id, layout);
  return layout;
}

/** The components, rules and (when a layout names one) samples, through the client's catalogues: one read for every brand at once, kept for the catalogue's TTL (no notification names them). */
async function catalogues(env: ReadEnv, declared: DesiredLayout[]): Promise<Omit<LiveLayouts, 'items'>> {
  const store = catalogueStore(env.client);
  const [components, rules, sampleIds] = await Promise.all([
    store.get('layout.components', () => collect(env.client.layoutComponents.list()), []),
    store.get('layout.rules', () => env.client.layouts.rules(), []),
    declared.some((d) => d.sampleLayoutId !== undefined) ? store.get('layout.samples', async () => (await collect(env.client.layouts.samples())).map((s) => s.sampleLayoutId), []) : undefined,
  ]);
  return { components, rules, ...(sampleIds !== undefined ? { sampleIds } : {}) };
}

/** Every desired layout's problems against the lists the reader brought. */
export function layoutsProblems(desired: DesiredLayout[], live: LiveBrand): PlanProblem[] {
  const section = live.layouts;
  if (section === undefined) return [];
  const first = desired[0];
  if (section.unread !== undefined && first !== undefined) {
    return [{ code: 'LAYOUT_ACCOUNT', address: `layout.${first.handle}`, file: first.source.file, line: first.source.line, message: `${first.source.file}:${first.source.line}:${first.source.col}: ${section.unread}: plan and apply layouts with an agency account, sending the brand key (brand.key)` }];
  }
  return desired.flatMap((d) => layoutProblems(d, section));
}

/** The layout list, as verification reads it after apply (a deleted layout is absent from it). */
export const layoutList: KindListing<LayoutSummary> = {
  list: (client, brand) => collect(client.layouts.list(brand)),
  id: (l) => l.layoutId,
};

/** Layouts are found by name, which the service does not keep unique. */
export const layoutNamed: NamedListing<DesiredLayout, Layout, LayoutSummary> = {
  plural: 'layouts',
  list: layoutList.list,
  listed: (l) => ({ id: l.layoutId, name: l.layoutName, updateDate: l.updateDate, registerDate: l.registerDate }),
  claimedName: (d) => (d.layoutId === undefined ? d.layoutName : undefined),
};

/** One layout again. */
export async function rereadLayout(client: RcsClient, brand: BrandRef, id: string): Promise<Reread<Layout> | undefined> {
  const layout = await client.layouts.get(brand, id).catch(gone(LAYOUT_CODES.gone));
  return layout === undefined ? undefined : { live: layout, ctx: { liveName: () => undefined } };
}

/** Layouts a saved plan would create that exist now, by name. */
export async function layoutsCreatedSince(client: RcsClient, brand: BrandRef, creates: Step[]): Promise<{ address: string; how: string }[]> {
  const names = new Map(creates.map((s) => [s.name, s.address]));
  const out: { address: string; how: string }[] = [];
  for await (const l of client.layouts.list(brand)) {
    const address = names.get(l.layoutName);
    if (address !== undefined) out.push({ address, how: `now exists (${l.layoutId})` });
  }
  return out;
}

/** The layout handlers: a create read back by name after a lost answer, an identical modification and a gone layout taken as done. */
export const layoutHandlers: Partial<Record<Step['op'], Handler>> = {
  create: async (step, env) => {
    const req = requestOf<LayoutRequest>(step);
    await env.absence?.assertAbsent('layout', req.layoutName, step.address);
    return createOnce(
      async () => (await env.client.layouts.create(env.brand, req)).layoutId,
      async () => {
        for await (const l of env.client.layouts.list(env.brand)) if (l.layoutName === req.layoutName) return l.layoutId;
        return undefined;
      },
    );
  },
  update: async (step, env) => {
    await tolerate(env.client.layouts.update(env.brand, liveIdOf(step), requestOf<LayoutRequest>(step)), [LAYOUT_CODES.noChange]);
    return {};
  },
  delete: async (step, env) => {
    await tolerate(env.client.layouts.delete(env.brand, liveIdOf(step), step.name), [LAYOUT_CODES.gone]);
    return {};
  },
};
