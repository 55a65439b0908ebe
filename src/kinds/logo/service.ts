// Logos and the service: reading the list, re-reading by fileId, and the apply
// handlers with their idempotency codes.

import type { BrandRef, RcsClient } from '../../api/index.js';
import type { Logo } from '../../contract/wire.js';
import type { Step } from '../../core/step.js';
import { collect, createOnce, gone, liveIdOf, readChecked, requestOf, stepFileOf, tolerate } from '../apply-helpers.js';
import type { Handler, KindListing, KindReader, NamedListing, Reread } from '../resource-kind.js';
import type { DesiredLogo } from './types.js';
import { ERRORS } from '../../contract/codes.js';

/** Service codes apply treats as "already as asked". */
export const LOGO_CODES = { gone: ERRORS.invalidFileId.code, noChange: ERRORS.noChanges.code } as const;

/** Reads every logo (the list holds everything rcsctl compares). */
export const logoReader: KindReader<Logo[]> = {
  list: (env) => collect(env.client.logos.list(env.brand)),
};

/** The logo list, as verification reads it after apply: an entry is the whole logo. */
export const logoList: KindListing<Logo> = {
  list: (client, brand) => collect(client.logos.list(brand)),
  id: (l) => l.fileId,
  complete: true,
};

/** Logos are found by name, which the service does not keep unique. */
export const logoNamed: NamedListing<DesiredLogo, Logo> = {
  plural: 'logos',
  list: logoList.list,
  listed: (l) => ({ id: l.fileId, name: l.name, updateDate: l.updateDate, registerDate: l.registerDate }),
  claimedName: (d) => (d.fileId === undefined ? d.name : undefined),
};

/** One logo again. */
export async function rereadLogo(client: RcsClient, brand: BrandRef, id: string): Promise<Reread<Logo> | undefined> {
  const logo = await client.logos.get(brand, id).catch(gone(LOGO_CODES.gone));
  return logo === undefined ? undefined : { live: logo, ctx: { liveName: () => undefined } };
}

/** Logos a saved plan would create that exist now, by name. */
export async function logosCreatedSince(client: RcsClient, brand: BrandRef, creates: Step[]): Promise<{ address: string; how: string }[]> {
  const names = new Map(creates.map((s) => [s.name, s.address]));
  const out: { address: string; how: string }[] = [];
  for await (const logo of client.logos.list(brand)) {
    const address = names.get(logo.name);
    if (address !== undefined) out.push({ address, how: `now exists (${logo.fileId})` });
  }
  return out;
}

/** The logo handlers. */
export const logoHandlers: Partial<Record<Step['op'], Handler>> = {
  create: async (step, env) => {
    const req = requestOf<{ name: string; description?: string }>(step);
    const file = await readChecked(stepFileOf(step));
    await env.absence?.assertAbsent('logo', req.name, step.address);
    return createOnce(
      () => env.client.logos.create(env.brand, { ...req, file }).then((r) => r.fileId),
      async () => {
        for await (const logo of env.client.logos.list(env.brand)) if (logo.name === req.name && logo.fileName === file.fileName) return logo.fileId;
        return undefined;
      },
    );
  },
  update: async (step, env) => {
    const req = requestOf<{ name: string; description?: string }>(step);
    const file = await readChecked(stepFileOf(step));
    await tolerate(env.client.logos.update(env.brand, liveIdOf(step), { ...req, file }), [LOGO_CODES.noChange]);
    return {};
  },
  delete: async (step, env) => {
    await tolerate(env.client.logos.delete(env.brand, liveIdOf(step), step.name), [LOGO_CODES.gone]);
    return {};
  },
};
