// The rules a template must follow against its form, as the public OpenAPI
// document states them, in one pure module that the emulator (to refuse) and
// lint (to explain, with positions) both use:
// - a v1 (text) template's formattedString is the form's, where only the
//   attributes a widget's widgetPolicy.allowedAttributes names may change;
// - a cell form's rows may be removed (one must remain), and one of the two
//   cells of a row;
// - a title-free form's left title is fixed text of at most 8 characters, and
//   its right title may be removed or hold one variable used elsewhere;
// - variables are `{{name}}`, name of letters, digits, Hangul or `_`, at most 20;
// - buttons: at most policyInfo.maxButtonCount per card, one action each, no
//   variable in displayText or postback, and in a URL only after the host;
// - a v2 template sets the form's params: known names, mandatory ones present,
//   string lengths (strSize), URLs, and files as `maapfile://<fileId>`.

import type { MessagebaseForm, TemplateParamInfo } from '../contract/wire.js';

/** A path into the template request: `['formattedString', 'RCSMessage', …, 'children', 0, 'text']`. */
export type PolicyPath = (string | number)[];

/** What a problem is about; the emulator answers each with its own code. */
export type PolicyArea = 'formattedString' | 'body' | 'buttons' | 'file' | 'form';

/** One broken rule. */
export interface PolicyProblem {
  area: PolicyArea;
  path: PolicyPath;
  message: string;
}

/** A valid variable name (ParamInfo.param: letters, digits, Hangul, `_`; at most 20). */
export const VARIABLE_NAME = /^[0-9A-Za-z가-힣_]{1,20}$/;
const VARIABLE = /\{\{([^{}]*)\}\}/g;

/** The action types a button may carry (the document's `action` schema). */
export const ACTION_TYPES = ['urlAction', 'dialerAction', 'mapAction', 'calendarAction', 'composeAction', 'clipboardAction', 'localBrowserAction'] as const;

/** Longest fixed left title of a title-free form. */
export const TITLE_FREE_LEFT_MAX = 8;

/** The variables `{{…}}` written in a string, in order. */
export function variablesIn(s: string): string[] {
  return [...s.matchAll(VARIABLE)].map((m) => m[1] as string);
}

/** A text form takes a formattedString (v1); a form with params takes a body (v2). */
export function isTextForm(form: MessagebaseForm): boolean {
  return form.params.length === 0;
}

/** Title-free forms are grouped under this category. */
export function isTitleFree(form: Pick<MessagebaseForm, 'bizCategory'>): boolean {
  return form.bizCategory === '타이틀 자유형';
}

/** Cell (style) forms. */
export function isCellForm(form: Pick<MessagebaseForm, 'cardType'>): boolean {
  return form.cardType === 'Cell';
}

/** The path (inside openrichcardMessage.layout) of a title-free form's title row. */
const TITLE_ROW: PolicyPath = ['children', 0, 'children', 0];

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => same(x, (b as unknown[])[i]));
  const ak = Object.keys(a as Obj).filter((k) => (a as Obj)[k] !== undefined);
  const bk = Object.keys(b as Obj).filter((k) => (b as Obj)[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => same((a as Obj)[k], (b as Obj)[k]));
}

function samePath(a: PolicyPath, b: PolicyPath): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The rows container of a cell form, relative to the layout: the first
 * container (depth first) holding at least two horizontal rows of text cells.
 */
export function cellRowsPath(form: MessagebaseForm): PolicyPath | undefined {
  const isRow = (n: unknown): boolean =>
    isObj(n) && n.widget === 'LinearLayout' && n.orientation === 'horizontal' && Array.isArray(n.children) && n.children.length > 0 && n.children.every((c) => isObj(c) && c.widget === 'TextView');
  const visit = (n: unknown, path: PolicyPath): PolicyPath | undefined => {
    if (!isObj(n) || !Array.isArray(n.children)) return undefined;
    if (n.children.filter(isRow).length >= 2) return path;
    for (let i = 0; i < n.children.length; i++) {
      const found = visit(n.children[i], [...path, 'children', i]);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return visit(layoutOf(form.formattedString), []);
}

function layoutOf(fs: unknown): unknown {
  return isObj(fs) && isObj(fs.RCSMessage) && isObj(fs.RCSMessage.openrichcardMessage) ? fs.RCSMessage.openrichcardMessage.layout : undefined;
}

/** Check a v1 template's formattedString against its form. */
export function checkFormattedString(form: MessagebaseForm, fs: unknown): PolicyProblem[] {
  const out: PolicyProblem[] = [];
  const root: PolicyPath = ['formattedString'];
  const bad = (path: PolicyPath, message: string): void => {
    out.push({ area: 'formattedString', path, message });
  };
  if (!isTextForm(form)) {
    out.push({ area: 'form', path: ['messagebaseformId'], message: `form ${form.messagebaseformId} is an image form: set its params in \`body\` instead of a formattedString` });
    return out;
  }
  const fr = (form.formattedString as Obj).RCSMessage as Obj;
  if (!isObj(fs) || !isObj(fs.RCSMessage) || !isObj(fs.RCSMessage.openrichcardMessage)) {
    bad(root, 'must hold RCSMessage.openrichcardMessage, as the form does');
    return out;
  }
  const tr = fs.RCSMessage;
  for (const key of keysOf(fr, tr)) {
    if (key !== 'openrichcardMessage' && !same(fr[key], tr[key])) bad([...root, 'RCSMessage', key], `${key} is the form's and may not change`);
  }
  const fo = fr.openrichcardMessage as Obj;
  const to = tr.openrichcardMessage as Obj;
  const cardPath: PolicyPath = [...root, 'RCSMessage', 'openrichcardMessage'];
  for (const key of keysOf(fo, to)) {
    if (key !== 'layout' && key !== 'suggestions' && !same(fo[key], to[key])) bad([...cardPath, key], `${key} is the form's and may not change`);
  }
  const layoutPath: PolicyPath = [...cardPath, 'layout'];
  const rows = isCellForm(form) ? cellRowsPath(form) : undefined;
  const titleFree = isTitleFree(form);
  checkWidget(fo.layout, to.layout, [], { bad: (p, m) => bad([...layoutPath, ...p], m), rows, titleFree });
  out.push(...checkSuggestions(to.suggestions, [...cardPath, 'suggestions'], form.policyInfo.maxButtonCount, 'formattedString'));
  if (titleFree) checkTitleFree(to, cardPath, bad);
  checkVariableNames(fs, root, bad);
  return out;
}

interface WidgetRules {
  bad(path: PolicyPath, message: string): void;
  /** The cell rows container, relative to the layout. */
  rows: PolicyPath | undefined;
  titleFree: boolean;
}

function keysOf(a: Obj, b: Obj): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])];
}

function checkWidget(f: unknown, t: unknown, path: PolicyPath, rules: WidgetRules): void {
  if (!isObj(f)) return;
  const widget = String(f.widget ?? 'widget');
  if (!isObj(t)) return rules.bad(path, `must be the form's ${widget}`);
  const policy = isObj(f.widgetPolicy) && Array.isArray(f.widgetPolicy.allowedAttributes) ? (f.widgetPolicy.allowedAttributes as string[]) : [];
  if (t.widgetPolicy !== undefined && !same(t.widgetPolicy, f.widgetPolicy)) rules.bad([...path, 'widgetPolicy'], 'widgetPolicy is the form\'s and may not change (leave it out or copy it)');
  for (const key of keysOf(f, t)) {
    if (key === 'widgetPolicy' || key === 'children' || same(f[key], t[key]) || policy.includes(key)) continue;
    const allows = policy.length === 0 ? 'the form allows no change to it' : `the form allows only ${policy.join(', ')}`;
    if (t[key] === undefined) rules.bad([...path, key], `${key} of this ${widget} may not be removed (${allows})`);
    else if (f[key] === undefined) rules.bad([...path, key], `this ${widget} has no ${key} in the form and may not gain one (${allows})`);
    else rules.bad([...path, key], `${key} of this ${widget} may not change (${allows})`);
  }
  if (!Array.isArray(f.children)) {
    if (t.children !== undefined) rules.bad([...path, 'children'], `this ${widget} has no children in the form`);
    return;
  }
  if (!Array.isArray(t.children)) return rules.bad([...path, 'children'], `must hold the form's ${f.children.length} children`);
  const fc = f.children as unknown[];
  const tc = t.children as unknown[];
  const at = (i: number): PolicyPath => [...path, 'children', i];
  if (rules.rows !== undefined && samePath(path, rules.rows)) return checkRows(fc, tc, path, rules);
  if (rules.titleFree && samePath(path, TITLE_ROW) && tc.length === 1 && fc.length === 2) {
    // The right title may be removed.
    return checkWidget(fc[0], tc[0], at(0), rules);
  }
  if (tc.length !== fc.length) return rules.bad([...path, 'children'], `must hold the form's ${fc.length} children, not ${tc.length}`);
  fc.forEach((c, i) => checkWidget(c, tc[i], at(i), rules));
}

/** Cell rows: any row or line may be removed, one row must remain; a row may drop one of its two cells. */
function checkRows(fc: unknown[], tc: unknown[], path: PolicyPath, rules: WidgetRules): void {
  let j = 0;
  let rowsLeft = 0;
  for (let i = 0; i < tc.length; i++) {
    const t = tc[i];
    const widget = isObj(t) ? t.widget : undefined;
    while (j < fc.length && (fc[j] as Obj).widget !== widget) j++;
    if (j >= fc.length) return rules.bad([...path, 'children', i], 'rows may be removed or kept in the form\'s order, not added or moved');
    const f = fc[j] as Obj;
    if (widget === 'LinearLayout') {
      rowsLeft++;
      checkRow(f, t as Obj, [...path, 'children', i], rules);
    } else checkWidget(f, t, [...path, 'children', i], rules);
    j++;
  }
  if (rowsLeft === 0) rules.bad([...path, 'children'], 'a cell template keeps at least one row');
}

function checkRow(f: Obj, t: Obj, path: PolicyPath, rules: WidgetRules): void {
  const fc = f.children as unknown[];
  const tc = t.children;
  if (Array.isArray(tc) && tc.length === 1 && fc.length === 2) {
    // One of the two cells is gone: compare with whichever it matches better.
    const { children: _f, ...fRest } = f;
    const { children: _t, ...tRest } = t;
    checkWidget({ ...fRest }, { ...tRest }, path, rules);
    const trial = (k: number): number => {
      let n = 0;
      checkWidget(fc[k], tc[0], [...path, 'children', 0], { ...rules, bad: () => void n++ });
      return n;
    };
    checkWidget(fc[trial(0) <= trial(1) ? 0 : 1], tc[0], [...path, 'children', 0], rules);
    return;
  }
  checkWidget(f, t, path, rules);
}

function checkTitleFree(card: Obj, cardPath: PolicyPath, bad: (p: PolicyPath, m: string) => void): void {
  const row = dig(card.layout, TITLE_ROW);
  if (!isObj(row) || !Array.isArray(row.children)) return;
  const rowPath: PolicyPath = [...cardPath, 'layout', ...TITLE_ROW, 'children'];
  const left = isObj(row.children[0]) ? row.children[0].text : undefined;
  if (typeof left === 'string') {
    if (variablesIn(left).length > 0) bad([...rowPath, 0, 'text'], 'the left title of a title-free template is fixed text: no variables');
    else if ([...left].length > TITLE_FREE_LEFT_MAX) bad([...rowPath, 0, 'text'], `the left title of a title-free template is at most ${TITLE_FREE_LEFT_MAX} characters, not ${[...left].length}`);
  }
  const right = isObj(row.children[1]) ? row.children[1].text : undefined;
  if (typeof right !== 'string' || right === '') return;
  const own = /^\{\{([^{}]+)\}\}$/.exec(right);
  // The variables used anywhere but in the right title.
  const elsewhere = new Set<string>();
  const collect = (v: unknown): void => {
    if (typeof v === 'string') variablesIn(v).forEach((x) => elsewhere.add(x));
    else if (Array.isArray(v)) v.forEach(collect);
    else if (isObj(v)) Object.values(v).forEach(collect);
  };
  collect({ ...card, layout: replaceAt(card.layout, [...TITLE_ROW, 'children', 1, 'text'], '') });
  if (own === null || !elsewhere.has(own[1] as string)) {
    const known = elsewhere.size === 0 ? 'the template defines none' : `defined: ${[...elsewhere].join(', ')}`;
    bad([...rowPath, 1, 'text'], `the right title of a title-free template holds only one variable that the text or buttons define (${known})`);
  }
}

function dig(v: unknown, path: PolicyPath): unknown {
  let cur = v;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}

function replaceAt(v: unknown, path: PolicyPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...PolicyPath];
  if (Array.isArray(v)) return v.map((x, i) => (i === head ? replaceAt(x, rest, value) : x));
  if (isObj(v)) return { ...v, [head]: replaceAt(v[head], rest, value) };
  return v;
}

function checkVariableNames(v: unknown, path: PolicyPath, bad: (p: PolicyPath, m: string) => void): void {
  if (typeof v === 'string') {
    for (const name of variablesIn(v)) {
      if (!VARIABLE_NAME.test(name)) bad(path, `variable {{${name}}}: a name is 1 to 20 letters, digits, Hangul or _`);
    }
  } else if (Array.isArray(v)) v.forEach((x, i) => checkVariableNames(x, [...path, i], bad));
  else if (isObj(v)) for (const [k, x] of Object.entries(v)) checkVariableNames(x, [...path, k], bad);
}

/** Check buttons: a list of suggestions, at most `max`. */
export function checkSuggestions(list: unknown, path: PolicyPath, max: number, area: PolicyArea): PolicyProblem[] {
  const out: PolicyProblem[] = [];
  const bad = (p: PolicyPath, message: string): void => {
    out.push({ area, path: p, message });
  };
  if (list === undefined) return out;
  if (!Array.isArray(list)) {
    bad(path, 'must be a list of buttons');
    return out;
  }
  if (list.length > max) bad(path, `at most ${max} button${max === 1 ? '' : 's'}, not ${list.length}`);
  list.forEach((s, i) => {
    const at: PolicyPath = [...path, i, 'action'];
    const action = isObj(s) ? s.action : undefined;
    if (!isObj(action)) return bad([...path, i], 'a button is {action: {…}}');
    const types = ACTION_TYPES.filter((t) => action[t] !== undefined);
    if (types.length !== 1) bad(at, `a button carries exactly one of ${ACTION_TYPES.join(', ')}`);
    if (typeof action.displayText !== 'string' || action.displayText === '') bad([...at, 'displayText'], 'a button needs a displayText');
    else if (variablesIn(action.displayText).length > 0) bad([...at, 'displayText'], 'displayText may not hold a variable');
    const data = isObj(action.postback) ? action.postback.data : undefined;
    if (typeof data === 'string' && variablesIn(data).length > 0) bad([...at, 'postback', 'data'], 'postback data may not hold a variable');
    const url = isObj(action.urlAction) && isObj(action.urlAction.openUrl) ? action.urlAction.openUrl.url : undefined;
    if (typeof url === 'string' && url.includes('{{') && !/^https?:\/\/[^/{}]+\/.*\{\{/.test(url)) {
      bad([...at, 'urlAction', 'openUrl', 'url'], 'a URL may hold variables only in its path, after the host (https://example.com/{{id}})');
    }
    checkVariableNames(action, at, bad);
  });
  return out;
}

/** The file id in a v2 file value `maapfile://<fileId>`, or undefined. */
export function maapFileId(value: string): string | undefined {
  const m = /^maapfile:\/\/(.+)$/.exec(value);
  return m === null ? undefined : m[1];
}

/** A template image as a body check sees it: its size in pixels (0 when not measured), and how to name it. */
export interface TemplateImage {
  width: number;
  height: number;
  name: string;
}

/**
 * Check a v2 template's body and buttons against its form; `fileOf` gives an
 * uploaded file by id (undefined: no such file), so that an unknown file and
 * an image of another size than its param asks are found.
 */
export function checkTemplateBody(form: MessagebaseForm, body: unknown, buttons: unknown, fileOf?: (fileId: string) => TemplateImage | undefined): PolicyProblem[] {
  const out: PolicyProblem[] = [];
  const bad = (area: PolicyArea, path: PolicyPath, message: string): void => {
    out.push({ area, path, message });
  };
  if (isTextForm(form)) {
    bad('form', ['messagebaseformId'], `form ${form.messagebaseformId} is a text form: write its formattedString instead of a body`);
    return out;
  }
  const names = form.params.filter((p) => p.type === 'string' || p.type === 'file').map((p) => p.param);
  if (!Array.isArray(body)) {
    bad('body', ['body'], 'must be a list of {param, value}');
    return out;
  }
  const seen = new Set<string>();
  body.forEach((item, i) => {
    const at: PolicyPath = ['body', i];
    if (!isObj(item)) return bad('body', at, 'an entry is {param, value} or {lineIndex}');
    if (item.lineIndex !== undefined) {
      if (!Number.isInteger(item.lineIndex) || (item.lineIndex as number) < 1 || (item.lineIndex as number) > 9) bad('body', [...at, 'lineIndex'], 'lineIndex is 1 to 9');
      return;
    }
    const p: TemplateParamInfo | undefined = typeof item.param === 'string' ? form.params.find((x) => x.param === item.param) : undefined;
    if (p === undefined || !names.includes(p.param)) return bad('body', [...at, 'param'], `the form has no param "${String(item.param)}"; it takes ${names.join(', ')}`);
    if (seen.has(p.param)) bad('body', [...at, 'param'], `param "${p.param}" is set twice`);
    seen.add(p.param);
    if (typeof item.value !== 'string') return bad('body', [...at, 'value'], 'value must be a string');
    const value = item.value;
    if (p.type === 'file') {
      const id = maapFileId(value);
      if (id === undefined) bad('body', [...at, 'value'], `param "${p.param}" is an image: maapfile://<fileId> of an uploaded template file`);
      else if (fileOf !== undefined) {
        const file = fileOf(id);
        if (file === undefined) bad('file', [...at, 'value'], `no template file ${id} was uploaded to this brand`);
        else {
          const wrong = imageSizeProblem(p, file);
          if (wrong !== undefined) bad('body', [...at, 'value'], wrong);
        }
      }
      return;
    }
    if (p.strSize > 0 && [...value].length > p.strSize) bad('body', [...at, 'value'], `param "${p.param}" is at most ${p.strSize} characters, not ${[...value].length}`);
    if (p.contentType === 'url' && !/^https?:\/\//.test(value)) bad('body', [...at, 'value'], `param "${p.param}" is a URL starting with http:// or https://`);
    checkVariableNames(value, [...at, 'value'], (path, m) => bad('body', path, m));
  });
  for (const p of form.params) {
    if (p.isMandatory && names.includes(p.param) && !seen.has(p.param)) bad('body', ['body'], `param "${p.param}" is mandatory in form ${form.messagebaseformId}`);
  }
  if (buttons !== undefined) {
    if (!Array.isArray(buttons)) bad('buttons', ['buttons'], 'must be a list of {suggestions: […]}, one per card');
    else {
      if (buttons.length > form.policyInfo.cardCount) bad('buttons', ['buttons'], `form ${form.messagebaseformId} has ${form.policyInfo.cardCount} card${form.policyInfo.cardCount === 1 ? '' : 's'}, not ${buttons.length}`);
      buttons.forEach((g, i) => {
        if (!isObj(g)) return bad('buttons', ['buttons', i], 'a card\'s buttons are {suggestions: […]}');
        out.push(...checkSuggestions(g.suggestions, ['buttons', i, 'suggestions'], form.policyInfo.maxButtonCount, 'buttons'));
      });
    }
  }
  return out;
}

/**
 * An image of another size than its param asks (`imageWidth` x `imageHeight`,
 * as the form's params give them; docs/decisions.md, "Template image sizes"),
 * in words; undefined when it fits, or when the param or the image has no size.
 */
export function imageSizeProblem(p: { param: string; imageWidth?: number | string | null; imageHeight?: number | string | null }, image: TemplateImage): string | undefined {
  const w = Number(p.imageWidth ?? 0);
  const h = Number(p.imageHeight ?? 0);
  if (!(w > 0 && h > 0) || image.width <= 0 || image.height <= 0) return undefined;
  if (image.width === w && image.height === h) return undefined;
  return `param "${p.param}" takes a ${w}x${h} image; ${image.name} is ${image.width}x${image.height}`;
}

/** A path as text: `formattedString.RCSMessage.…children[0].text`. */
export function formatPolicyPath(path: PolicyPath): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** The formattedString without the form's widgetPolicy entries: what a template holds once registered. */
export function withoutWidgetPolicy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutWidgetPolicy);
  if (!isObj(v)) return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) if (k !== 'widgetPolicy') out[k] = withoutWidgetPolicy(x);
  return out;
}

/**
 * The rules a template follows whatever its form: variable names, and button
 * rules (no variable in a label or postback, in a URL only after the host).
 */
export function checkWithoutForm(t: { formattedString?: unknown; body?: unknown; buttons?: unknown }): PolicyProblem[] {
  const out: PolicyProblem[] = [];
  if (t.formattedString !== undefined) {
    checkVariableNames(t.formattedString, ['formattedString'], (path, message) => out.push({ area: 'formattedString', path, message }));
    const fs = t.formattedString as Obj;
    const card = isObj(fs.RCSMessage) && isObj(fs.RCSMessage.openrichcardMessage) ? fs.RCSMessage.openrichcardMessage : undefined;
    if (card !== undefined) out.push(...checkSuggestions(card.suggestions, ['formattedString', 'RCSMessage', 'openrichcardMessage', 'suggestions'], Infinity, 'formattedString'));
  }
  if (Array.isArray(t.body)) {
    t.body.forEach((b, i) => {
      if (isObj(b) && typeof b.value === 'string') checkVariableNames(b.value, ['body', i, 'value'], (path, message) => out.push({ area: 'body', path, message }));
    });
  }
  if (Array.isArray(t.buttons)) {
    t.buttons.forEach((g, i) => {
      if (isObj(g)) out.push(...checkSuggestions(g.suggestions, ['buttons', i, 'suggestions'], Infinity, 'buttons'));
    });
  }
  return out;
}
