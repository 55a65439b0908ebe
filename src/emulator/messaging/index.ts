// The agency messaging interface of the emulator (docs/emulator.md, "Testing
// your relay"): sends, delivery results by msgstatus, user events, the
// auto-replies a menu tap triggers, and change notifications. One Messaging per
// server; its state is store.messaging, its webhook calls go through the Outbox.

import { DELIVERY_ERRORS } from '../../contract/codes.js';
import { formatServiceTime } from '../../util/time.js';
import type { Reply, RequestContext } from '../http-types.js';
import type { Route } from '../router.js';
import type { EmulatorStore, StoredBrand, StoredChatbot } from '../store.js';
import { messagingAdminRoutes } from './admin-routes.js';
import { playEvent, type PlayedEvent } from './events.js';
import { joinUrl, type Agency, type SentMessage } from './model.js';
import { noticesFor } from './notifications.js';
import { Outbox } from './outbox.js';
import { EXPIRY_WINDOW_MS, sendRoutes } from './send.js';

/** Session messages billed per replyId (*chosen* N of the carrier policy "billed up to N per session"). */
export const BILLED_PER_SESSION = 1;
/** How often held messages are checked against their expiryOption window. */
const SWEEP_MS = 1000;

/** A msgstatus item (the service reference, Delivery status item). */
export interface StatusItem {
  clientMsgId: string;
  status: 'success' | 'fail';
  timestamp: string;
  error?: { code: string; message: string };
  autoReplyMsgId?: string;
  postbackId?: string;
  userContact?: string;
  chatbotId?: string;
  bill?: number;
}

/** The messaging side of one emulator. */
export class Messaging {
  readonly outbox: Outbox;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly store: EmulatorStore) {
    this.outbox = new Outbox(() => store.now());
  }

  /** POST /ag/1.2/message. */
  routes(): Route[] {
    return sendRoutes((msg) => this.accept(msg));
  }

  /** The /_emulator/messaging/… admin routes. */
  adminRoutes(): Route[] {
    return messagingAdminRoutes(this, this.store);
  }

  /** After every answered call: announce changes, and settle held messages whose time has come. */
  observe(ctx: RequestContext, reply: Reply): void {
    // What the handler announced holds only if the request succeeded.
    const announced = reply.status === 200 ? ctx.notices : [];
    for (const notice of [...announced, ...noticesFor(this.store, ctx.method, ctx.path, reply)]) {
      for (const agency of this.store.messaging.agencies.values()) if (agency.brands.has(notice.brandId)) this.notify(agency, notice.body);
    }
    if (this.store.messaging.held.size > 0) this.sweep();
  }

  /** Post a notification to an agency's webhook URL. */
  notify(agency: Agency, body: Record<string, unknown>): void {
    if (agency.webhookUrl !== null) this.outbox.post('notification', agency.webhookUrl, body);
  }

  /** Play a user event: post it to the room's webhook and send the auto-reply a menu reply carries. */
  playUser(body: Record<string, unknown>): PlayedEvent {
    const played = playEvent(this.store, body);
    this.outbox.post('momsg', played.url, played.item);
    if (played.menuItem !== undefined) this.sendAutoReply(played);
    return played;
  }

  /** Held messages: delivered once the handset is reachable, revoked at the end of their expiryOption window. */
  sweep(): void {
    const data = this.store.messaging;
    const now = this.store.now();
    for (const msgId of [...data.held]) {
      const msg = data.messages.get(msgId);
      if (msg === undefined || msg.status !== 'pending') {
        data.held.delete(msgId);
        continue;
      }
      const handset = data.handsets.get(msg.userContact);
      if (handset?.outcome !== 'offline') this.settle(msg);
      else if (now >= msg.sentAt + (EXPIRY_WINDOW_MS[msg.expiryOption] ?? 0)) this.finish(msg, { code: handset.code ?? DELIVERY_ERRORS.expired.code, message: handset.message ?? DELIVERY_ERRORS.expired.message });
    }
    if (data.held.size === 0) this.stopSweeper();
  }

  /** Forget queued webhook calls (the store was reset from the seed). */
  reset(): void {
    this.stopSweeper();
    this.outbox.reset();
  }

  /** Stop every timer and close webhook connections. */
  async stop(): Promise<void> {
    this.stopSweeper();
    await this.outbox.stop();
  }

  private accept(msg: SentMessage): void {
    const handset = this.store.messaging.handsets.get(msg.userContact);
    if (handset?.outcome === 'offline') {
      this.store.messaging.held.add(msg.msgId);
      this.sweeper ??= setInterval(() => this.sweep(), SWEEP_MS).unref();
      return;
    }
    this.settle(msg);
  }

  /** Deliver or fail a message as its handset's script says. */
  private settle(msg: SentMessage): void {
    const handset = this.store.messaging.handsets.get(msg.userContact);
    if (handset?.outcome === 'fail') this.finish(msg, { code: handset.code ?? DELIVERY_ERRORS.failed.code, message: handset.message ?? DELIVERY_ERRORS.failed.message });
    else this.finish(msg);
  }

  private finish(msg: SentMessage, error?: { code: string; message: string }): void {
    this.store.messaging.held.delete(msg.msgId);
    msg.status = error === undefined ? 'success' : 'fail';
    const item: StatusItem = { clientMsgId: msg.clientMsgId, status: msg.status, timestamp: this.time(), ...(error !== undefined ? { error } : {}) };
    if (msg.replyId !== null) item.bill = error === undefined && this.billSession(msg.replyId) ? 1 : 0;
    const agency = this.store.messaging.agencies.get(msg.agencyId);
    if (agency !== undefined) this.postStatus(agency, item);
  }

  /** Whether a delivered session message is billed: the first BILLED_PER_SESSION under a replyId are. */
  private billSession(replyId: string): boolean {
    const grant = this.store.messaging.replies.get(replyId);
    if (grant === undefined || grant.billed >= BILLED_PER_SESSION) return false;
    grant.billed++;
    return true;
  }

  /** The platform sends the auto-reply of a tapped menu item and reports it to the room's relay agency. */
  private sendAutoReply(played: PlayedEvent): void {
    const { brand, room, item, menuItem } = played;
    const autoReplyMsgId = menuItem?.autoReplyMsgId as string;
    const handset = this.store.messaging.handsets.get(item.userContact);
    let error: { code: string; message: string } | undefined;
    if (!brand.autoReplies.has(autoReplyMsgId)) error = { ...DELIVERY_ERRORS.autoReplyGone };
    else if (handset !== undefined && handset.outcome !== 'success') error = { code: handset.code ?? DELIVERY_ERRORS.failed.code, message: handset.message ?? DELIVERY_ERRORS.failed.message };
    const status: StatusItem = {
      clientMsgId: this.store.nextId('ARS'),
      status: error === undefined ? 'success' : 'fail',
      timestamp: this.time(),
      ...(error !== undefined ? { error } : {}),
      autoReplyMsgId,
      postbackId: item.postbackId as string,
      userContact: item.userContact,
      chatbotId: item.chatbotId,
      bill: error === undefined ? 1 : 0,
    };
    const agency = this.relayAgency(brand, room);
    if (agency !== undefined) this.postStatus(agency, status);
  }

  /** The agency named by the room's botAgencyId, else the first agency of the brand. */
  private relayAgency(brand: StoredBrand, room: StoredChatbot): Agency | undefined {
    const agencies = this.store.messaging.agencies;
    const named = room.botAgencyId !== null ? agencies.get(room.botAgencyId) : undefined;
    return named ?? [...agencies.values()].find((a) => a.brands.has(brand.brandId));
  }

  private postStatus(agency: Agency, item: StatusItem): void {
    if (agency.webhookUrl !== null) this.outbox.post('msgstatus', joinUrl(agency.webhookUrl, 'msgstatus'), item);
  }

  private time(): string {
    return formatServiceTime(new Date(this.store.now()));
  }

  private stopSweeper(): void {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
