// Chatbots (rooms), the pure part: identified by chatbotId. Fields a manifest
// leaves out are not managed: the live value is kept and sent back.

import type { ChatbotDetail, ChatbotInfo } from '../../api/types.js';
import { NO_GATE, stepFile, type Gate, type PlanProblem } from '../../core/step.js';
import { matchById } from '../match.js';
import { roomPreview } from './preview.js';
import type { CreateChecked, Drawn, KindIdentity, KindPlanning, MatchResult, PartlyManaged, Previewable, Prunable, ReportsUnmanaged, Reviewed } from '../resource-kind.js';
import type { DesiredChatbot } from './types.js';

/** States in which the service accepts a room update (the service reference, Chatbot update). */
export const CHATBOT_UPDATABLE = ['저장', '반려', '승인'];

/** The room fields rcsctl compares and sends, with their documented defaults. */
const FIELDS = ['subTitle', 'subNum', 'display', 'inputField', 'rcsReply', 'subDescr', 'saftyStatusYn'] as const;
type ChatbotFields = Partial<Record<(typeof FIELDS)[number], string | number>>;

/** A room as both room kinds declare it: by chatbotId, perhaps named. */
interface DesiredRoom {
  chatbotId: string;
  subTitle?: string;
}

/** How both room kinds (this one and the bidirectional room kind) identify a room: by chatbotId, named by its subTitle, in its review state. */
export function roomIdentity<D extends DesiredRoom>(): KindIdentity<D, ChatbotDetail> {
  return {
    key: (d) => d.chatbotId,
    desiredName: (d) => d.subTitle ?? d.chatbotId,
    liveId: (l) => l.chatbotId,
    liveName: (l) => l.subTitle,
    liveState: (l) => l.approvalResult,
  };
}

/** Desired rooms paired with live ones by chatbotId, as both room kinds pair them. */
export function matchRooms<D extends DesiredRoom>(desired: D[], live: ChatbotDetail[]): MatchResult<D, ChatbotDetail> {
  return matchById(desired, live, (d) => d.chatbotId, (l) => l.chatbotId);
}

/**
 * `base` with the fields a manifest gives laid over it, in `fields` order (so
 * a plan reads them in that order, whatever `base` held first): a value
 * replaces, `''` removes the field, one left out keeps what `base` has. Both
 * room kinds normalise a desired room so.
 */
export function overlayFields<F extends string>(base: Partial<Record<F, string | number>>, d: Partial<Record<F, string | number>>, fields: readonly F[]): Partial<Record<F, string | number>> {
  const out = { ...base };
  for (const f of fields) {
    const v = d[f];
    if (v !== undefined && v !== '') out[f] = v;
    else if (v === '') delete out[f];
  }
  return inFieldOrder(out, fields);
}

/** `out`'s fields in `fields` order, those without a value left out. */
export function inFieldOrder<F extends string>(out: Partial<Record<F, string | number>>, fields: readonly F[]): Partial<Record<F, string | number>> {
  const ordered: Partial<Record<F, string | number>> = {};
  for (const f of fields) if (out[f] !== undefined) ordered[f] = out[f];
  return ordered;
}

/** The chatbot kind's pure part. */
export const chatbotPlanning: KindPlanning<DesiredChatbot, ChatbotDetail, 'chatbot'> & Previewable<DesiredChatbot> & Drawn<DesiredChatbot> & Reviewed & Prunable & PartlyManaged & CreateChecked<DesiredChatbot> & ReportsUnmanaged = {
  name: 'chatbot',
  label: 'room',
  reviewed: 'room',
  preview: roomPreview,
  drawing: { colour: ['#e2f3e5', '#1c5a2a'] },
  prune: 'chatbots',
  reportsUnmanaged: true,
  partialFields: true,

  desired: (brand) => [...brand.chatbots.values()],
  live: (live) => live.chatbots,
  identity: roomIdentity<DesiredChatbot>(),

  diff: {
    match: matchRooms,
    normaliseLive: (l) => liveFields(l),
    // In FIELDS order, so a new room's plan reads subTitle first, not the defaults.
    normaliseDesired: (d, _ctx, l) => overlayFields(l === undefined ? creationDefaults(d.chatbotId) : liveFields(l), d, FIELDS),
    createStep(d, _ctx, seed) {
      const info = toInfo(d.chatbotId, chatbotPlanning.diff.normaliseDesired(d, _ctx, undefined) as ChatbotFields);
      // The fields the manifest leaves out show as the service's defaults; the certificate as its own upload line.
      const defaults = creationDefaults(d.chatbotId);
      const changes = seed.changes.map((c) => (c.path in defaults && d[c.path as keyof ChatbotFields] === undefined ? { ...c, default: true as const } : c));
      const file = d.certificate !== undefined ? { file: { ...stepFile(d.certificate), sentAs: 'subscription certificate' } } : {};
      return { ...seed, changes, op: 'create', request: { chatbots: [info] }, ...file };
    },
    updateStep(d, l, ctx, seed) {
      const info = toInfo(d.chatbotId, chatbotPlanning.diff.normaliseDesired(d, ctx, l) as ChatbotFields);
      return { ...seed, op: 'update', liveId: l.chatbotId, request: { chatbot: info } };
    },
  },

  createProblems(d): PlanProblem[] {
    if (d.certificate !== undefined && d.subTitle !== undefined) return [];
    return [
      {
        code: 'E_PLAN_ROOM_CERTIFICATE',
        address: `chatbot.${d.chatbotId}`,
        message: `room ${d.chatbotId} does not exist; registering it needs \`subTitle\` and \`certificate: { path: … }\` (a subscription certificate issued within the last month)`,
        file: d.source.file,
        line: d.source.line,
      },
    ];
  },

  gates: {
    create: () => ({ type: 'review', review: 'a new room goes to operator review (승인대기) before messages can be sent' }),
    update(l, changes): Gate {
      if (!CHATBOT_UPDATABLE.includes(l.approvalResult)) {
        return { type: 'blocked', state: l.approvalResult, reason: `the service accepts room updates only in ${CHATBOT_UPDATABLE.join(', ')}; wait for the review to finish` };
      }
      if (l.approvalResult === '승인' && changes.some((c) => c.path === 'subTitle')) {
        return { type: 'review', review: 'renaming an approved room sends it back to operator review (승인 → 승인대기(수정))' };
      }
      if (l.approvalResult === '반려') return { type: 'review', review: 'updating a rejected room requests review again (반려 → 승인대기)' };
      return NO_GATE;
    },
    delete: () => ({ type: 'destructive' }),
  },
};

/**
 * What the service gives a new room for each field its registration leaves
 * out: display "01", inputField 1, rcsReply "1", saftyStatusYn "Y", and the
 * reply number (subNum) equal to the room's own number. rcsctl sends them as
 * such, so the plan shows exactly what the room will hold, marked `(default)`.
 */
export function creationDefaults(chatbotId: string): ChatbotFields {
  return { subNum: chatbotId, display: '01', inputField: 1, rcsReply: '1', saftyStatusYn: 'Y' };
}

function liveFields(l: ChatbotDetail): ChatbotFields {
  const out: ChatbotFields = {
    subTitle: l.subTitle,
    subNum: l.subNum,
    display: l.display ?? '01',
    inputField: l.inputField ?? 1,
    rcsReply: l.rcsReply ?? '1',
    saftyStatusYn: l.saftyStatusYn ?? 'Y',
  };
  if (l.subDescr !== null && l.subDescr !== undefined && l.subDescr !== '') out.subDescr = l.subDescr;
  if (out.subNum === undefined || out.subNum === null || out.subNum === '') delete out.subNum;
  return out;
}

function toInfo(chatbotId: string, f: ChatbotFields): ChatbotInfo {
  const info: ChatbotInfo = { mdn: chatbotId, subTitle: String(f.subTitle ?? '') };
  if (f.subNum !== undefined) info.subNum = String(f.subNum);
  if (f.rcsReply !== undefined) info.rcsReply = String(f.rcsReply) as '0' | '1';
  if (f.display !== undefined) info.display = String(f.display) as ChatbotInfo['display'] & string;
  if (f.inputField !== undefined) info.inputField = Number(f.inputField) as 0 | 1;
  if (f.subDescr !== undefined) info.subDescr = String(f.subDescr);
  if (f.saftyStatusYn !== undefined) info.saftyStatusYn = String(f.saftyStatusYn) as 'Y' | 'N';
  return info;
}
