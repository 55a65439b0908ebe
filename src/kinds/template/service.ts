// Templates and the service: reading (the list, then details from the live
// cache when the list's updateDate is unchanged, then every form the manifests
// or the live templates name, through the client's catalogues), re-reading by
// id, and the apply handlers with their idempotency codes.

import type { BrandRef, RcsClient } from '../../api/index.js';
import type { MessagebaseForm, MessagebaseFormListItem, TemplateBodyItem, TemplateDetail, TemplateListItem } from '../../contract/wire.js';
import type { Step, StepFile } from '../../core/step.js';
import { mapLimit } from '../../util/concurrency.js';
import { collect, createOnce, gone, liveIdOf, requestOf, tolerate, uploadOnce } from '../apply-helpers.js';
import { isListedVersion } from '../cache-trust.js';
import type { LiveCache } from '../live-cache.js';
import { catalogueStore } from '../service-catalogue.js';
import { cachedForm, cachedTemplate, cacheForm, cacheTemplate } from './cache.js';
import type { DetailReader, Handler, HandlerEnv, Reread } from '../resource-kind.js';
import { custTmpltIdOf, type TemplateRequest } from './kind.js';
import { ERRORS } from '../../contract/codes.js';

/** Service codes apply treats as "already as asked". */
export const TEMPLATE_CODES = { gone: ERRORS.invalidMessagebaseId.code, noChange: ERRORS.noChanges.code, notPending: ERRORS.invalidApprovalStatus.code, unknownForm: ERRORS.invalidMessagebaseformId.code } as const;

/** A brand's templates and the forms they are written against (null: the service has no such form). */
export interface LiveTemplates {
  items: TemplateDetail[];
  forms: Map<string, MessagebaseForm | null>;
  /** Every form id the service lists, for "did you mean". */
  formIds: string[];
  /** The service's common messagebase ids, read when the manifests declare auto-replies (their messagebaseId must be one). */
  commonIds?: string[];
}

/** Reads every template, then the forms the manifests and the live templates name. */
export const templateReader: DetailReader<TemplateListItem, TemplateDetail> = {
  items: (env) => {
    // The common messagebase list (asked below when the manifests declare
    // auto-replies) goes out with the lists, not one round trip after them:
    // a warm plan's reads are the lists alone. Its failure is reported where
    // it is awaited, in section().
    if (wantsCommon(env)) formCatalogue(env.client, env.cache).commonIds().catch(() => undefined);
    return env.client.templates.list(env.brand);
  },
  async detail(env, item) {
    const cached = env.cache === undefined ? undefined : cachedTemplate(env.cache, env.brand.id, item.messagebaseId, item.updateDate);
    // The list is fresh: its fields (the state among them) win over a cached detail.
    if (cached !== undefined && isListedVersion(cached, cached.messagebaseId, item, item.messagebaseId)) return { ...cached, ...item };
    const detail = await env.client.templates.get(env.brand, item.messagebaseId);
    if (env.cache !== undefined) cacheTemplate(env.cache, env.brand.id, detail);
    return detail;
  },
  async section(env, _listed, items): Promise<LiveTemplates> {
    const ids = new Set([...(env.desired?.templates.values() ?? [])].map((d) => d.messagebaseformId));
    for (const t of items) ids.add(t.messagebaseformId);
    const catalogue = formCatalogue(env.client, env.cache);
    const forms = new Map(await mapLimit([...ids].sort(), env.concurrency, async (id) => [id, await catalogue.form(id)] as const));
    const formIds = ids.size === 0 ? [] : (await catalogue.list()).map((f) => f.messagebaseformId);
    return { items, forms, formIds, ...(wantsCommon(env) ? { commonIds: await catalogue.commonIds() } : {}) };
  },
};

/** The common messagebase ids are read when the manifests declare auto-replies (their messagebaseId must be one). */
function wantsCommon(env: { desired?: { autoReplies: { size: number } } }): boolean {
  return (env.desired?.autoReplies.size ?? 0) > 0;
}

interface FormCatalogue {
  list(): Promise<MessagebaseFormListItem[]>;
  /** The common messagebase ids (the service's list). */
  commonIds(): Promise<string[]>;
  form(id: string): Promise<MessagebaseForm | null>;
}

/**
 * The forms of the service and its common messagebases, through the client's
 * catalogues (src/kinds/service-catalogue.ts): every brand planned at once
 * shares one read, which is kept a while and never when it failed; a form's
 * detail is also kept in the live cache while the list's updateDate holds.
 */
export function formCatalogue(client: RcsClient, cache?: LiveCache): FormCatalogue {
  const store = catalogueStore(client);
  const list = (): Promise<MessagebaseFormListItem[]> => store.get('template.forms', () => collect(client.templates.listForms()));
  return {
    list,
    commonIds: () => store.get('messagebase.common', async () => (await collect(client.messagebases.listCommon())).map((m) => m.messagebaseId)),
    form: (id) =>
      store.get(`template.form:${id}`, async () => {
        const listed = (await list()).find((f) => f.messagebaseformId === id);
        if (listed === undefined) return null;
        const cached = cache === undefined ? undefined : cachedForm(cache, id, listed.updateDate);
        if (cached !== undefined) return cached;
        const form = await client.templates.getForm(id).catch(gone(TEMPLATE_CODES.unknownForm));
        if (form !== undefined && cache !== undefined) cacheForm(cache, form);
        return form ?? null;
      }),
  };
}

/** One template again. */
export async function rereadTemplate(client: RcsClient, brand: BrandRef, id: string): Promise<Reread<TemplateDetail> | undefined> {
  const detail = await client.templates.get(brand, id).catch(gone(TEMPLATE_CODES.gone));
  return detail === undefined ? undefined : { live: detail, ctx: { liveName: () => undefined } };
}

/** Templates a saved plan would create that exist now, by custTmpltId. */
export async function templatesCreatedSince(client: RcsClient, brand: BrandRef, creates: Step[]): Promise<{ address: string; how: string }[]> {
  const byCust = new Map(creates.map((s) => [requestOf<TemplateRequest>(s).template.custTmpltId, s.address]));
  const out: { address: string; how: string }[] = [];
  for await (const item of client.templates.list(brand)) {
    const address = byCust.get(custTmpltIdOf(item as TemplateDetail));
    if (address !== undefined) out.push({ address, how: `now exists (${item.messagebaseId})` });
  }
  return out;
}

/** The template handlers. */
export const templateHandlers: Partial<Record<Step['op'], Handler>> = {
  create: async (step, env) => {
    const req = requestOf<TemplateRequest>(step);
    const cust = req.template.custTmpltId;
    const send = async (): Promise<string> => {
      if (req.api === 'text') return (await env.client.templates.createText(env.brand, req.template)).messagebaseId;
      return (await env.client.templates.create(env.brand, { ...req.template, body: await withImages(req.template.body, req.images, env) })).messagebaseId;
    };
    return createOnce(send, async () => {
      // The plan saw no template with this custTmpltId: one now is the one we made.
      for await (const item of env.client.templates.list(env.brand)) if (custTmpltIdOf(item as TemplateDetail) === cust) return item.messagebaseId;
      return undefined;
    });
  },
  update: async (step, env) => {
    const req = requestOf<TemplateRequest>(step);
    const id = liveIdOf(step);
    // Withdrawn already (a re-run after a failure) is as asked.
    if (req.cancelReview === true) await tolerate(env.client.templates.cancel(env.brand, id, step.name), [TEMPLATE_CODES.notPending]);
    if (req.api === 'text') {
      await tolerate(env.client.templates.updateText(env.brand, id, req.template), [TEMPLATE_CODES.noChange]);
    } else {
      const { custTmpltId: _cust, ...mod } = req.template;
      await tolerate(env.client.templates.update(env.brand, id, { ...mod, body: await withImages(mod.body, req.images, env) }), [TEMPLATE_CODES.noChange]);
    }
    return req.cancelReview === true ? { note: 'its pending review was withdrawn first' } : {};
  },
  delete: async (step, env) => {
    await tolerate(env.client.templates.delete(env.brand, liveIdOf(step), step.name), [TEMPLATE_CODES.gone]);
    return {};
  },
};

/** The body with every `maapfile://<upload:param>` replaced by the id of the image uploaded for it. */
async function withImages(body: TemplateBodyItem[], images: Record<string, StepFile>, env: HandlerEnv): Promise<TemplateBodyItem[]> {
  return Promise.all(
    body.map(async (b) => {
      if (!('param' in b)) return b;
      const file = images[b.param];
      return file === undefined ? b : { param: b.param, value: `maapfile://${await upload(file, env)}` };
    }),
  );
}

/** Upload a template image once per content and run. */
function upload(file: StepFile, env: HandlerEnv): Promise<string> {
  return uploadOnce(env, `template:${file.sha256}`, file, async (f) => (await env.client.templates.uploadFile(env.brand, f)).fileId);
}
