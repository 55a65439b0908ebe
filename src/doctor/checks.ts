// `rcsctl doctor`: read-only checks of what rcsctl assumes about the service,
// against a real endpoint. Each check says ok or differs, with what rcsctl
// assumed, what the service said, and where the assumption comes from. Only
// GET requests are made (and POST /token when a client id and secret are
// configured): doctor never changes anything.

import type { Inspector, RawAnswer } from '../api/inspect.js';
import type { BrandRef } from '../api/transport.js';
import { mediaForm } from '../spec/media.js';
import { MESSAGEBASE_ALIASES } from '../spec/messagebases.js';
import { SERVICE_POSTBACK } from '../spec/postback.js';
import { ERRORS, SUCCESS_CODE } from '../contract/codes.js';
import type { DoctorCheck } from '../core/doctor-check.js';
import { KINDS } from '../kinds/index.js';

export type { CheckStatus, DoctorCheck } from '../core/doctor-check.js';

/** The whole report. */
export interface DoctorReport {
  baseUrl: string;
  brandId: string;
  checks: DoctorCheck[];
  /** True when no check differs. */
  ok: boolean;
}

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}$/;
const MEDIA = /^(media|subMedia)\d*$/;
const KNOWN_STATES = {
  autoReply: ['등록완료', '저장', '처리중'],
  chatbot: ['저장', '승인대기', '검수시작', '승인', '반려', '검수완료', '검수완료(수정)', '승인대기(수정)'],
  logo: ['저장', '승인대기', '검수시작', '승인', '반려', '검수완료', '승인대기(수정)', '검수시작(수정)', '반려(수정)', '검수완료(수정)'],
} as const;
/** How many auto-reply details doctor reads at most (it only needs examples). */
const MAX_DETAILS = 50;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const resultOf = (a: RawAnswer): Rec[] => (isRec(a.body) && Array.isArray(a.body.result) ? a.body.result.filter(isRec) : []);
const said = (a: RawAnswer): string => (a.error !== undefined ? `HTTP ${a.error.httpStatus} ${a.error.code} ${a.error.message}`.replace(/\s+/g, ' ').trim() : `HTTP ${a.status}`);

/** Run every check against `inspect` for `brand`. */
export async function runDoctor(inspect: Inspector, baseUrl: string, brand: BrandRef): Promise<DoctorReport> {
  const checks: DoctorCheck[] = [];
  const base = `/api/1.1/brand/${encodeURIComponent(brand.id)}`;

  checks.push(await tokenCheck(inspect));

  const rooms = await inspect.get(`${base}/chatbot`, { query: { offset: 0, limit: 1000 }, brand });
  checks.push(brandCheck(rooms, brand));
  if (rooms.error !== undefined) return finish(baseUrl, brand, checks);

  const autoReplies = await inspect.get(`${base}/autoreplymsg`, { query: { offset: 0, limit: 1000 }, brand });
  checks.push(envelopeCheck(autoReplies));
  const quirk = await inspect.get(`${base}/chatbot`, { query: { offset: 1, limit: 2 }, brand });
  checks.push(prevQuirkCheck(quirk));
  const logos = await inspect.get(`${base}/logo`, { query: { offset: 0, limit: 1000 }, brand });

  const details: Rec[] = [];
  for (const item of resultOf(autoReplies).slice(0, MAX_DETAILS)) {
    const d = await inspect.get(`${base}/autoreplymsg/${encodeURIComponent(String(item.autoReplyMsgId))}`, { brand });
    details.push(...resultOf(d));
  }
  const roomDetails: Rec[] = [];
  for (const item of resultOf(rooms).slice(0, 5)) {
    const d = await inspect.get(`${base}/chatbot/${encodeURIComponent(String(item.chatbotId))}`, { brand });
    roomDetails.push(...resultOf(d));
  }

  checks.push(timestampCheck([...resultOf(autoReplies), ...resultOf(rooms), ...resultOf(logos)]));
  checks.push(aliasCheck(resultOf(autoReplies)));
  checks.push(postbackCheck(details));
  checks.push(mediaCheck(details));
  checks.push(statesCheck(resultOf(autoReplies), resultOf(rooms), resultOf(logos)));
  checks.push(unsetCheck(roomDetails, resultOf(logos)));
  // Each kind's checks of its own routes, in registry order.
  for (const kind of KINDS) if (kind.doctor !== undefined) checks.push(...(await kind.doctor({ inspect, brand, base })));
  return finish(baseUrl, brand, checks);
}

function finish(baseUrl: string, brand: BrandRef, checks: DoctorCheck[]): DoctorReport {
  return { baseUrl, brandId: brand.id, checks, ok: checks.every((c) => c.status !== 'differs') };
}

async function tokenCheck(inspect: Inspector): Promise<DoctorCheck> {
  const common = {
    id: 'credentials',
    title: 'credentials and token issuance',
    assumed: 'POST /api/1.1/token answers {accessToken, expiresIn (epoch seconds as a string, in the future), userId, allowedIp[]}, not enveloped',
    doc: 'service reference, Authentication; public OpenAPI document, /token and TokenInfo',
  };
  const issued = inspect.issueToken();
  if (issued === undefined) return { ...common, status: 'skipped', said: 'a ready token is configured: no token was issued (its use is checked with the brand)' };
  const a = await issued;
  if (a.error !== undefined) return { ...common, status: 'differs', said: said(a), serviceCode: a.error.code };
  const b = a.body;
  const problems: string[] = [];
  if (!isRec(b)) problems.push('the answer is not an object');
  else {
    if (typeof b.accessToken !== 'string' || b.accessToken === '') problems.push('no accessToken');
    if (typeof b.expiresIn !== 'string' || !/^\d+$/.test(b.expiresIn)) problems.push(`expiresIn is ${JSON.stringify(b.expiresIn)}`);
    else if (Number(b.expiresIn) * 1000 <= Date.now()) problems.push(`expiresIn ${b.expiresIn} is not in the future`);
    if (typeof b.userId !== 'string') problems.push('no userId');
    if (!Array.isArray(b.allowedIp)) problems.push('no allowedIp list');
  }
  return problems.length === 0
    ? { ...common, status: 'ok', said: `a token was issued to ${String((b as Rec).userId)}, expiring at epoch ${String((b as Rec).expiresIn)}` }
    : { ...common, status: 'differs', said: problems.join('; ') };
}

function brandCheck(a: RawAnswer, brand: BrandRef): DoctorCheck {
  const common = {
    id: 'brand',
    title: 'brand key and role',
    assumed: `the account holds a brand role on ${brand.id}${brand.key !== undefined ? ' and the brand key matches' : ' (no brand key given: fine for master and manager accounts, not for agencies)'}`,
    doc: 'service reference, Authentication (X-RCS-Brandkey, roles)',
  };
  if (a.error === undefined) return { ...common, status: 'ok', said: `the room list of ${brand.id} answered HTTP ${a.status}` };
  const hint = a.error.code === ERRORS.noBrandPermission.code ? ' (no role on the brand)' : a.error.code === ERRORS.missingBrandKey.code ? ' (an agency must send the brand key)' : a.error.code === ERRORS.invalidBrandKey.code ? ' (wrong brand key)' : '';
  return { ...common, status: 'differs', said: said(a) + hint, serviceCode: a.error.code };
}

function envelopeCheck(a: RawAnswer): DoctorCheck {
  const common = {
    id: 'list-envelope',
    title: 'list envelope and paging',
    assumed: `a list page is {code "${SUCCESS_CODE}", status 200, desc null, result[], pagination {total, offset, limit}, links {prev, next}}, and limit 1000 is accepted`,
    doc: 'service reference, Common response envelope and Limits (List paging)',
  };
  if (a.status === 204) return { ...common, status: 'ok', said: 'HTTP 204 for an empty list (read as an empty page)' };
  if (a.error !== undefined) return { ...common, status: 'differs', said: said(a) };
  const b = a.body;
  const problems: string[] = [];
  if (!isRec(b)) problems.push('not an object');
  else {
    if (b.code !== SUCCESS_CODE) problems.push(`code ${JSON.stringify(b.code)}`);
    if (b.status !== 200) problems.push(`status ${JSON.stringify(b.status)}`);
    if (b.desc !== null) problems.push(`desc ${JSON.stringify(b.desc)}`);
    if (!Array.isArray(b.result)) problems.push('result is not a list');
    const p = b.pagination;
    if (!isRec(p) || typeof p.total !== 'number' || typeof p.offset !== 'number' || typeof p.limit !== 'number') problems.push(`pagination ${JSON.stringify(p)}`);
    else if (p.limit !== 1000) problems.push(`limit 1000 was asked, pagination.limit says ${p.limit}`);
    if (!isRec(b.links) || !('prev' in b.links) || !('next' in b.links)) problems.push(`links ${JSON.stringify(b.links)}`);
  }
  const total = isRec(b) && isRec(b.pagination) ? b.pagination.total : undefined;
  return problems.length === 0 ? { ...common, status: 'ok', said: `as assumed (total ${String(total)})` } : { ...common, status: 'differs', said: problems.join('; ') };
}

function prevQuirkCheck(a: RawAnswer): DoctorCheck {
  const common = {
    id: 'links-prev',
    title: 'links.prev quirk',
    assumed: 'links.prev is null when offset is positive and below limit (asked: offset 1, limit 2)',
    doc: 'service reference, Common response envelope (links.prev)',
  };
  if (a.status === 204) return { ...common, status: 'skipped', said: 'HTTP 204: the room list is empty, so the page has no links' };
  if (a.error !== undefined) return { ...common, status: 'differs', said: said(a) };
  const links = isRec(a.body) && isRec(a.body.links) ? a.body.links : undefined;
  if (links === undefined) return { ...common, status: 'differs', said: 'the page has no links' };
  return links.prev === null ? { ...common, status: 'ok', said: 'links.prev is null' } : { ...common, status: 'differs', said: `links.prev is ${JSON.stringify(links.prev)}` };
}

function timestampCheck(items: Rec[]): DoctorCheck {
  const common = {
    id: 'timestamps',
    title: 'timestamp format',
    assumed: 'timestamps look like 2026-11-21T10:00:00.000+09 (milliseconds, hour-only zone)',
    doc: 'service reference, Common response envelope (timestamps)',
  };
  const values = items.flatMap((i) => ['registerDate', 'updateDate', 'approvalDate'].map((k) => i[k]).filter((v): v is string => typeof v === 'string' && v !== ''));
  if (values.length === 0) return { ...common, status: 'skipped', said: 'no auto-reply, room or logo to read a date from' };
  const odd = values.filter((v) => !TIME.test(v));
  return odd.length === 0 ? { ...common, status: 'ok', said: `${values.length} dates, all in that form (e.g. ${values[0]})` } : { ...common, status: 'differs', said: `${odd.length} of ${values.length} dates differ, e.g. ${odd[0]}` };
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

function statesCheck(autoReplies: Rec[], rooms: Rec[], logos: Rec[]): DoctorCheck {
  const common = {
    id: 'states',
    title: 'states seen',
    assumed: `auto-replies: ${KNOWN_STATES.autoReply.join(', ')}; rooms: ${KNOWN_STATES.chatbot.join(', ')}; logos: also 검수시작(수정), 반려(수정)`,
    doc: 'service reference, States and transitions; public OpenAPI document, BrandLogo.approvalResult',
  };
  const seen: string[] = [];
  const unknown: string[] = [];
  const visit = (kind: keyof typeof KNOWN_STATES, items: Rec[]) => {
    for (const i of items) {
      const s = String(i.approvalResult);
      if (!seen.includes(`${kind} ${s}`)) seen.push(`${kind} ${s}`);
      if (!(KNOWN_STATES[kind] as readonly string[]).includes(s) && !unknown.includes(`${kind} ${s}`)) unknown.push(`${kind} ${s}`);
    }
  };
  visit('autoReply', autoReplies);
  visit('chatbot', rooms);
  visit('logo', logos);
  if (seen.length === 0) return { ...common, status: 'skipped', said: 'nothing to read a state from' };
  return unknown.length === 0 ? { ...common, status: 'ok', said: `seen: ${seen.join(', ')}` } : { ...common, status: 'differs', said: `not known to rcsctl: ${unknown.join(', ')} (seen: ${seen.join(', ')})` };
}

function formsSaid(seen: Set<string>): string {
  return seen.size === 0 ? 'not seen' : [...seen].join(' and ');
}

function unsetCheck(rooms: Rec[], logos: Rec[]): DoctorCheck {
  const common = {
    id: 'unset-fields',
    title: 'fields without a value',
    assumed: 'a room field without a value is left out, a logo field is null with the key present (rcsctl reads absent, null and "" alike)',
    doc: 'public OpenAPI document: Chatbot and ChatbotDetail (only chatbotId and brandId required), the brand messagebase detail example; BrandLogo',
  };
  const fields = { room: ['groupId', 'botAgencyId', 'approvalReason', 'approvalDate', 'webhook', 'botTcPage', 'subDescr'], logo: ['description', 'approvalReason', 'approvalDate'] };
  const forms = { room: new Set<string>(), logo: new Set<string>() };
  const note = (items: Rec[], names: string[], seen: Set<string>) => {
    for (const i of items)
      for (const f of names) {
        if (!(f in i)) seen.add('absent');
        else if (i[f] === null) seen.add('null');
        else if (i[f] === '') seen.add('""');
      }
  };
  note(rooms, fields.room, forms.room);
  note(logos, fields.logo, forms.logo);
  if (forms.room.size + forms.logo.size === 0) return { ...common, status: 'skipped', said: 'every field looked at has a value' };
  const said = `unset room fields are ${formsSaid(forms.room)}, logo fields ${formsSaid(forms.logo)}`;
  const expected = (seen: Set<string>, form: string) => seen.size === 0 || (seen.size === 1 && seen.has(form));
  return expected(forms.room, 'absent') && expected(forms.logo, 'null') ? { ...common, status: 'ok', said } : { ...common, status: 'differs', said: `${said}; rcsctl reads them as null` };
}
