// The seed: YAML that describes the emulator's starting state (docs/emulator.md,
// "Seed format"). loadSeed parses and checks it, naming the bad field;
// applySeed fills a fresh store from it.

import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { LayoutComponent, MessagebaseForm, PersistentMenuItem, TemplateBodyItem, TemplateButtonGroup } from '../contract/wire.js';
import { BRAND_STATES } from '../spec/brand-profile.js';
import { commonPolicy, KNOWN_MESSAGEBASES, type MessagebaseFacts, type MessagebasePolicy } from '../spec/messagebases.js';
import { parseServiceTime } from '../util/time.js';
import { RcsctlError } from '../errors.js';
import { defaultBehaviour, type EmulatorBehaviour } from './store.js';
import { checkSeedMessaging, type SeedMessaging } from './messaging/model.js';
import { ROUTE_MODULES } from './routes/index.js';
import { SeedChecker, type SeedFile } from './seed-checker.js';

/** A seeded account. */
export interface SeedAccount {
  userId: string;
  role: 'master' | 'manager' | 'agency';
  token?: string;
  clientId?: string;
  clientSecret?: string;
  brands?: { brandId: string; role: 'representative' | 'operator' }[];
}

/** A seeded room; every settable field may be given. */
export interface SeedChatbot {
  chatbotId: string;
  subTitle: string;
  subNum?: string;
  service?: 'a2p' | 'chat';
  display?: string;
  inputField?: number;
  rcsReply?: string;
  subDescr?: string;
  saftyStatusYn?: string;
  botAgencyId?: string;
  webhook?: string;
  groupId?: string;
  approvalResult?: string;
  approvalReason?: string;
  registerDate?: string;
  persistentMenu?: PersistentMenuItem[];
  menuPaused?: boolean;
}

/** A seeded auto-reply. */
export interface SeedAutoReply {
  autoReplyMsgId?: string;
  autoReplyMsgName: string;
  messagebaseId: string;
  copyAllowed?: boolean;
  body: Record<string, string>;
  buttons?: unknown[];
  chipList?: unknown[];
  approvalResult?: string;
  registerDate?: string;
  updateDate?: string;
}

export type { SeedFile } from './seed-checker.js';

/** A seeded logo. */
export interface SeedLogo extends SeedFile {
  name: string;
  description?: string;
  approvalResult?: string;
  approvalReason?: string;
}

/** A seeded agency message file. */
export interface SeedAgencyFile extends SeedFile {
  fileId: string;
  mimeType: string;
  usageType?: string;
  registerDate?: string;
}

/** A seeded brand template (messagebase): a v1 formattedString or a v2 body. */
export interface SeedTemplate {
  messagebaseId?: string;
  custTmpltId: string;
  tmpltName: string;
  messagebaseformId: string;
  formattedString?: Record<string, unknown>;
  body?: TemplateBodyItem[];
  buttons?: TemplateButtonGroup[];
  approvalResult?: string;
  approvalReason?: string;
  registerDate?: string;
  updateDate?: string;
}

/** A seeded template image file. */
export interface SeedTemplateFile extends SeedFile {
  imageWidth?: number;
  imageHeight?: number;
}

/** A seeded brand. */
export interface SeedBrand {
  brandId: string;
  brandKey: string;
  templateColor?: string;
  /** Sections a route module reads (src/emulator/module.ts), like the brand's own page, `page`. */
  [section: string]: unknown;
  chatbots?: SeedChatbot[];
  autoReplies?: SeedAutoReply[];
  files?: SeedFile[];
  logos?: SeedLogo[];
  agencyFiles?: SeedAgencyFile[];
  templates?: SeedTemplate[];
  templateFiles?: SeedTemplateFile[];
}

/** The whole seed document. */
export interface Seed {
  clock?: string;
  tokenTtlSeconds?: number;
  noContentOnEmptyList?: boolean;
  behaviour?: Partial<EmulatorBehaviour>;
  accounts: SeedAccount[];
  brands: SeedBrand[];
  /** Common messagebases; a policyInfo may give only the fields it changes. */
  messagebases?: (Omit<MessagebaseFacts, 'policyInfo'> & { policyInfo?: Partial<MessagebasePolicy> })[];
  /** Template forms; the default forms this leaves out are added. */
  messagebaseForms?: MessagebaseForm[];
  layoutComponents?: LayoutComponent[];
  /** The agency messaging interface (docs/emulator.md, "Testing your relay"). */
  messaging?: SeedMessaging;
}

/** Parse and check a seed from a file path or from YAML text (text when it holds a newline or a colon). */
export function loadSeed(pathOrYamlText: string): Seed {
  const isText = pathOrYamlText.includes('\n') || /^\s*[A-Za-z]+\s*:/.test(pathOrYamlText);
  let text = pathOrYamlText;
  const source = isText ? 'seed' : pathOrYamlText;
  if (!isText) {
    try {
      text = readFileSync(pathOrYamlText, 'utf8');
    } catch (err) {
      throw new RcsctlError('E_SEED', `cannot read the emulator seed ${pathOrYamlText}: ${(err as Error).message}`);
    }
  }
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 100 });
  } catch (err) {
    throw new RcsctlError('E_SEED', `${source}: not valid YAML: ${(err as Error).message}`);
  }
  return checkSeed(doc, source);
}

/** Check an already-parsed seed object; throws RcsctlError naming the field. */
export function checkSeed(doc: unknown, source = 'seed'): Seed {
  const c = new SeedChecker(source);
  const root = c.object(doc, '');
  c.optional(root, 'clock', 'string');
  if (typeof root.clock === 'string' && Number.isNaN(parseServiceTime(root.clock).getTime())) c.bad('clock', 'must be a date-time like 2026-11-21T10:00:00.000+09');
  c.optional(root, 'tokenTtlSeconds', 'number');
  c.optional(root, 'noContentOnEmptyList', 'boolean');
  if (root.behaviour !== undefined) checkBehaviour(root.behaviour, (field, why) => c.bad(`behaviour.${field}`, why));
  const accounts = c.array(root.accounts ?? [], 'accounts');
  accounts.forEach((a, i) => {
    const p = `accounts[${i}]`;
    const o = c.object(a, p);
    c.required(o, 'userId', 'string', p);
    c.enumOf(o.role, ['master', 'manager', 'agency'], `${p}.role`);
    for (const k of ['token', 'clientId', 'clientSecret']) c.optional(o, k, 'string', p);
    if ((o.clientId === undefined) !== (o.clientSecret === undefined)) c.bad(p, 'clientId and clientSecret go together');
    c.array(o.brands ?? [], `${p}.brands`).forEach((b, j) => {
      const bo = c.object(b, `${p}.brands[${j}]`);
      c.required(bo, 'brandId', 'string', `${p}.brands[${j}]`);
      c.enumOf(bo.role, ['representative', 'operator'], `${p}.brands[${j}].role`);
    });
  });
  const brands = c.array(root.brands ?? [], 'brands');
  brands.forEach((b, i) => {
    const p = `brands[${i}]`;
    const o = c.object(b, p);
    c.required(o, 'brandId', 'string', p);
    c.required(o, 'brandKey', 'string', p);
    c.optional(o, 'templateColor', 'string', p);
    for (const m of ROUTE_MODULES) if (m.seed !== undefined && o[m.seed.key] !== undefined) m.seed.check(c, o[m.seed.key], `${p}.${m.seed.key}`);
    c.array(o.chatbots ?? [], `${p}.chatbots`).forEach((x, j) => {
      const q = `${p}.chatbots[${j}]`;
      const cb = c.object(x, q);
      c.required(cb, 'chatbotId', 'string', q);
      c.required(cb, 'subTitle', 'string', q);
      if (cb.service !== undefined) c.enumOf(cb.service, ['a2p', 'chat'], `${q}.service`);
      if (cb.display !== undefined) c.enumOf(cb.display, ['11', '10', '01', '00'], `${q}.display`);
      if (cb.inputField !== undefined) c.enumOf(cb.inputField, [0, 1], `${q}.inputField`);
      if (cb.rcsReply !== undefined) c.enumOf(cb.rcsReply, ['0', '1'], `${q}.rcsReply`);
      if (cb.saftyStatusYn !== undefined) c.enumOf(cb.saftyStatusYn, ['Y', 'N'], `${q}.saftyStatusYn`);
      if (cb.persistentMenu !== undefined) c.array(cb.persistentMenu, `${q}.persistentMenu`);
    });
    c.array(o.autoReplies ?? [], `${p}.autoReplies`).forEach((x, j) => {
      const q = `${p}.autoReplies[${j}]`;
      const ar = c.object(x, q);
      c.required(ar, 'autoReplyMsgName', 'string', q);
      c.required(ar, 'messagebaseId', 'string', q);
      c.object(ar.body, `${q}.body`);
    });
    c.array(o.templates ?? [], `${p}.templates`).forEach((x, j) => {
      const q = `${p}.templates[${j}]`;
      const t = c.object(x, q);
      for (const k of ['custTmpltId', 'tmpltName', 'messagebaseformId']) c.required(t, k, 'string', q);
      if (t.formattedString !== undefined) c.object(t.formattedString, `${q}.formattedString`);
      if (t.body !== undefined) c.array(t.body, `${q}.body`);
      if ((t.formattedString === undefined) === (t.body === undefined)) c.bad(q, 'give either formattedString (v1) or body (v2)');
    });
    for (const kind of ['files', 'logos', 'agencyFiles', 'templateFiles']) {
      c.array(o[kind] ?? [], `${p}.${kind}`).forEach((x, j) => {
        const q = `${p}.${kind}[${j}]`;
        const f = c.object(x, q);
        c.required(f, 'fileName', 'string', q);
        c.optional(f, 'content', 'string', q);
        if (kind === 'logos') c.required(f, 'name', 'string', q);
        if (kind === 'agencyFiles') {
          c.required(f, 'fileId', 'string', q);
          c.required(f, 'mimeType', 'string', q);
        }
      });
    }
  });
  c.array(root.messagebases ?? [], 'messagebases').forEach((m, i) => {
    const q = `messagebases[${i}]`;
    const o = c.object(m, q);
    c.required(o, 'messagebaseId', 'string', q);
    c.array(o.bodyFields ?? [], `${q}.bodyFields`);
    if (o.policyInfo !== undefined) {
      const policy = c.object(o.policyInfo, `${q}.policyInfo`);
      c.optional(policy, 'cardCount', 'number', `${q}.policyInfo`);
      for (const k of ['adHeaderAllowed', 'adBodyAllowed']) c.optional(policy, k, 'boolean', `${q}.policyInfo`);
    }
  });
  c.array(root.messagebaseForms ?? [], 'messagebaseForms').forEach((m, i) => {
    const q = `messagebaseForms[${i}]`;
    const o = c.object(m, q);
    c.required(o, 'messagebaseformId', 'string', q);
    c.array(o.params ?? [], `${q}.params`);
    c.object(o.formattedString, `${q}.formattedString`);
    c.object(o.policyInfo, `${q}.policyInfo`);
  });
  c.array(root.layoutComponents ?? [], 'layoutComponents');
  checkSeedMessaging(root.messaging, source);
  return root as unknown as Seed;
}

/** Check a (partial) behaviour object; `bad` names the field and throws. */
export function checkBehaviour(raw: unknown, bad: (field: string, why: string) => never): Partial<EmulatorBehaviour> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return bad('', 'must be a map');
  const o = raw as Record<string, unknown>;
  const known = Object.keys(defaultBehaviour());
  for (const k of Object.keys(o)) if (!known.includes(k)) bad(k, `is not a behaviour; known: ${known.join(', ')}`);
  if (o.mediaForm !== undefined && o.mediaForm !== 'fileId' && o.mediaForm !== 'maapfile') bad('mediaForm', 'must be fileId or maapfile');
  if (o.unsetFields !== undefined && !['document', 'null', 'absent', 'empty'].includes(o.unsetFields as string)) bad('unsetFields', 'must be document, null, absent or empty');
  for (const k of ['fillPostbacks', 'storeAliases']) if (o[k] !== undefined && typeof o[k] !== 'boolean') bad(k, 'must be a boolean');
  return o as Partial<EmulatorBehaviour>;
}

/** The messagebases of a seed: the seed's own, then every known default it leaves out. */
export function seedMessagebases(seed: Seed): MessagebaseFacts[] {
  const given = (seed.messagebases ?? []).map((m): MessagebaseFacts => {
    const known = KNOWN_MESSAGEBASES.find((k) => k.messagebaseId === m.messagebaseId);
    return {
      messagebaseId: m.messagebaseId,
      tmpltName: m.tmpltName ?? known?.tmpltName ?? m.messagebaseId,
      messagebaseformId: m.messagebaseformId ?? known?.messagebaseformId ?? m.messagebaseId,
      productCode: m.productCode ?? known?.productCode ?? 'chat',
      type: m.type ?? known?.type ?? 'SCL',
      typeName: m.typeName ?? known?.typeName ?? '말풍선',
      bodyFields: m.bodyFields ?? known?.bodyFields ?? ['description'],
      mediaFields: m.mediaFields ?? known?.mediaFields ?? (m.bodyFields ?? []).filter((f) => /^media\d*$/.test(f)),
      policyInfo: { ...(known?.policyInfo ?? commonPolicy(1)), ...m.policyInfo },
    };
  });
  const ids = new Set(given.map((m) => m.messagebaseId));
  return [...given, ...KNOWN_MESSAGEBASES.filter((k) => !ids.has(k.messagebaseId))];
}
