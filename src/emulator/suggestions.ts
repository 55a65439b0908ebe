// What the emulator refuses in an auto-reply's buttons and chips, with the public
// document's codes: 64358 `Invalid buttons format [%s]` for a button, 64359
// `Invalid chipList format [%s]` for a chip, the detail naming the field. The
// checks are the emulator's own reading of the document's action schemas (its
// `suggestion`, `action` and per-action objects); rcsctl's manifest schema and lint
// refuse the same faults before anything is sent.

import { SUGGESTION } from '../spec/limits.js';
import { fail } from './service-error.js';

type Obj = Record<string, unknown>;
/** A value check: true when the value holds. */
type Check = (v: unknown) => boolean;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A string of `min` to `max` UTF-16 code units. */
const text = (max = Infinity, min = 1): Check => (v) => typeof v === 'string' && v.length >= min && v.length <= max;
const bool: Check = (v) => typeof v === 'boolean';
const num = (min: number, max: number): Check => (v) => typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
const webUrl: Check = (v) => typeof v === 'string' && /^https?:\/\//i.test(v) && URL.canParse(v);
const anyUrl: Check = (v) => typeof v === 'string' && URL.canParse(v);
const phone: Check = (v) => typeof v === 'string' && /^\+?[0-9][0-9-]*$/.test(v);
const time: Check = (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v));
const anyObj: Check = isObj;

/** An object's fields, required ones marked with a leading `!`; a field not listed is refused. */
type Shape = { [field: string]: Check | Shape };

const SHAPES: Record<string, Shape[]> = {
  urlAction: [{ '!openUrl': { '!url': webUrl } }],
  localBrowserAction: [{ '!openUrl': { '!url': webUrl, isHalfView: bool, postParameter: anyObj } }],
  mapAction: [
    { '!showLocation': { '!location': { '!latitude': num(-90, 90), '!longitude': num(-180, 180), label: text(SUGGESTION.mapLabel) }, fallbackUrl: webUrl } },
    { '!requestLocationPush': { currentLocation: bool } },
  ],
  calendarAction: [{ '!createCalendarEvent': { '!startTime': time, '!endTime': time, '!title': text(SUGGESTION.calendarTitle), description: text(SUGGESTION.calendarDescription), fallbackUrl: webUrl } }],
  clipboardAction: [{ '!copyToClipboard': { '!text': text() } }],
  composeAction: [
    { '!composeTextMessage': { '!phoneNumber': text(), '!text': text(SUGGESTION.composeText, 0) } },
    { '!composeRecordingMessage': { '!phoneNumber': text(), '!type': (v) => v === 'AUDIO' || v === 'VIDEO' } },
  ],
  dialerAction: [{ '!dialPhoneNumber': { '!phoneNumber': phone, fallbackUrl: anyUrl } }],
};

/** The first field of `v` that breaks `shape`, as a path below `at`; undefined when none does. */
function breaks(v: unknown, shape: Shape, at: string): string | undefined {
  if (!isObj(v)) return at;
  const allowed = new Map(Object.entries(shape).map(([k, c]) => [k.replace(/^!/, ''), { check: c, required: k.startsWith('!') }]));
  for (const key of Object.keys(v)) if (!allowed.has(key)) return `${at}.${key}`;
  for (const [key, { check, required }] of allowed) {
    const value = v[key];
    if (value === undefined) {
      if (required) return `${at}.${key}`;
      continue;
    }
    const bad = typeof check === 'function' ? (check(value) ? undefined : `${at}.${key}`) : breaks(value, check, `${at}.${key}`);
    if (bad !== undefined) return bad;
  }
  return undefined;
}

/** The first fault of one suggestion, as a path below `at`; undefined when it holds. */
export function suggestionFault(raw: unknown, at: string): string | undefined {
  if (!isObj(raw)) return at;
  const keys = Object.keys(raw);
  if (keys.length !== 1 || (keys[0] !== 'action' && keys[0] !== 'reply')) return at;
  const part = raw[keys[0]];
  const path = `${at}.${keys[0]}`;
  if (!isObj(part)) return path;
  if (!text(SUGGESTION.displayText)(part.displayText)) return `${path}.displayText`;
  if (part.postback !== undefined && part.postback !== null) {
    if (!isObj(part.postback) || Object.keys(part.postback).some((k) => k !== 'data')) return `${path}.postback`;
    const data = part.postback.data;
    if (data !== undefined && data !== null && (typeof data !== 'string' || data.length > SUGGESTION.postbackData)) return `${path}.postback.data`;
  }
  if (keys[0] === 'reply') {
    const extra = Object.keys(part).find((k) => !['displayText', 'postback', 'autoReplyMsgId'].includes(k));
    return extra === undefined ? undefined : `${path}.${extra}`;
  }
  const types = Object.keys(part).filter((k) => k !== 'displayText' && k !== 'postback');
  if (types.length !== 1) return path;
  const type = types[0] as string;
  const shapes = SHAPES[type];
  if (shapes === undefined) return `${path}.${type}`;
  // Where an action type has two forms (mapAction, composeAction), the fault is named in the form the value chose.
  const value = part[type];
  const chosen = shapes.find((shape) => isObj(value) && Object.keys(shape).some((k) => k.startsWith('!') && value[k.slice(1)] !== undefined)) ?? shapes[0];
  return chosen === undefined ? undefined : shapes.some((shape) => breaks(value, shape, '') === undefined) ? undefined : breaks(value, chosen, `${path}.${type}`);
}

/** Refuse a malformed button (64358) or chip (64359), naming the field. */
export function checkSuggestion(raw: unknown, at: string, where: 'buttons' | 'chipList'): void {
  const fault = suggestionFault(raw, at);
  if (fault !== undefined) fail(where === 'buttons' ? 'invalidButtonsFormat' : 'invalidChipListFormat', fault);
}
