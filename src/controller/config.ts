// The controller's configuration file (`rcsctl controller --config FILE`):
// one YAML document, checked against schemas/controller-config.schema.json,
// then each top-level section read by its own reader (SECTIONS below) into
// the typed value the controller uses. Every error names the file, the line
// and column and the field (`controller.yaml:12:5: syncWindows[0].duration:
// …`), as a manifest's diagnostics do.
//
// Adding a section: a property in the schema file, a field in ConfigSections,
// and its reader in SECTIONS; the reader gets the section's value (already
// shaped by the schema) and `at`, which turns a path inside it into a
// positioned error. How the file and the flags combine is the CLI's
// (src/cli/commands/controller.ts; docs/controller.md, "Configuration file").

import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import type { Document, LineCounter } from 'yaml';
import { RcsctlError } from '../errors.js';
import { yamlLib } from '../manifest/yaml-lib.js';
import { parseDuration } from '../util/duration.js';
import { packageRoot } from '../util/paths.js';
import type { Secret } from '../util/redaction.js';
import { parseWindow, type SyncWindow } from './sync-windows.js';
import { NOTIFY_TRIGGERS, MESSAGE_FIELDS, unknownPlaceholders, type Destination, type NotifyTrigger } from './notify-out.js';

/** A configuration file larger than this is refused before parsing (*chosen*: a long list of windows and destinations is a few KiB). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** The `controller:` section: the flags, by their long names in camelCase (durations in ms, paths resolved against the file's folder). */
export interface ControllerSection {
  paths?: string[];
  listen?: string;
  mode?: 'observe' | 'apply';
  intervalMs?: number;
  allowReview?: boolean;
  allowDelete?: boolean;
  allowFrom?: string[];
  shutdownTimeoutMs?: number;
  stallTimeoutMs?: number;
  reviewWarningMs?: number;
  /** Passes kept in each brand's history (`--history`). */
  history?: number;
  logFormat?: 'json' | 'text';
  webhookTokenFile?: string;
  apiTokenFile?: string;
}

/** A brand the file suspends: it is observed and never applied, across restarts. */
export interface SuspendDecl {
  brand: string;
  reason?: string;
}

/** Every section, read. */
export interface ConfigSections {
  controller: ControllerSection;
  suspend: SuspendDecl[];
  syncWindows: SyncWindow[];
  notifications: Destination[];
}

/** A configuration file, read. */
export interface ControllerConfig extends ConfigSections {
  /** The file as given (named in messages). */
  file: string;
  /** Values taken from the environment (`${env:NAME}`) and destinations' URLs and headers: never logged. */
  secrets: Secret[];
}

/** Where a field is, for an error: `at(['syncWindows', 0, 'duration'], 'must be …')`. */
export type At = (path: readonly (string | number)[], message: string, atKey?: boolean) => RcsctlError;

/** What a section reader has besides its value. */
export interface SectionContext {
  at: At;
  /** The configuration file's folder: relative paths in it start there. */
  dir: string;
  /** Expand `${env:NAME}` in a value (the value is then a secret). */
  expand: (value: string, path: readonly (string | number)[]) => string;
  secrets: Secret[];
}

type SectionReader<K extends keyof ConfigSections> = (value: unknown, ctx: SectionContext) => ConfigSections[K];

/** Each section's reader, by its key in the file; an absent section reads `undefined`. */
const SECTIONS: { [K in keyof ConfigSections]: SectionReader<K> } = {
  controller: readControllerSection,
  suspend: (value) => ((value as SuspendDecl[] | undefined) ?? []).map((s) => ({ brand: s.brand, ...(s.reason !== undefined ? { reason: s.reason } : {}) })),
  syncWindows: readWindows,
  notifications: readDestinations,
};

let validator: ReturnType<Ajv['compile']> | undefined;

function validate(): ReturnType<Ajv['compile']> {
  if (validator === undefined) {
    const schema = JSON.parse(readFileSync(resolve(packageRoot(), 'schemas', 'controller-config.schema.json'), 'utf8')) as object;
    validator = new Ajv({ allErrors: true, strict: true }).compile(schema);
  }
  return validator;
}

/** Read `path` (relative to `cwd`); throws E_CONFIG naming the file, line and field of the first problem. */
export function loadControllerConfig(path: string, cwd: string, env: Record<string, string | undefined>): ControllerConfig {
  const abs = resolve(cwd, path);
  let text: string;
  try {
    const size = statSync(abs).size;
    if (size > MAX_CONFIG_BYTES) throw new RcsctlError('E_CONFIG', `${path}: the configuration file is ${size} bytes; the maximum is ${MAX_CONFIG_BYTES}`);
    text = readFileSync(abs, 'utf8');
  } catch (err) {
    if (err instanceof RcsctlError) throw err;
    throw new RcsctlError('E_CONFIG', `cannot read the configuration file ${path} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  return parseControllerConfig(text, path, dirname(abs), env);
}

/** Parse the configuration's text (`file` is named in errors, `dir` starts its relative paths). */
export function parseControllerConfig(text: string, file: string, dir: string, env: Record<string, string | undefined>): ControllerConfig {
  const { parseDocument, LineCounter: Lines } = yamlLib();
  const lines: LineCounter = new Lines();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, merge: false, strict: true });
  const where = (offset: number): string => {
    const p = lines.linePos(offset);
    return `${file}:${p.line}:${p.col}`;
  };
  const yamlError = doc.errors[0];
  if (yamlError !== undefined) throw new RcsctlError('E_CONFIG', `${where(yamlError.pos[0])}: ${yamlError.message.split('\n')[0]}`);
  if (doc.contents === null) throw new RcsctlError('E_CONFIG', `${file}:1:1: the configuration file is empty; it needs apiVersion: rcsctl/v1 and kind: ControllerConfig`);
  const value: unknown = doc.toJS({ maxAliasCount: 100 });
  const at: At = (path, message, atKey = false) => new RcsctlError('E_CONFIG', `${where(offsetOf(doc, path, atKey))}: ${fieldName(path)}: ${message}`, { file, field: fieldName(path) });
  const check = validate();
  if (!check(value)) throw schemaError(check.errors ?? [], at);
  const data = value as Record<string, unknown>;
  const secrets: Secret[] = [];
  const expand = (raw: string, path: readonly (string | number)[]): string =>
    raw.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
      const v = env[name];
      if (v === undefined || v === '') throw at(path, `\${env:${name}} is not set`);
      secrets.push({ name, value: v });
      return v;
    });
  const ctx: SectionContext = { at, dir, expand, secrets };
  const read = <K extends keyof ConfigSections>(key: K): ConfigSections[K] => (SECTIONS[key] as SectionReader<K>)(data[key], ctx);
  return { file, controller: read('controller'), suspend: read('suspend'), syncWindows: read('syncWindows'), notifications: read('notifications'), secrets };
}

/** The first schema error, at its field; an unknown key is named, with the keys allowed there. */
function schemaError(errors: ErrorObject[], at: At): RcsctlError {
  // The most specific error first: the deepest path (an enum's alternatives come after a type's).
  const e = [...errors].sort((a, b) => b.instancePath.split('/').length - a.instancePath.split('/').length)[0]!;
  const path = pointer(e.instancePath);
  if (e.keyword === 'additionalProperties') {
    const key = String((e.params as { additionalProperty: string }).additionalProperty);
    return at([...path, key], 'unknown field (see schemas/controller-config.schema.json)', true);
  }
  if (e.keyword === 'required') return at(path, `missing ${String((e.params as { missingProperty: string }).missingProperty)}`);
  if (e.keyword === 'enum') return at(path, `must be one of ${((e.params as { allowedValues: unknown[] }).allowedValues).map((v) => JSON.stringify(v)).join(', ')}`);
  if (e.keyword === 'const') return at(path, `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`);
  if (e.keyword === 'pattern' && /duration/i.test(e.schemaPath)) return at(path, 'must be a duration like 30s, 5m, 1h or 2d');
  return at(path, e.message ?? 'is not valid');
}

/** A JSON pointer's segments, array indexes as numbers. */
function pointer(p: string): (string | number)[] {
  if (p === '') return [];
  return p
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** `syncWindows[0].duration`. */
export function fieldName(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(top level)';
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');
}

/** Where `path` is in the text: the value's start (its key's with `atKey`, or when it has none), else its nearest parent's. */
function offsetOf(doc: Document, path: readonly (string | number)[], atKey: boolean): number {
  const { isMap, isNode } = yamlLib();
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n), true);
    if (!(atKey && n === path.length) && isNode(node) && node.range !== undefined && node.range !== null) return node.range[0];
    // A key whose value is empty or absent: point at the key.
    const parent = doc.getIn(path.slice(0, n - 1), true);
    if (n > 0 && isMap(parent)) {
      const pair = parent.items.find((p) => isNode(p.key) && (p.key as { value?: unknown }).value === path[n - 1]);
      const key = pair?.key;
      if (isNode(key) && key.range != null) return key.range[0];
    }
  }
  return 0;
}

/** A duration field, in ms (the schema checked its form; this checks its bound). */
function durationAt(text: string | undefined, path: (string | number)[], at: At, maxMs: number): number | undefined {
  if (text === undefined) return undefined;
  try {
    return parseDuration(text, { option: 'it', maxMs });
  } catch (err) {
    throw at(path, (err as Error).message.replace(/^it /, ''));
  }
}

const DAY_MS = 86_400_000;

function readControllerSection(value: unknown, ctx: SectionContext): ControllerSection {
  if (value === undefined) return {};
  const v = value as Record<string, unknown> & { paths?: string[]; allowFrom?: string[] };
  const p = (key: string): (string | number)[] => ['controller', key];
  const out: ControllerSection = {};
  if (v.paths !== undefined) out.paths = v.paths.map((x) => resolve(ctx.dir, x));
  if (typeof v.listen === 'string') {
    const m = /^(.+):(\d{1,5})$/.exec(v.listen);
    if (m === null || Number(m[2]) > 65535) throw ctx.at(p('listen'), `must be HOST:PORT like 127.0.0.1:9464, not "${v.listen}"`);
    out.listen = v.listen;
  }
  if (v.mode === 'observe' || v.mode === 'apply') out.mode = v.mode;
  const d = (key: string, maxMs: number): number | undefined => durationAt(v[key] as string | undefined, p(key), ctx.at, maxMs);
  const interval = d('interval', DAY_MS);
  if (interval !== undefined) out.intervalMs = interval;
  const shutdown = d('shutdownTimeout', 3_600_000);
  if (shutdown !== undefined) out.shutdownTimeoutMs = shutdown;
  const stall = d('stallTimeout', DAY_MS);
  if (stall !== undefined) out.stallTimeoutMs = stall;
  const review = d('reviewWarning', 365 * DAY_MS);
  if (review !== undefined) out.reviewWarningMs = review;
  if (typeof v.history === 'number') out.history = v.history;
  if (typeof v.allowReview === 'boolean') out.allowReview = v.allowReview;
  if (typeof v.allowDelete === 'boolean') out.allowDelete = v.allowDelete;
  if (v.allowFrom !== undefined) out.allowFrom = v.allowFrom;
  if (v.logFormat === 'json' || v.logFormat === 'text') out.logFormat = v.logFormat;
  if (typeof v.webhookTokenFile === 'string') out.webhookTokenFile = resolve(ctx.dir, v.webhookTokenFile);
  if (typeof v.apiTokenFile === 'string') out.apiTokenFile = resolve(ctx.dir, v.apiTokenFile);
  return out;
}

interface WindowValue {
  kind: 'allow' | 'deny';
  schedule: string;
  duration: string;
  timeZone?: string;
  brands?: string[];
  manualSync?: boolean;
}

function readWindows(value: unknown, ctx: SectionContext): SyncWindow[] {
  return ((value as WindowValue[] | undefined) ?? []).map((w, i) => {
    const path = (key: string): (string | number)[] => ['syncWindows', i, key];
    const durationMs = durationAt(w.duration, path('duration'), ctx.at, 366 * DAY_MS)!;
    if (durationMs <= 0) throw ctx.at(path('duration'), 'must be longer than 0');
    const made = parseWindow({ kind: w.kind, schedule: w.schedule, durationMs, timeZone: w.timeZone ?? 'UTC', brands: w.brands ?? ['*'], manualSync: w.manualSync === true, index: i });
    if ('error' in made) throw ctx.at(path(made.field), made.error);
    return made.window;
  });
}

interface DestinationValue {
  name: string;
  type: 'slack' | 'webhook';
  url: string;
  headers?: Record<string, string>;
  triggers?: NotifyTrigger[];
  brands?: string[];
  message?: string;
}

function readDestinations(value: unknown, ctx: SectionContext): Destination[] {
  const seen = new Set<string>();
  return ((value as DestinationValue[] | undefined) ?? []).map((d, i) => {
    const path = (key: string): (string | number)[] => ['notifications', i, key];
    if (seen.has(d.name)) throw ctx.at(path('name'), `"${d.name}" names another destination already`);
    seen.add(d.name);
    const url = ctx.expand(d.url, path('url'));
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw ctx.at(path('url'), 'must be an http or https URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw ctx.at(path('url'), 'must be an http or https URL');
    // The URL of an incoming webhook is its credential (Slack's path is the secret).
    ctx.secrets.push({ name: `notifications[${i}].url`, value: url });
    const unknown = d.message !== undefined ? unknownPlaceholders(d.message) : [];
    if (unknown.length > 0) throw ctx.at(path('message'), `{{${unknown[0]}}} is not a field; a message may use ${MESSAGE_FIELDS.map((f) => `{{${f}}}`).join(', ')}`);
    const headers: Record<string, string> = {};
    for (const [k, raw] of Object.entries(d.headers ?? {})) {
      headers[k] = ctx.expand(raw, [...path('headers'), k]);
      ctx.secrets.push({ name: `notifications[${i}].headers.${k}`, value: headers[k]! });
    }
    return {
      name: d.name,
      type: d.type,
      url,
      headers,
      triggers: new Set(d.triggers ?? NOTIFY_TRIGGERS),
      brands: d.brands ?? ['*'],
      ...(d.message !== undefined ? { message: d.message } : {}),
    };
  });
}
