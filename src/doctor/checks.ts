// `rcsctl doctor`: read-only checks of what rcsctl assumes about the service,
// against a real endpoint. Each check says ok or differs, with what rcsctl
// assumed, what the service said, and where the assumption comes from. Only
// GET requests are made (and POST /token when a client id and secret are
// configured): doctor never changes anything.

import type { Inspector, RawAnswer } from '../api/inspect.js';
import type { BrandRef } from '../api/transport.js';
import { ERRORS, SUCCESS_CODE } from '../contract/codes.js';
import type { DoctorCheck } from '../core/doctor-check.js';
import { KINDS, isSurveyed, type AnyKind, isDoctored, pluralOf } from '../kinds/index.js';
import type { DoctorSurvey } from '../kinds/resource-kind.js';

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
/** How many details of a surveyed kind doctor reads for its unset fields (it only needs examples). */
const MAX_SURVEY_DETAILS = 5;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const resultOf = (a: RawAnswer): Rec[] => (isRec(a.body) && Array.isArray(a.body.result) ? a.body.result.filter(isRec) : []);
const said = (a: RawAnswer): string => (a.error !== undefined ? `HTTP ${a.error.httpStatus} ${a.error.code} ${a.error.message}`.replace(/\s+/g, ' ').trim() : `HTTP ${a.status}`);

/** What doctor read of one surveyed kind: its list, and the items its unset fields are looked at in. */
interface Surveyed {
  kind: AnyKind & { survey: DoctorSurvey };
  items: Rec[];
  unsetIn: Rec[];
}

/**
 * Run every check against `inspect` for `brand`: the service-wide ones (the
 * token, the brand's room list answering, its envelope and paging), the ones
 * across the kinds that bring a survey (dates, states, unset fields), then
 * each kind's own. `account` is the run's RCSCTL_PERSON_ID, for the checks that read as an account.
 */
export async function runDoctor(inspect: Inspector, baseUrl: string, brand: BrandRef, account?: string): Promise<DoctorReport> {
  const checks: DoctorCheck[] = [];
  const base = `/api/1.1/brand/${encodeURIComponent(brand.id)}`;

  checks.push(await tokenCheck(inspect));

  // Every brand has a room list: whether it answers says whether the account may act on the brand.
  const rooms = await inspect.get(`${base}/chatbot`, { query: { offset: 0, limit: 1000 }, brand });
  checks.push(brandCheck(rooms, brand));
  if (rooms.error !== undefined) return finish(baseUrl, brand, checks);
  checks.push(envelopeCheck(rooms));
  const quirk = await inspect.get(`${base}/chatbot`, { query: { offset: 1, limit: 2 }, brand });
  checks.push(prevQuirkCheck(quirk));

  const surveyed = await survey(inspect, brand, base);
  checks.push(timestampCheck(surveyed));
  checks.push(statesCheck(surveyed));
  checks.push(unsetCheck(surveyed));
  // Each kind's checks of its own routes, in registry order.
  for (const kind of KINDS) if (isDoctored(kind)) checks.push(...(await kind.doctor({ inspect, brand, base, ...(account !== undefined ? { account } : {}) })));
  return finish(baseUrl, brand, checks);
}

/** Read each surveyed kind's list, and the first details where its unset fields are looked at there. */
async function survey(inspect: Inspector, brand: BrandRef, base: string): Promise<Surveyed[]> {
  const out: Surveyed[] = [];
  for (const kind of KINDS) {
    if (!isSurveyed(kind)) continue;
    const items = resultOf(await inspect.get(`${base}${kind.survey.list}`, { query: { offset: 0, limit: 1000 }, brand }));
    const detail = kind.survey.unset?.detail;
    const unsetIn: Rec[] = [];
    if (detail === undefined) unsetIn.push(...items);
    else for (const item of items.slice(0, MAX_SURVEY_DETAILS)) unsetIn.push(...resultOf(await inspect.get(`${base}${detail(item)}`, { brand })));
    out.push({ kind, items, unsetIn });
  }
  return out;
}

/** Several objects of a kind, for the checks' words (`auto-replies`, `rooms`). */

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

function formsSaid(seen: Set<string>): string {
  return seen.size === 0 ? 'not seen' : [...seen].join(' and ');
}

function timestampCheck(surveyed: Surveyed[]): DoctorCheck {
  const common = {
    id: 'timestamps',
    title: 'timestamp format',
    assumed: 'timestamps look like 2026-11-21T10:00:00.000+09 (milliseconds, hour-only zone)',
    doc: 'service reference, Common response envelope (timestamps)',
  };
  const values = surveyed.flatMap((s) => s.items).flatMap((i) => ['registerDate', 'updateDate', 'approvalDate'].map((k) => i[k]).filter((v): v is string => typeof v === 'string' && v !== ''));
  if (values.length === 0) return { ...common, status: 'skipped', said: `no ${surveyed.map((s) => s.kind.label).join(', ')} to read a date from` };
  const odd = values.filter((v) => !TIME.test(v));
  return odd.length === 0 ? { ...common, status: 'ok', said: `${values.length} dates, all in that form (e.g. ${values[0]})` } : { ...common, status: 'differs', said: `${odd.length} of ${values.length} dates differ, e.g. ${odd[0]}` };
}

function statesCheck(surveyed: Surveyed[]): DoctorCheck {
  const known = surveyed.filter((s) => s.kind.survey.states !== undefined);
  const common = {
    id: 'states',
    title: 'states seen',
    assumed: known.map((s) => `${pluralOf(s.kind)}: ${(s.kind.survey.states ?? []).join(', ')}`).join('; '),
    doc: 'service reference, States and transitions; public OpenAPI document, BrandLogo.approvalResult',
  };
  const seen: string[] = [];
  const unknown: string[] = [];
  for (const { kind, items } of known) {
    for (const i of items) {
      const s = `${kind.label} ${String(i.approvalResult)}`;
      if (!seen.includes(s)) seen.push(s);
      if (!(kind.survey.states ?? []).includes(String(i.approvalResult)) && !unknown.includes(s)) unknown.push(s);
    }
  }
  if (seen.length === 0) return { ...common, status: 'skipped', said: 'nothing to read a state from' };
  return unknown.length === 0 ? { ...common, status: 'ok', said: `seen: ${seen.join(', ')}` } : { ...common, status: 'differs', said: `not known to rcsctl: ${unknown.join(', ')} (seen: ${seen.join(', ')})` };
}

function unsetCheck(surveyed: Surveyed[]): DoctorCheck {
  const looked = surveyed.filter((s) => s.kind.survey.unset !== undefined);
  const how = { absent: 'is left out', null: 'is null with the key present' } as const;
  const common = {
    id: 'unset-fields',
    title: 'fields without a value',
    assumed: `${looked.map((s) => `a ${s.kind.label} field without a value ${how[s.kind.survey.unset?.form ?? 'absent']}`).join(', ')} (rcsctl reads absent, null and "" alike)`,
    doc: 'public OpenAPI document: Chatbot and ChatbotDetail (only chatbotId and brandId required), the brand messagebase detail example; BrandLogo',
  };
  const forms = looked.map((s) => {
    const seen = new Set<string>();
    for (const i of s.unsetIn)
      for (const f of s.kind.survey.unset?.fields ?? []) {
        if (!(f in i)) seen.add('absent');
        else if (i[f] === null) seen.add('null');
        else if (i[f] === '') seen.add('""');
      }
    return { kind: s.kind, form: s.kind.survey.unset?.form ?? 'absent', seen };
  });
  if (forms.every((f) => f.seen.size === 0)) return { ...common, status: 'skipped', said: 'every field looked at has a value' };
  const saidText = `unset ${forms.map((f) => `${f.kind.label} fields are ${formsSaid(f.seen)}`).join(', ')}`;
  const expected = forms.every((f) => f.seen.size === 0 || (f.seen.size === 1 && f.seen.has(f.form)));
  return expected ? { ...common, status: 'ok', said: saidText } : { ...common, status: 'differs', said: `${saidText}; rcsctl reads them as null` };
}
