// JSON-Schema validation of a manifest document with ajv, each ajv error
// turned into a diagnostic at the YAML node it concerns, with "did you mean".

import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Node } from 'yaml';
import { KINDS, registryVersion } from '../kinds/index.js';
import { assembleManifestSchema } from '../kinds/manifest-schema.js';
import { packageRoot } from '../util/paths.js';
import type { DiagnosticCode } from './codes.js';
import { diagAt, findNode, type PathSegments, type SourceDoc } from './source.js';
import { closest, didYouMean } from './suggest.js';
import { countLengthsInUtf16 } from './utf16-length.js';
import { yamlLib } from './yaml-lib.js';
import type { Diagnostic } from './types.js';

/** Absolute path of the manifest JSON Schema shipped with rcsctl. */
export function manifestSchemaPath(): string {
  return join(packageRoot(), 'schemas', 'manifest.schema.json');
}

/**
 * The manifest JSON Schema of the registered kinds, assembled from their
 * fragments (schemas/manifest.schema.json is the same, written for editors).
 */
export function manifestSchema(): Record<string, unknown> {
  return assembleManifestSchema(KINDS);
}

/** The registry the build saw: the precompiled validator holds for it. */
const BUILT_IN_REGISTRY = registryVersion();

let generated: ValidateFunction | undefined;

/**
 * Load the precompiled validator (a 330 kB module), once, before the first
 * checkSchema: a load whose documents all come checked from the parse cache
 * (SourceDoc.checkedBefore) never needs it.
 */
export async function loadSchemaValidator(): Promise<void> {
  generated ??= (await import('./manifest-validator.generated.js')).validate as unknown as ValidateFunction;
}

/** True while the kinds are the ones rcsctl ships (no kind registered at run time): the schema is the built one. */
export function builtInSchema(): boolean {
  return registryVersion() === BUILT_IN_REGISTRY;
}

let compiled: ValidateFunction | undefined;
let compiledFor = -1;

/**
 * The schema's validator. For the kinds rcsctl ships it is precompiled at
 * build time (scripts/gen-validator.mjs), so no run compiles the schema; a
 * registry changed since (a kind added at run time) compiles its own, once per
 * change. Options: all errors, verbose (parentSchema lets a message list the
 * keys that would be allowed), strict.
 */
function validator(): ValidateFunction {
  if (registryVersion() === BUILT_IN_REGISTRY) {
    if (generated === undefined) throw new Error('checkSchema needs loadSchemaValidator() first');
    return generated;
  }
  if (compiled === undefined || compiledFor !== registryVersion()) {
    compiledFor = registryVersion();
    // Loaded only here: a run with the shipped kinds never needs the compiler.
    const require = createRequire(import.meta.url);
    const { Ajv, _, str } = require('ajv') as typeof import('ajv');
    const formats = require('ajv-formats') as { default: (a: InstanceType<typeof Ajv>) => void };
    const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictTypes: false, strictRequired: false });
    // Lengths in UTF-16 code units, as the precompiled validator counts them (src/manifest/utf16-length.ts).
    countLengthsInUtf16(ajv, { _, str });
    formats.default(ajv);
    compiled = ajv.compile(manifestSchema());
  }
  return compiled;
}

/** Validate one document against the schema; every violation becomes a diagnostic. */
export function checkSchema(src: SourceDoc): Diagnostic[] {
  const validate = validator();
  const diags: Diagnostic[] = [...numericKeys(src)];
  if (validate(src.value)) return diags;
  const seen = new Set<string>();
  for (const err of oneErrorPerProblem(validate.errors ?? [])) {
    const d = toDiagnostic(src, err);
    if (d === undefined) continue;
    const id = `${d.code}|${d.path}|${d.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    diags.push(d);
  }
  // `display: 01` fails both type and enum; the type message already says how to fix it.
  const typed = new Set(diags.filter((d) => d.code === 'RCS203').map((d) => d.path));
  return diags.filter((d) => d.code !== 'RCS204' || !typed.has(d.path));
}

/** What a value of each format the schema uses looks like, for its error. */
const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  'date-time': 'write an ISO 8601 date and time with its offset, quoted, like "2025-03-01T10:00:00+09:00"',
  date: 'write an ISO 8601 date, quoted, like "2025-03-01"',
  uri: 'write a whole URL with its scheme, like "https://example.com/menu"',
};

/**
 * The JSON pointers of the nodes `value` is wrong at, by the schema (an unknown
 * key's own pointer, not its object's): what a document must lose to pass.
 */
export function schemaFaults(value: unknown): string[] {
  const validate = validator();
  if (validate(value)) return [];
  const out = new Set<string>();
  for (const err of validate.errors ?? []) {
    if (err.schemaPath.includes('/oneOf/') || err.keyword === 'if') continue;
    const key = err.keyword === 'additionalProperties' ? String(err.params.additionalProperty) : (err as ErrorObject & { propertyName?: string }).propertyName;
    out.add(key === undefined ? err.instancePath : `${err.instancePath}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  }
  return [...out];
}

/**
 * One problem, one error. A value that breaks its pattern usually breaks its
 * length or format for the same reason (a 14-character brand id; a URL without
 * https://): the pattern's error, which says the form, stands alone, with the
 * length folded into it. A misspelt key is one problem, not also a required
 * key missing: the unknown key's "did you mean" names it.
 */
function oneErrorPerProblem(errors: readonly ErrorObject[]): ErrorObject[] {
  const at = (e: ErrorObject): string => `${e.instancePath}|${(e as ErrorObject & { propertyName?: string }).propertyName ?? ''}`;
  const patterned = new Set(errors.filter((e) => e.keyword === 'pattern').map(at));
  const lengths = new Map(errors.filter((e) => e.keyword === 'maxLength' && patterned.has(at(e))).map((e) => [at(e), e]));
  const misspelt = new Set(
    errors.filter((e) => e.keyword === 'additionalProperties').flatMap((e) => {
      const near = closest(String(e.params.additionalProperty), allowedKeys(e));
      return near === undefined ? [] : [`${e.instancePath}|${near}`];
    }),
  );
  const out: ErrorObject[] = [];
  for (const e of errors) {
    if (e.keyword === 'required' && misspelt.has(`${e.instancePath}|${String(e.params.missingProperty)}`)) continue;
    if ((e.keyword === 'format' || e.keyword === 'maxLength') && patterned.has(at(e))) continue;
    const length = e.keyword === 'pattern' ? lengths.get(at(e)) : undefined;
    out.push(length === undefined ? e : { ...e, params: { ...e.params, tooLong: { data: length.data, limit: length.params.limit } } });
  }
  return out;
}

/** Decode an ajv instancePath against the data, so array indexes become numbers. */
function segments(pointer: string, data: unknown): (string | number)[] {
  if (pointer === '') return [];
  const out: (string | number)[] = [];
  let cur: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) {
      out.push(Number(seg));
      cur = cur[Number(seg)];
    } else {
      out.push(seg);
      cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[seg] : undefined;
    }
  }
  return out;
}

function allowedKeys(err: ErrorObject): string[] {
  const props = (err.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props === undefined ? [] : Object.keys(props);
}

function describe(path: PathSegments): string {
  const last = path[path.length - 1];
  return last === undefined ? 'the document' : typeof last === 'number' ? `item ${last + 1}` : `"${last}"`;
}

function toDiagnostic(src: SourceDoc, err: ErrorObject): Diagnostic | undefined {
  // Branch details of oneOf and the `if` of if/then only repeat what the
  // oneOf error or the `then` error already says.
  if (err.schemaPath.includes('/oneOf/') || err.keyword === 'if' || err.keyword === 'propertyNames') return undefined;
  const path = segments(err.instancePath, src.value);
  const at = (code: DiagnosticCode, p: PathSegments, message: string, where: 'key' | 'value' = 'value'): Diagnostic =>
    diagAt(src, code, p, message, { at: where });

  const propertyName = (err as ErrorObject & { propertyName?: string }).propertyName;
  if (propertyName !== undefined) {
    const p = [...path, propertyName];
    const why = (err.parentSchema as { description?: string } | undefined)?.description;
    if (err.keyword === 'maxLength') return at('RCS205', p, `key "${propertyName}" is ${lengthOf(propertyName)}; the maximum is ${String(err.params.limit)}`, 'key');
    const form = `key "${propertyName}" has the wrong form${why !== undefined ? `: ${why}` : ''}`;
    return at('RCS207', p, form + tooLong(form, err), 'key');
  }

  switch (err.keyword) {
    case 'additionalProperties': {
      const extra = String(err.params.additionalProperty);
      const p = [...path, extra];
      if (extra === '<<') return at('RCS201', p, 'YAML merge keys (<<) are not supported; write the keys out', 'key');
      if (extra === 'postback') return at('RCS209', p, 'postback data is filled in by the service; remove "postback" from the manifest', 'key');
      if (path.includes('persistentMenu') && path[path.length - 1] === 'action') {
        return at('RCS201', p, `a room menu action may only be dialerAction (the service's menu policy); "${extra}" belongs to auto-reply buttons and chips`, 'key');
      }
      return at('RCS201', p, `unknown key "${extra}" in ${describe(path)}${didYouMean(extra, allowedKeys(err))}`, 'key');
    }
    case 'required':
      return at('RCS202', path, `${describe(path)} is missing the required key "${String(err.params.missingProperty)}"`);
    case 'type':
      return at('RCS203', path, `${describe(path)} must be ${article(String(err.params.type))}${quoteHint(src, path, String(err.params.type))}`);
    case 'enum': {
      const allowed = (err.params.allowedValues as unknown[]).map((v) => JSON.stringify(v));
      const value = err.data;
      const inMenu = path.includes('persistentMenu') && path[path.length - 1] === 'type';
      if (path.includes('persistentMenu') && path[path.length - 1] === 'actionType') {
        return at('RCS204', path, `a room menu action may only be dialerAction (the service's menu policy); ${JSON.stringify(value)} belongs to auto-reply buttons and chips`);
      }
      if (inMenu && value === 'menu') return at('RCS210', path, 'menu item type "menu" (sub-menu) is no longer allowed; use reply, feed or action');
      const hint = typeof value === 'string' ? didYouMean(value, (err.params.allowedValues as unknown[]).map(String)) : '';
      return at('RCS204', path, `${describe(path)} must be one of ${allowed.join(', ')}${hint}${quoteHint(src, path, 'string')}`);
    }
    case 'const':
      return at('RCS204', path, `${describe(path)} must be ${JSON.stringify(err.params.allowedValue)}`);
    case 'maxLength':
      return at('RCS205', path, `${describe(path)} is ${lengthOf(String(err.data))}; the maximum is ${String(err.params.limit)}`);
    case 'minLength':
      return at('RCS206', path, `${describe(path)} must not be empty`);
    case 'pattern': {
      const why = (err.parentSchema as { description?: string } | undefined)?.description;
      const form = `${describe(path)} has the wrong form${why !== undefined ? `: ${why}` : ` (expected ${String(err.params.pattern)})`}`;
      return at('RCS207', path, form + tooLong(form, err));
    }
    case 'format': {
      const example = FORMAT_EXAMPLES[String(err.params.format)];
      return at('RCS207', path, `${describe(path)} is not a valid ${String(err.params.format)}${example !== undefined ? `: ${example}` : ''}`);
    }
    case 'maxItems':
      return at('RCS208', path, `${describe(path)} has ${(err.data as unknown[]).length} items; the maximum is ${String(err.params.limit)}`);
    case 'minProperties':
    case 'maxProperties':
      if (allowedKeys(err).includes('reply')) return at('RCS212', path, 'a button or chip holds exactly one of "action" or "reply"');
      return at('RCS206', path, `${describe(path)} must not be empty`);
    case 'not':
      if (path[path.length - 1] === 'data' && path[path.length - 2] === 'postback') {
        return at('RCS209', path.slice(0, -1), 'postback data of the form postbackId=<id>;; is what the service fills in; set data of your own, or leave postback out', 'key');
      }
      return at('RCS299', path, `${describe(path)} ${err.message ?? 'is not valid'}`);
    case 'uniqueItems':
      return at('RCS213', [...path, Number(err.params.i)], `${describe(path)} lists the same value twice`);
    case 'oneOf': {
      const keys = allowedKeys(err);
      if (keys.includes('urlAction')) {
        return at('RCS211', path, 'an action needs exactly one of "urlAction", "localBrowserAction", "mapAction", "calendarAction", "clipboardAction", "composeAction" or "dialerAction"');
      }
      if (keys.includes('autoReply')) return at('RCS215', path, 'a reply takes at most one of "autoReply" (a handle) or "autoReplyMsgId"; with neither it is a chatbot answer');
      return at('RCS299', path, `${describe(path)} ${err.message ?? 'is not valid'}`);
    }
    default:
      return at('RCS299', path, `${describe(path)} ${err.message ?? 'is not valid'}`);
  }
}

/** The length a pattern error carries when the value is also too long (oneErrorPerProblem), as a sentence after `form`. */
function tooLong(form: string, err: ErrorObject): string {
  const long = err.params.tooLong as { data: unknown; limit: unknown } | undefined;
  if (long === undefined) return '';
  // The form's description often states the maximum already.
  const text = `is ${lengthOf(String(long.data))}${form.includes(`max ${String(long.limit)}`) ? '' : `, and the maximum is ${String(long.limit)}`}`;
  return form.endsWith('.') ? ` It ${text}.` : `; it ${text}`;
}

/**
 * A length in the one unit rcsctl counts, UTF-16 code units, called characters;
 * when the text holds characters that count as 2 (emoji), the message says so.
 */
function lengthOf(text: string): string {
  const units = text.length;
  const points = [...text].length;
  return units === points ? `${units} characters long` : `${units} characters long (characters outside the Basic Multilingual Plane, such as emoji, count as 2)`;
}

function article(type: string): string {
  const t = type.replace(/,/g, ' or ');
  return /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`;
}

// YAML reads `display: 01` as the number 1 and `rcsReply: 1` as a number;
// telling the user to quote the value as written fixes both.
function quoteHint(src: SourceDoc, path: PathSegments, expected: string): string {
  if (!expected.includes('string')) return '';
  const { node } = findNode(src.doc, path);
  if (!yamlLib().isScalar(node) || node.type !== 'PLAIN' || typeof node.value === 'string') return '';
  const written = (node as Node & { source?: string }).source ?? String(node.value);
  return `; write it in quotes: "${written}"`;
}

/** The sections whose keys name entries (every kind's section but a single object's). */
export function entrySections(): string[] {
  return KINDS.flatMap((k) => (k.manifest?.section !== undefined && k.manifest.single !== true ? [k.manifest.section] : []));
}

// Chatbot ids like 0212345678 unquoted are numbers to YAML and lose the
// leading zero, so the key no longer names the room.
function numericKeys(src: SourceDoc): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (src.keysAreText === true) return out;
  const { isMap, isScalar } = yamlLib();
  for (const section of entrySections()) {
    const { node } = findNode(src.doc, [section]);
    if (!isMap(node)) continue;
    for (const pair of node.items) {
      if (!isScalar(pair.key) || typeof pair.key.value === 'string') continue;
      const written = (pair.key as Node & { source?: string }).source ?? String(pair.key.value);
      out.push(diagAt(src, 'RCS214', [section, String(pair.key.value)], `key ${written} is read as a number; write it in quotes: "${written}"`, { at: 'key' }));
    }
  }
  return out;
}
