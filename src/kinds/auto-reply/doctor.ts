// The auto-reply kind's own doctor checks: how the service stores and reads
// back what rcsctl sends (messagebase aliases, postback data filled in, the
// form of an uploaded image's id), looked at in the brand's auto-replies as
// they are (read-only GETs; doctor never creates one to look at).

import type { RawAnswer } from '../../api/inspect.js';
import type { DoctorCheck } from '../../core/doctor-check.js';
import { mediaForm } from '../../spec/media.js';
import { MESSAGEBASE_ALIASES } from '../../spec/messagebases.js';
import { SERVICE_POSTBACK } from '../../spec/postback.js';
import type { DoctorEnv } from '../resource-kind.js';

/** How many auto-reply details doctor reads at most (it only needs examples). */
const MAX_DETAILS = 50;
const MEDIA = /^(media|subMedia)\d*$/;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const resultOf = (a: RawAnswer): Rec[] => (isRec(a.body) && Array.isArray(a.body.result) ? a.body.result.filter(isRec) : []);

/** The list, the first details, and the three checks of what they hold. */
export async function autoReplyDoctor({ inspect, brand, base }: DoctorEnv): Promise<DoctorCheck[]> {
  const list = resultOf(await inspect.get(`${base}/autoreplymsg`, { query: { offset: 0, limit: 1000 }, brand }));
  const details: Rec[] = [];
  for (const item of list.slice(0, MAX_DETAILS)) {
    const d = await inspect.get(`${base}/autoreplymsg/${encodeURIComponent(String(item.autoReplyMsgId))}`, { brand });
    details.push(...resultOf(d));
  }
  return [aliasCheck(list), postbackCheck(details), mediaCheck(details)];
}

function aliasCheck(items: Rec[]): DoctorCheck {
  const common = {
    id: 'messagebase-aliases',
    title: 'messagebase aliases',
    assumed: `the service stores ${Object.entries(MESSAGEBASE_ALIASES).map(([a, b]) => `${a} as ${b}`).join(' and ')}; medium sliders CCwMhM0200..0600 as themselves`,
    doc: 'public OpenAPI document, RegAutoReplyMsgInfo.messagebaseId',
  };
  const aliased = items.filter((i) => typeof i.messagebaseId === 'string' && MESSAGEBASE_ALIASES[i.messagebaseId] !== undefined);
  if (items.length === 0) return { ...common, status: 'skipped', said: 'the brand has no auto-reply to look at (doctor never creates one)' };
  if (aliased.length === 0) return { ...common, status: 'ok', said: `no auto-reply is stored under an id rcsctl expects to be mapped (${items.length} looked at)` };
  return { ...common, status: 'differs', said: `${aliased.length} auto-replies are stored under an unmapped alias, e.g. ${String(aliased[0]?.autoReplyMsgId)} as ${String(aliased[0]?.messagebaseId)}` };
}

function suggestionsOf(d: Rec): Rec[] {
  const out: Rec[] = [];
  const visit = (s: unknown) => {
    if (!isRec(s)) return;
    for (const k of ['action', 'reply']) if (isRec(s[k])) out.push(s[k]);
  };
  if (Array.isArray(d.buttons)) for (const g of d.buttons) if (isRec(g) && Array.isArray(g.suggestions)) g.suggestions.forEach(visit);
  if (Array.isArray(d.chipList)) d.chipList.forEach(visit);
  return out;
}

function postbackCheck(details: Rec[]): DoctorCheck {
  const common = {
    id: 'postback-fill',
    title: 'postback fill on read',
    assumed: 'every suggestion read back carries postback.data; data left empty is filled as postbackId=<id>;;',
    doc: 'service reference, Button and action structures (postback.data)',
  };
  const all = details.flatMap(suggestionsOf);
  if (all.length === 0) return { ...common, status: 'skipped', said: 'no auto-reply with buttons or chips to look at' };
  const missing = all.filter((s) => !isRec(s.postback) || typeof s.postback.data !== 'string' || s.postback.data === '');
  const filled = all.filter((s) => isRec(s.postback) && typeof s.postback.data === 'string' && SERVICE_POSTBACK.test(s.postback.data)).length;
  if (missing.length > 0) return { ...common, status: 'differs', said: `${missing.length} of ${all.length} suggestions came back without postback data` };
  return { ...common, status: 'ok', said: `${all.length} suggestions, ${filled} with data filled in by the service` };
}

function mediaCheck(details: Rec[]): DoctorCheck {
  const common = {
    id: 'media-form',
    title: 'how answers name an uploaded image',
    assumed: 'a media body field reads back as the bare fileId rcsctl sent (the maapfile://<fileId> form is read as the same file)',
    doc: 'service reference, Auto-reply file; public OpenAPI document, AutoReplyMsgInfo.body',
  };
  const values = details.flatMap((d) => (isRec(d.body) ? Object.entries(d.body).filter(([k, v]) => MEDIA.test(k) && typeof v === 'string' && v !== '').map(([, v]) => v as string) : []));
  if (values.length === 0) return { ...common, status: 'skipped', said: 'no auto-reply with an image to look at' };
  const forms = new Set(values.map((v) => (/^[a-z]+:\/\//i.test(v) && mediaForm(v) !== 'maapfile' ? 'other' : mediaForm(v))));
  const example = values.find((v) => mediaForm(v) !== 'fileId') ?? values[0];
  if (forms.size === 1 && forms.has('fileId')) return { ...common, status: 'ok', said: `${values.length} media fields, all bare fileIds (e.g. ${values[0]})` };
  return { ...common, status: 'differs', said: `media fields come back as ${[...forms].join(' and ')} (e.g. ${example})${forms.has('other') ? '' : '; rcsctl reads this form as the same file'}` };
}
