// Fill a fresh store from a checked seed (src/emulator/seed.ts).

import type { ButtonGroup, Suggestion } from '../api/types.js';
import { canonicalMessagebaseId } from '../spec/messagebases.js';
import { formatServiceTime, parseServiceTime } from '../util/time.js';
import { fillPostbacks } from './auto-reply-model.js';
import { defaultLayoutComponents } from './layout-components.js';
import { seedMessagebases, type Seed, type SeedFile } from './seed.js';
import { EmulatorStore, defaultBehaviour, type StoredBlob, type StoredBrand } from './store.js';
import { contentTypeOf } from './files.js';

const SEED_USER = 'seed';

/** A new store holding exactly what the seed describes. */
export function storeFromSeed(seed: Seed): EmulatorStore {
  const store = new EmulatorStore();
  if (seed.clock !== undefined) store.fixedNow = parseServiceTime(seed.clock).getTime();
  if (seed.tokenTtlSeconds !== undefined) store.tokenTtlSeconds = seed.tokenTtlSeconds;
  store.noContentOnEmptyList = seed.noContentOnEmptyList ?? false;
  store.behaviour = { ...defaultBehaviour(), ...(seed.behaviour ?? {}) };
  store.messagebases = seedMessagebases(seed);
  store.layoutComponents = seed.layoutComponents ?? defaultLayoutComponents();
  const now = formatServiceTime(new Date(store.now()));
  for (const b of seed.brands) {
    const brand: StoredBrand = {
      brandId: b.brandId,
      brandKey: b.brandKey,
      templateColor: b.templateColor ?? '#000000',
      chatbots: new Map(),
      autoReplies: new Map(),
      files: new Map(),
      logos: new Map(),
    };
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

/** A logo id like `BLG-BR.275F8GY6nR-uylr`: brand id and a four-letter counter. */
export function logoId(store: EmulatorStore, brandId: string): string {
  let n = store.next('BLG') - 1;
  let suffix = '';
  for (let i = 0; i < 4; i++) {
    suffix = String.fromCharCode(97 + (n % 26)) + suffix;
    n = Math.floor(n / 26);
  }
  return `BLG-${brandId}-${suffix}`;
}

function blobOf(f: SeedFile): StoredBlob {
  return { fileName: f.fileName, bytes: Buffer.from(f.content ?? '', 'base64'), contentType: contentTypeOf(f.fileName) };
}
