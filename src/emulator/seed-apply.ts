// Fill a fresh store from a checked seed (src/emulator/seed.ts).

import type { ButtonGroup, Suggestion } from '../contract/wire.js';
import { canonicalMessagebaseId } from '../spec/messagebases.js';
import { TEMPLATE_FORMS } from '../spec/template-forms.js';
import { withoutWidgetPolicy } from '../spec/template-policy.js';
import { formatServiceTime, parseServiceTime } from '../util/time.js';
import { fillPostbacks } from './auto-reply-model.js';
import { defaultLayoutComponents } from './layout-components.js';
import { seedMessagebases, type Seed, type SeedFile } from './seed.js';
import { ROUTE_MODULES } from './routes/index.js';
import { EmulatorStore, defaultBehaviour, emptyBrand, type StoredBlob } from './store.js';
import { contentTypeOf } from './files.js';
import { logoId, templateFileId, templateId } from './ids.js';
import { messagingFromSeed } from './messaging/model.js';

const SEED_USER = 'seed';

/** A new store holding exactly what the seed describes. */
// long: one pass over the seed's sections, a few lines each, in the store's order; the older families' sections move out to their route modules as the brand page's did (docs/architecture.md).
export function storeFromSeed(seed: Seed): EmulatorStore {
  const store = new EmulatorStore();
  store.brandStates = ROUTE_MODULES.flatMap((m) => (m.state !== undefined ? [m.state] : []));
  if (seed.clock !== undefined) store.fixedNow = parseServiceTime(seed.clock).getTime();
  if (seed.tokenTtlSeconds !== undefined) store.tokenTtlSeconds = seed.tokenTtlSeconds;
  store.noContentOnEmptyList = seed.noContentOnEmptyList ?? false;
  store.behaviour = { ...defaultBehaviour(), ...(seed.behaviour ?? {}) };
  store.messagebases = seedMessagebases(seed);
  for (const f of [...(seed.messagebaseForms ?? []), ...TEMPLATE_FORMS]) if (!store.forms.has(f.messagebaseformId)) store.forms.set(f.messagebaseformId, f);
  store.layoutComponents = seed.layoutComponents ?? defaultLayoutComponents();
  store.messaging = messagingFromSeed(seed.messaging);
  const now = formatServiceTime(new Date(store.now()));
  for (const b of seed.brands) {
    const brand = emptyBrand(store, { brandId: b.brandId, brandKey: b.brandKey, templateColor: b.templateColor ?? '#000000' }, now);
    for (const m of ROUTE_MODULES) if (m.seed !== undefined && b[m.seed.key] !== undefined) m.seed.apply(store, brand, b[m.seed.key], now);
    store.brands.set(b.brandId, brand);
    for (const f of b.files ?? []) {
      const fileId = f.fileId ?? store.nextId('ARF');
      brand.files.set(fileId, { fileId, brandId: b.brandId, ...blobOf(f) });
    }
    for (const c of b.chatbots ?? []) {
      const approved = c.approvalResult === undefined || c.approvalResult === '승인';
      brand.chatbots.set(c.chatbotId, {
        groupId: c.groupId ?? null,
        chatbotId: c.chatbotId,
        subNum: c.subNum ?? c.chatbotId,
        isMainNum: brand.chatbots.size === 0,
        subTitle: c.subTitle,
        service: c.service ?? 'a2p',
        display: c.display ?? '01',
        inputField: c.inputField ?? 1,
        subDescr: c.subDescr ?? null,
        botAgencyId: c.botAgencyId ?? null,
        saftyStatusYn: c.saftyStatusYn ?? 'Y',
        approvalResult: c.approvalResult ?? '승인',
        approvalReason: c.approvalReason ?? null,
        registerDate: c.registerDate ?? now,
        approvalDate: approved ? (c.registerDate ?? now) : null,
        updateDate: c.registerDate ?? now,
        registerId: SEED_USER,
        updateId: SEED_USER,
        rcsReply: c.rcsReply ?? '1',
        webhook: c.webhook ?? null,
        searchWeight: '512',
        botTcPage: null,
        menu: c.persistentMenu ? c.persistentMenu.map((item) => ({ ...item, postbackId: item.postbackId ?? store.nextId('PM') })) : null,
        menuPaused: c.menuPaused ?? false,
      });
    }
    for (const a of b.autoReplies ?? []) {
      const id = a.autoReplyMsgId ?? store.nextId('ARM');
      const buttons = a.buttons as ButtonGroup[] | undefined;
      const chipList = a.chipList as Suggestion[] | undefined;
      const filled = fillPostbacks(store, buttons, chipList);
      brand.autoReplies.set(id, {
        autoReplyMsgId: id,
        autoReplyMsgName: a.autoReplyMsgName,
        messagebaseId: store.behaviour.storeAliases ? canonicalMessagebaseId(a.messagebaseId) : a.messagebaseId,
        copyAllowed: a.copyAllowed ?? true,
        body: a.body,
        ...(buttons ? { buttons, filledButtons: filled.buttons ?? [] } : {}),
        ...(chipList ? { chipList, filledChipList: filled.chipList ?? [] } : {}),
        approvalResult: a.approvalResult ?? '등록완료',
        registerDate: a.registerDate ?? now,
        updateDate: a.updateDate ?? a.registerDate ?? now,
        registerId: SEED_USER,
        updateId: SEED_USER,
      });
    }
    for (const l of b.logos ?? []) {
      const fileId = l.fileId ?? logoId(store, b.brandId);
      brand.logos.set(fileId, {
        fileId,
        name: l.name,
        description: l.description ?? null,
        blob: blobOf(l),
        approvalResult: l.approvalResult ?? '승인',
        approvalReason: l.approvalReason ?? null,
        registerDate: now,
        approvalDate: (l.approvalResult ?? '승인') === '승인' ? now : null,
        updateDate: now,
        registerId: SEED_USER,
        updateId: SEED_USER,
      });
    }
    for (const f of b.templateFiles ?? []) {
      const fileId = f.fileId ?? templateFileId(store, b.brandId);
      brand.templateFiles.set(fileId, { fileId, imageWidth: f.imageWidth ?? 0, imageHeight: f.imageHeight ?? 0, ...blobOf(f) });
    }
    for (const t of b.templates ?? []) {
      const messagebaseId = t.messagebaseId ?? templateId(b.brandId, t.custTmpltId);
      const state = t.approvalResult ?? '승인';
      brand.templates.set(messagebaseId, {
        messagebaseId,
        custTmpltId: t.custTmpltId,
        tmpltName: t.tmpltName,
        messagebaseformId: t.messagebaseformId,
        ...(t.formattedString !== undefined ? { formattedString: withoutWidgetPolicy(t.formattedString) as Record<string, unknown> } : {}),
        ...(t.body !== undefined ? { body: t.body } : {}),
        ...(t.buttons !== undefined ? { buttons: t.buttons } : {}),
        agencyId: null,
        status: 'ready',
        approvalResult: state,
        approvalReason: t.approvalReason ?? null,
        registerDate: t.registerDate ?? now,
        approvalDate: state === '승인' ? (t.registerDate ?? now) : null,
        updateDate: t.updateDate ?? t.registerDate ?? now,
        registerId: SEED_USER,
        updateId: SEED_USER,
      });
    }
    for (const f of b.agencyFiles ?? []) {
      store.agencyFiles.set(f.fileId, {
        fileId: f.fileId,
        usageType: f.usageType ?? 'send',
        mimeType: f.mimeType,
        messagebaseId: null,
        registeredAt: f.registerDate !== undefined ? parseServiceTime(f.registerDate).getTime() : store.now(),
        registerId: SEED_USER,
        ...blobOf(f),
        contentType: f.mimeType,
      });
    }
  }
  for (const a of seed.accounts) {
    store.accounts.set(a.userId, {
      userId: a.userId,
      role: a.role,
      ...(a.token !== undefined ? { token: a.token } : {}),
      ...(a.clientId !== undefined ? { clientId: a.clientId } : {}),
      ...(a.clientSecret !== undefined ? { clientSecret: a.clientSecret } : {}),
      brands: new Map((a.brands ?? []).map((b) => [b.brandId, b.role])),
    });
    if (a.token !== undefined) store.seededTokens.set(a.token, a.userId);
  }
  return store;
}

function blobOf(f: SeedFile): StoredBlob {
  return { fileName: f.fileName, bytes: Buffer.from(f.content ?? '', 'base64'), contentType: contentTypeOf(f.fileName) };
}
