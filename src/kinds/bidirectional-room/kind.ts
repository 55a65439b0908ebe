// Bidirectional rooms, the pure part: identified by chatbotId. A room with a
// bidirectional ID (service chat) is compared field by field, its name
// reviewed; a converted sender-number room (service a2p) by its agency link
// alone, since the room's own fields are the chatbot kind's. Fields a
// manifest leaves out are not managed: the live value is kept and sent back.

import type { ChatbotDetail } from '../../api/types.js';
import type { BiChatbotInfo } from '../../contract/wire.js';
import type { LiveBrand } from '../../core/live.js';
import { NO_GATE, type Gate } from '../../core/step.js';
import type { DesiredBrand } from '../../manifest/types.js';
import { CHATBOT_UPDATABLE, inFieldOrder, matchRooms, overlayFields, roomIdentity } from '../chatbot/kind.js';
import type { Drawn, DrawnLink, KindPlanning, Ordered, Previewable, Prunable, Referring, ReportsUnmanaged, Reviewed, Worded } from '../resource-kind.js';
import { bidirectionalPreview } from './preview.js';
import type { DesiredBidirectionalRoom } from './types.js';

/** The fields of a room with a bidirectional ID rcsctl compares and sends, in the order the plan shows them. */
const CHAT_FIELDS = ['subTitle', 'subNum', 'display', 'inputField', 'subDescr', 'saftyStatusYn', 'botAgencyId'] as const;
type ChatField = (typeof CHAT_FIELDS)[number];
type Fields = Partial<Record<ChatField, string | number>>;

/** What the service gives a new room with a bidirectional ID for each field its registration leaves out (RegBiChatbot's defaults). */
const CHAT_DEFAULTS: Fields = { display: '01', inputField: 1, saftyStatusYn: 'Y' };

/** The state a sender-number room must be in to be converted. */
const APPROVED = '승인';
/** The states of a sender-number room that was approved, which a reply number must be: a rename under review keeps the approved room live. */
const WAS_APPROVED = [APPROVED, '승인대기(수정)', '검수완료(수정)'];

/** The bidirectional room kind's pure part. */
export const bidirectionalPlanning: KindPlanning<DesiredBidirectionalRoom, ChatbotDetail, 'bidirectionalRoom'> &
  Drawn<DesiredBidirectionalRoom> &
  Reviewed &
  Prunable &
  Ordered<DesiredBidirectionalRoom, ChatbotDetail> &
  Referring<ChatbotDetail> &
  ReportsUnmanaged &
  Previewable<DesiredBidirectionalRoom> &
  Worded = {
  name: 'bidirectionalRoom',
  label: 'bidirectional room',
  preview: bidirectionalPreview,
  // A converted room is not deleted: its agency link is removed and the sender-number room stays.
  words: { delete: { plan: 'will be removed', done: 'removed' } },
  reviewed: 'bidirectional room name',
  drawing: {
    colour: ['#e0f2f1', '#00695c'],
    name: (d) => (d.service === 'chat' ? (d.subTitle ?? d.chatbotId) : `${d.chatbotId} (bidirectional)`),
    details: (d) => (d.botAgencyId !== undefined ? [`agency ${d.botAgencyId}`] : []),
    links: (d) => (d.service === 'chat' && d.subNum !== undefined ? [{ to: `chatbot.${d.subNum}`, label: 'replies from' } satisfies DrawnLink] : []),
  },
  prune: 'bidirectionalRooms',
  reportsUnmanaged: true,

  desired: (brand) => [...(brand.bidirectionalRooms?.values() ?? [])],
  live: (live) => live.bidirectionalRooms ?? [],
  identity: roomIdentity<DesiredBidirectionalRoom>(),

  diff: {
    match: matchRooms,

    normaliseLive: (l) => liveFields(l),
    normaliseDesired(d, _ctx, l) {
      if (d.service === 'a2p') return d.botAgencyId !== undefined ? { botAgencyId: d.botAgencyId } : l !== undefined ? liveFields(l) : {};
      return overlayFields(l === undefined ? CHAT_DEFAULTS : liveFields(l), d, CHAT_FIELDS);
    },

    createStep(d, ctx, seed) {
      const expected = bidirectionalPlanning.diff.normaliseDesired(d, ctx, undefined) as Fields;
      if (d.service === 'a2p') {
        const room = sender(ctx.live, d.chatbotId);
        const info: BiChatbotInfo = {
          chatbotId: d.chatbotId,
          service: 'a2p',
          subNum: d.chatbotId,
          // The room keeps its own name and input box: converting changes only the link.
          subTitle: room?.subTitle ?? ctx.brand.chatbots.get(d.chatbotId)?.subTitle ?? d.chatbotId,
          inputField: (room?.inputField ?? 1) === 0 ? 0 : 1,
          botAgencyId: String(expected.botAgencyId ?? ''),
        };
        const name = room?.subTitle ?? ctx.brand.chatbots.get(d.chatbotId)?.subTitle ?? d.chatbotId;
        return { ...seed, name, gate: conversionGate(d, ctx.brand, ctx.live), op: 'create', request: { chatbot: info } };
      }
      const changes = seed.changes.map((c) => (c.path in CHAT_DEFAULTS && d[c.path as ChatField] === undefined ? { ...c, default: true as const } : c));
      const info = { chatbotId: d.chatbotId, service: 'chat' as const, ...toInfo(expected) };
      const blocked = replyNumberGate(d, ctx.brand, ctx.live);
      return { ...seed, changes, ...(blocked !== undefined ? { gate: blocked } : {}), op: 'create', request: { chatbot: info } };
    },
    updateStep(d, l, ctx, seed) {
      const expected = bidirectionalPlanning.diff.normaliseDesired(d, ctx, l) as Fields;
      const info: BiChatbotInfo = d.service === 'a2p' ? { botAgencyId: String(expected.botAgencyId ?? '') } : toInfo(expected);
      // A field the manifest removes is sent empty (subDescr).
      if (d.service === 'chat' && d.subDescr === '' && l.subDescr !== null && l.subDescr !== '') info.subDescr = '';
      return { ...seed, op: 'update', liveId: l.chatbotId, request: { chatbot: info } };
    },
  },

  gates: {
    create: (d) =>
      d.service === 'chat' ? { type: 'review', review: 'a new bidirectional room goes to operator review (승인대기) before messages can be sent' } : NO_GATE,
    update(l, changes): Gate {
      if (!CHATBOT_UPDATABLE.includes(l.approvalResult)) {
        return { type: 'blocked', state: l.approvalResult, reason: `the service accepts bidirectional room changes only in ${CHATBOT_UPDATABLE.join(', ')}; wait for the review to finish` };
      }
      if (l.approvalResult === APPROVED && changes.some((c) => c.path === 'subTitle')) {
        return { type: 'review', review: 'renaming an approved bidirectional room sends it back to operator review (승인 → 승인대기(수정))', fields: ['subTitle'] };
      }
      if (l.approvalResult === '반려') return { type: 'review', review: 'changing a rejected bidirectional room requests review again (반려 → 승인대기)' };
      return NO_GATE;
    },
    delete: () => ({ type: 'destructive' }),
  },
  // A room with a bidirectional ID replies from a sender-number room; a converted room is one.
  liveRefs: (l) => [`chatbot:${l.service === 'chat' ? l.subNum : l.chatbotId}`],
  // A room with a bidirectional ID replies from another sender-number room: its subNum re-pointed. A converted room is the room itself: nothing to re-point.
  relink(l, to, seed) {
    const subNum = l.service === 'chat' ? to.get(`chatbot:${l.subNum}`) : undefined;
    if (subNum === undefined) return undefined;
    return { ...seed, op: 'update', liveId: l.chatbotId, request: { chatbot: { subNum } } };
  },
  after: (d) => {
    const room = d.service === 'chat' ? d.subNum : d.chatbotId;
    return room === undefined ? [] : [`chatbot:${room}`];
  },

};

/** The live bidirectional rooms that name `agencyId` as their agency (a room with a bidirectional ID, or a converted room): the service keeps that agency's access to the brand while any does (64393). */
export function roomsOfAgency(live: LiveBrand, agencyId: string): string[] {
  return (live.bidirectionalRooms ?? []).filter((r) => r.botAgencyId === agencyId).map((r) => r.chatbotId);
}

/** The live sender-number room `id`, if the brand has it. */
function sender(live: LiveBrand, id: string): ChatbotDetail | undefined {
  return live.chatbots.find((c) => c.chatbotId === id);
}

/** Converting waits for an approved room whose name the plan does not change: the service converts only such a room, and a rename goes to review first. */
function conversionGate(d: DesiredBidirectionalRoom, brand: DesiredBrand, live: LiveBrand): Gate {
  const room = sender(live, d.chatbotId);
  if (room === undefined) return unregistered(d.chatbotId, brand, 'convert it once it is registered and approved');
  if (room.approvalResult !== APPROVED) return { type: 'blocked', state: room.approvalResult, reason: `the service converts only an approved (${APPROVED}) sender-number room; wait for the room's review to finish` };
  const renamed = brand.chatbots.get(d.chatbotId)?.subTitle;
  if (renamed !== undefined && renamed !== room.subTitle) {
    return { type: 'blocked', state: 'renaming', reason: `this plan renames room ${d.chatbotId}, which sends it to review; convert it once the new name is approved` };
  }
  return NO_GATE;
}

/** A new room with a bidirectional ID replies from an approved sender-number room; one not approved yet blocks it. */
function replyNumberGate(d: DesiredBidirectionalRoom, brand: DesiredBrand, live: LiveBrand): Gate | undefined {
  if (d.subNum === undefined) return undefined;
  const room = sender(live, d.subNum);
  if (room === undefined) return unregistered(d.subNum, brand, 'register it and wait for its approval first');
  if (!WAS_APPROVED.includes(room.approvalResult)) return { type: 'blocked', state: room.approvalResult, reason: `reply number ${d.subNum} is not approved (${APPROVED}) yet; wait for its review to finish` };
  return undefined;
}

/** A sender-number room the brand does not have: one the manifests register (wait), or none at all (a wrong id). */
function unregistered(id: string, brand: DesiredBrand, then: string): Gate {
  if (brand.chatbots.has(id)) return { type: 'blocked', state: 'not registered', reason: `sender-number room ${id} is not registered yet; ${then}` };
  return { type: 'blocked', state: 'no such room', reason: `${id} is not a sender-number room of the brand, nor one the manifests declare under chatbots:; check the id` };
}

function liveFields(l: ChatbotDetail): Fields {
  if (l.service !== 'chat') return l.botAgencyId !== null ? { botAgencyId: l.botAgencyId } : {};
  const out: Fields = {
    subTitle: l.subTitle,
    subNum: l.subNum,
    display: l.display ?? '01',
    inputField: l.inputField ?? 1,
    saftyStatusYn: l.saftyStatusYn ?? 'Y',
  };
  if (l.subDescr !== null && l.subDescr !== undefined && l.subDescr !== '') out.subDescr = l.subDescr;
  if (l.botAgencyId !== null && l.botAgencyId !== undefined && l.botAgencyId !== '') out.botAgencyId = l.botAgencyId;
  return inFieldOrder(out, CHAT_FIELDS);
}

function toInfo(f: Fields): BiChatbotInfo {
  const info: BiChatbotInfo = {};
  if (f.subTitle !== undefined) info.subTitle = String(f.subTitle);
  if (f.subNum !== undefined) info.subNum = String(f.subNum);
  if (f.display !== undefined) info.display = String(f.display) as BiChatbotInfo['display'];
  info.inputField = Number(f.inputField ?? 1) === 0 ? 0 : 1;
  if (f.subDescr !== undefined) info.subDescr = String(f.subDescr);
  if (f.saftyStatusYn !== undefined) info.saftyStatusYn = String(f.saftyStatusYn) as 'Y' | 'N';
  if (f.botAgencyId !== undefined) info.botAgencyId = String(f.botAgencyId);
  return info;
}
