// The emulator's in-memory state: accounts, tokens, brands and everything in
// them, the service clock and the id counters. Routes mutate it; the admin API
// dumps it. Ids come from counters so two runs of the same calls match.

import { createHash } from 'node:crypto';
import type { ButtonGroup, LayoutComponent, MessagebaseForm, PersistentMenuItem, Suggestion, TemplateBodyItem, TemplateButtonGroup } from '../contract/wire.js';
import type { MessagebaseFacts } from '../spec/messagebases.js';
import { emptyMessaging, type MessagingData } from './messaging/model.js';

/** Account roles (the service reference, Authentication). */
export type AccountRole = 'master' | 'manager' | 'agency';
/** Brand roles: representative operator or operator. */
export type BrandRole = 'representative' | 'operator';

/** An account that can call the service. */
export interface StoredAccount {
  userId: string;
  role: AccountRole;
  token?: string;
  clientId?: string;
  clientSecret?: string;
  brands: Map<string, BrandRole>;
}

/** A token issued at /token (seeded tokens never expire). */
export interface IssuedToken {
  userId: string;
  expiresAt: number;
}

/** Bytes kept for an uploaded file, served back at /files/<id>/<name>. */
export interface StoredBlob {
  fileName: string;
  bytes: Buffer;
  contentType: string;
}

/** An auto-reply image file. */
export interface StoredFile extends StoredBlob {
  fileId: string;
  brandId: string;
}

/** The comparable part of an auto-reply, after the service's normalisation. */
export interface AutoReplyContent {
  autoReplyMsgName: string;
  messagebaseId: string;
  copyAllowed: boolean;
  body: Record<string, string>;
  buttons?: ButtonGroup[];
  chipList?: Suggestion[];
}

/** An auto-reply: the normalised request (for 64323) and the read view. */
export interface StoredAutoReply extends AutoReplyContent {
  autoReplyMsgId: string;
  /** buttons and chipList with every empty postback.data filled (what reads return). */
  filledButtons?: ButtonGroup[];
  filledChipList?: Suggestion[];
  approvalResult: string;
  registerDate: string;
  updateDate: string;
  registerId: string;
  updateId: string;
}

/** Logo fields that a modification may change and a cancel restores. */
export interface LogoContent {
  name: string;
  description: string | null;
  blob: StoredBlob;
}

/** The review state and audit fields that logos and rooms share. */
export interface ReviewedFields {
  approvalResult: string;
  approvalReason: string | null;
  registerDate: string;
  approvalDate: string | null;
  updateDate: string;
  registerId: string;
  updateId: string;
}

/** A brand logo (docs/decisions.md, "Logos"). */
export interface StoredLogo extends LogoContent, ReviewedFields {
  fileId: string;
  /** The approved content before a pending modification, restored by cancel. */
  previous?: LogoContent;
}

/** A room (chatbot) with its persistent menu. */
export interface StoredChatbot extends ReviewedFields {
  groupId: string | null;
  chatbotId: string;
  subNum: string;
  isMainNum: boolean;
  subTitle: string;
  service: string;
  display: string;
  inputField: number;
  subDescr: string | null;
  botAgencyId: string | null;
  saftyStatusYn: string;
  rcsReply: string;
  webhook: string | null;
  searchWeight: string | null;
  botTcPage: string | null;
  /** Persistent menu items with postbackIds; null when the room has no menu. */
  menu: PersistentMenuItem[] | null;
  menuPaused: boolean;
  /** subTitle before a pending rename, restored by cancel. */
  previousSubTitle?: string;
}

/** Template fields a modification changes and a cancel restores. */
export interface TemplateContent {
  tmpltName: string;
  messagebaseformId: string;
  /** v1 (text) templates: the layout as registered, without widgetPolicy. */
  formattedString?: Record<string, unknown>;
  /** v2 templates: the params and buttons as registered. */
  body?: TemplateBodyItem[];
  buttons?: TemplateButtonGroup[];
}

/** A brand template (messagebase). */
export interface StoredTemplate extends TemplateContent, ReviewedFields {
  messagebaseId: string;
  custTmpltId: string;
  agencyId: string | null;
  status: 'ready' | 'pause';
  /** The approved content before a pending or rejected modification, restored by cancel. */
  previous?: TemplateContent;
}

/** An image uploaded for templates (POST …/v2/messagebase/file). */
export interface StoredTemplateFile extends StoredBlob {
  fileId: string;
  imageWidth: number;
  imageHeight: number;
}

/**
 * A route module's per-brand state (src/emulator/module.ts): made for every new
 * brand and kept in the brand's slot of that name, so that the Brand type names
 * no family that brings its own state.
 */
export interface BrandStateHook<S = unknown> {
  /** The slot's name; also the state's key in GET /_emulator/store. */
  slot: string;
  /** The state of a new brand. */
  create(store: EmulatorStore, brandId: string, now: string): S;
  /** The state as plain JSON for GET /_emulator/store. */
  dump(state: S): unknown;
}

/** A brand and everything in it. */
export interface StoredBrand {
  brandId: string;
  brandKey: string;
  templateColor: string;
  /** Route modules' own state, by slot name (BrandStateHook). */
  slots: Map<string, unknown>;
  chatbots: Map<string, StoredChatbot>;
  autoReplies: Map<string, StoredAutoReply>;
  files: Map<string, StoredFile>;
  logos: Map<string, StoredLogo>;
  templates: Map<string, StoredTemplate>;
  templateFiles: Map<string, StoredTemplateFile>;
  /** messagebaseIds deleted once: the service never gives them out again. */
  deletedTemplateIds: Set<string>;
}

/** A new brand: every section empty, every registered module's state as it makes it for a new brand. */
export function emptyBrand(store: EmulatorStore, identity: { brandId: string; brandKey: string; templateColor: string }, now: string): StoredBrand {
  const slots = new Map(store.brandStates.map((h) => [h.slot, h.create(store, identity.brandId, now)]));
  return { ...identity, slots, chatbots: new Map(), autoReplies: new Map(), files: new Map(), logos: new Map(), templates: new Map(), templateFiles: new Map(), deletedTemplateIds: new Set() };
}

/** An agency message file (the service reference, Agency message file). */
export interface StoredAgencyFile extends StoredBlob {
  fileId: string;
  usageType: string;
  mimeType: string;
  messagebaseId: string | null;
  registeredAt: number;
  registerId: string;
}

/**
 * How this emulator answers where the service's behaviour is assumed, so that
 * `rcsctl doctor` can be shown a service that behaves otherwise (seed
 * `behaviour:` or POST /_emulator/options).
 */
export interface EmulatorBehaviour {
  /** How answers name an uploaded image in a media body field: bare fileId (default) or `maapfile://<fileId>`. */
  mediaForm: 'fileId' | 'maapfile';
  /** Fill empty postback data as `postbackId=<id>;;` on read (default true). */
  fillPostbacks: boolean;
  /** Store SCL00000 as SCS00000 and SCwThT00 as SCwThM00 (default true). */
  storeAliases: boolean;
  /**
   * How a field without a value is answered: as the public document allows
   * (`document`, the default: left out of rooms, null elsewhere), or null, left
   * out, or "" in every answer.
   */
  unsetFields: 'document' | 'null' | 'absent' | 'empty';
}

/** The behaviour the service reference and the public document describe. */
export function defaultBehaviour(): EmulatorBehaviour {
  return { mediaForm: 'fileId', fillPostbacks: true, storeAliases: true, unsetFields: 'document' };
}

/** The whole state of one emulator. */
export class EmulatorStore {
  accounts = new Map<string, StoredAccount>();
  /** Static tokens from the seed, by token value. */
  seededTokens = new Map<string, string>();
  issuedTokens = new Map<string, IssuedToken>();
  brands = new Map<string, StoredBrand>();
  agencyFiles = new Map<string, StoredAgencyFile>();
  /** The agency messaging interface: agencies, webhooks, handsets, sent messages, replyIds. */
  messaging: MessagingData = emptyMessaging();
  messagebases: MessagebaseFacts[] = [];
  /** Template forms (messagebaseforms), by id. */
  forms = new Map<string, MessagebaseForm>();
  layoutComponents: LayoutComponent[] = [];
  tokenTtlSeconds = 3600;
  /** Answer empty lists with HTTP 204 (docs/decisions.md, "Envelopes, errors and empty lists") instead of an empty page. */
  noContentOnEmptyList = false;
  behaviour: EmulatorBehaviour = defaultBehaviour();
  /** A fixed clock (ms) when the seed sets one; otherwise real time plus `clockOffsetMs`. */
  fixedNow: number | null = null;
  clockOffsetMs = 0;
  /** The per-brand state of the registered route modules (storeFromSeed sets it). */
  brandStates: readonly BrandStateHook[] = [];
  private counters = new Map<string, number>();

  /** The service clock in epoch milliseconds. */
  now(): number {
    return this.fixedNow ?? Date.now() + this.clockOffsetMs;
  }

  /**
   * The time of a write: the clock, but always later than the previous write,
   * so every write moves an object's updateDate even under a fixed clock (a
   * seeded emulator must not make a changed object look unchanged to a cache).
   */
  stamp(): number {
    this.lastStamp = Math.max(this.now(), this.lastStamp + 1);
    return this.lastStamp;
  }

  /** The last write time handed out (kept across a reset to the seed; cleared when the clock is set). */
  lastStamp = 0;

  /** Next value of a named counter, starting at 1. */
  next(name: string): number {
    const n = (this.counters.get(name) ?? 0) + 1;
    this.counters.set(name, n);
    return n;
  }

  /** A deterministic id: prefix plus zero-padded counter. */
  nextId(prefix: string, width = 12): string {
    return prefix + String(this.next(prefix)).padStart(width, '0');
  }

  /** The canonical messagebase facts for an id, or undefined. */
  messagebase(id: string): MessagebaseFacts | undefined {
    return this.messagebases.find((m) => m.messagebaseId === id);
  }

  /** The store as plain JSON (GET /_emulator/store); file bytes become size and sha256. */
  toJSON(): Record<string, unknown> {
    const blob = blobView;
    return {
      now: this.now(),
      tokenTtlSeconds: this.tokenTtlSeconds,
      noContentOnEmptyList: this.noContentOnEmptyList,
      behaviour: this.behaviour,
      accounts: [...this.accounts.values()].map((a) => ({
        userId: a.userId,
        role: a.role,
        clientId: a.clientId ?? null,
        brands: Object.fromEntries(a.brands),
      })),
      issuedTokens: this.issuedTokens.size,
      brands: [...this.brands.values()].map((b) => ({
        brandId: b.brandId,
        brandKey: b.brandKey,
        templateColor: b.templateColor,
        ...Object.fromEntries(this.brandStates.map((h) => [h.slot, h.dump(b.slots.get(h.slot))])),
        chatbots: [...b.chatbots.values()],
        autoReplies: [...b.autoReplies.values()].map(({ filledButtons: _b, filledChipList: _c, ...rest }) => rest),
        files: [...b.files.values()].map((f) => ({ fileId: f.fileId, ...blob(f) })),
        logos: [...b.logos.values()].map(({ blob: bl, previous, ...rest }) => ({
          ...rest,
          file: blob(bl),
          previous: previous ? { name: previous.name, description: previous.description, file: blob(previous.blob) } : null,
        })),
        templates: [...b.templates.values()],
        templateFiles: [...b.templateFiles.values()].map((f) => ({ fileId: f.fileId, imageWidth: f.imageWidth, imageHeight: f.imageHeight, ...blob(f) })),
      })),
      agencyFiles: [...this.agencyFiles.values()].map(({ bytes: _bytes, ...rest }) => ({ ...rest, ...blob({ ...rest, bytes: _bytes }) })),
      messagebases: this.messagebases.map((m) => m.messagebaseId),
      forms: [...this.forms.keys()],
    };
  }
}

/** Stored bytes as GET /_emulator/store shows them: name, type, size and sha256. */
export function blobView(b: StoredBlob): { fileName: string; contentType: string; size: number; sha256: string } {
  return { fileName: b.fileName, contentType: b.contentType, size: b.bytes.length, sha256: sha256(b.bytes) };
}

/** Hex sha256 of bytes. */
export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
