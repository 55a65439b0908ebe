// Check one request and its answer against the contract (operations.ts and
// schemas/service-contract.schema.json). Used by the test suite on every
// exchange with the emulator; each violation names the operation, the side
// (request or answer) and the field.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import busboy from 'busboy';
import { packageRoot } from '../util/paths.js';
import { SUCCESS_CODE } from './codes.js';
import { findOperation, OPERATIONS, type Operation, type Part } from './operations.js';

/** One request and its answer, as seen on the wire. */
export interface Exchange {
  method: string;
  /** The path without the query. */
  path: string;
  requestHeaders: Record<string, string | string[] | undefined>;
  requestBody: Buffer;
  status: number;
  /** The answer body, parsed; undefined when empty or not JSON. */
  answer: unknown;
}

/** A way in which an exchange breaks the contract. */
export interface Violation {
  operation: string;
  side: 'request' | 'answer';
  /** Where, as `chipList[0].action.postback`; `(body)` for the whole body. */
  field: string;
  problem: string;
}

/** `operation side: field: problem`, one line. */
export function formatViolation(v: Violation): string {
  return `${v.operation} ${v.side}: ${v.field}: ${v.problem}`;
}

const CONTRACT_ID = 'https://rcsctl.dev/schemas/service-contract.schema.json';

/** Absolute path of the contract schema. */
export function contractSchemaPath(): string {
  return join(packageRoot(), 'src', 'contract', 'schemas', 'service-contract.schema.json');
}

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

function validator(definition: string): ValidateFunction {
  let v = compiled.get(definition);
  if (v !== undefined) return v;
  if (ajv === undefined) {
    ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
    const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (a: Ajv) => void;
    addFormats(ajv);
    ajv.addSchema(JSON.parse(readFileSync(contractSchemaPath(), 'utf8')) as object);
  }
  v = ajv.getSchema(`${CONTRACT_ID}#/definitions/${definition}`);
  if (v === undefined) throw new Error(`contract: no definition ${definition}`);
  compiled.set(definition, v);
  return v;
}

/** Every definition the operation table names, and the envelope parts. */
export function contractDefinitions(): string[] {
  const names = new Set<string>(['errorEnvelope', 'agencyError', 'pagination', 'links']);
  for (const op of OPERATIONS) {
    if (op.request.kind === 'json') names.add(op.request.schema);
    if (op.request.kind === 'multipart') for (const p of Object.values(op.request.parts)) if (p.kind === 'json') names.add(p.schema);
    if (op.answer.kind === 'envelope' || op.answer.kind === 'envelope-items' || op.answer.kind === 'list') names.add(op.answer.item);
    if (op.answer.kind === 'raw') names.add(op.answer.schema);
  }
  return [...names];
}

/** Compile every definition now (ajv is slow the first time), so later checks are quick. */
export function precompileContract(): void {
  for (const name of contractDefinitions()) validator(name);
}

/** Validate `value` against a definition; the violations, with `prefix` before each field. */
export function checkValue(definition: string, value: unknown, prefix = ''): { field: string; problem: string }[] {
  const validate = validator(definition);
  if (validate(value)) return [];
  const errors = validate.errors ?? [];
  // Combinator failures (oneOf, anyOf, if) only repeat what the errors under them say.
  const specific = errors.filter((e) => !['oneOf', 'anyOf', 'if'].includes(e.keyword));
  const chosen = specific.length > 0 ? specific : errors;
  const seen = new Set<string>();
  const out: { field: string; problem: string }[] = [];
  for (const e of chosen) {
    const item = { field: fieldOf(e, prefix), problem: problemOf(e) };
    const key = `${item.field}|${item.problem}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

function fieldOf(e: ErrorObject, prefix: string): string {
  let path = e.instancePath
    .split('/')
    .filter(Boolean)
    .map((s) => (/^\d+$/.test(s) ? `[${s}]` : `.${s.replace(/~1/g, '/').replace(/~0/g, '~')}`))
    .join('');
  const params = e.params as { missingProperty?: string; additionalProperty?: string };
  if (e.keyword === 'required' && params.missingProperty !== undefined) path += `.${params.missingProperty}`;
  if (e.keyword === 'additionalProperties' && params.additionalProperty !== undefined) path += `.${params.additionalProperty}`;
  const full = `${prefix}${path}`.replace(/^\./, '');
  return full === '' ? '(body)' : full;
}

function problemOf(e: ErrorObject): string {
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not part of the contract';
    case 'oneOf':
      return 'matches none (or more than one) of the allowed shapes';
    case 'not':
      return 'is in a form the contract rules out';
    default:
      return e.message ?? e.keyword;
  }
}

/** Check one exchange; operations outside the contract are not checked (empty list). */
export async function checkExchange(x: Exchange, sides: { request: boolean; answer: boolean } = { request: true, answer: true }): Promise<Violation[]> {
  const op = findOperation(x.method, x.path);
  if (op === undefined) return [];
  const out: Violation[] = [];
  const add = (side: Violation['side'], list: { field: string; problem: string }[]) => {
    for (const v of list) out.push({ operation: op.id, side, ...v });
  };
  if (sides.request) add('request', await checkRequest(op, x));
  if (sides.answer) add('answer', checkAnswer(op, x));
  return out;
}

async function checkRequest(op: Operation, x: Exchange): Promise<{ field: string; problem: string }[]> {
  const fullType = header(x.requestHeaders, 'content-type') ?? '';
  const type = fullType.split(';')[0]?.trim() ?? '';
  switch (op.request.kind) {
    case 'none':
      return [];
    case 'json': {
      if (!/^application\/json\b/i.test(type)) return [{ field: '(body)', problem: `Content-Type is "${type}", not application/json` }];
      let body: unknown;
      try {
        body = JSON.parse(x.requestBody.toString('utf8'));
      } catch {
        return [{ field: '(body)', problem: 'is not JSON' }];
      }
      return checkValue(op.request.schema, body);
    }
    case 'multipart': {
      if (!/^multipart\/form-data\b/i.test(type)) return [{ field: '(body)', problem: `Content-Type is "${type}", not multipart/form-data` }];
      const parts = await readParts({ ...x.requestHeaders, 'content-type': fullType }, x.requestBody);
      return checkParts(op.request.parts, parts);
    }
  }
}

interface SeenPart {
  file: boolean;
  mimeType: string;
  text: string;
}

function readParts(headers: Exchange['requestHeaders'], body: Buffer): Promise<Map<string, SeenPart> | string> {
  return new Promise((resolve) => {
    const out = new Map<string, SeenPart>();
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: headers as busboy.BusboyConfig['headers'] });
    } catch (err) {
      resolve((err as Error).message);
      return;
    }
    bb.on('field', (name, value, info) => out.set(name, { file: false, mimeType: info.mimeType, text: value }));
    bb.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => out.set(name, { file: true, mimeType: info.mimeType, text: Buffer.concat(chunks).toString('utf8') }));
    });
    bb.on('error', (err: Error) => resolve(err.message));
    bb.on('close', () => resolve(out));
    bb.end(body);
  });
}

function checkParts(want: Record<string, Part>, seen: Map<string, SeenPart> | string): { field: string; problem: string }[] {
  if (typeof seen === 'string') return [{ field: '(body)', problem: `is not valid multipart: ${seen}` }];
  const out: { field: string; problem: string }[] = [];
  for (const name of seen.keys()) if (want[name] === undefined) out.push({ field: `part ${name}`, problem: 'is not part of the contract' });
  for (const [name, part] of Object.entries(want)) {
    const got = seen.get(name);
    const field = `part ${name}`;
    if (got === undefined) {
      if (part.required === true) out.push({ field, problem: 'is required' });
      continue;
    }
    if (part.kind === 'file' && !got.file && !(part.emptyText === true && got.text === '')) out.push({ field, problem: 'must be a file part (with a file name)' });
    if (part.kind === 'text' && part.maxLength !== undefined && [...got.text].length > part.maxLength) out.push({ field, problem: `must be at most ${part.maxLength} characters` });
    if (part.kind === 'json') {
      if (got.mimeType !== 'application/json') out.push({ field, problem: `is sent as ${got.mimeType}, not application/json` });
      let value: unknown;
      try {
        value = JSON.parse(got.text);
      } catch {
        out.push({ field, problem: 'is not JSON' });
        continue;
      }
      out.push(...checkValue(part.schema, value, field));
    }
  }
  return out;
}

function checkAnswer(op: Operation, x: Exchange): { field: string; problem: string }[] {
  const body = x.answer;
  if (x.status >= 400) return checkValue(op.family === 'agency' ? 'agencyError' : 'errorEnvelope', body);
  if (x.status === 204) return op.answer.kind === 'list' ? [] : [{ field: '(status)', problem: 'HTTP 204 is only for an empty list' }];
  if (x.status !== 200) return [{ field: '(status)', problem: `HTTP ${x.status} is not a documented success` }];
  const answer = op.answer;
  if (answer.kind === 'raw') return checkValue(answer.schema, body);
  const out: { field: string; problem: string }[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [{ field: '(body)', problem: 'must be the success envelope' }];
  const env = body as Record<string, unknown>;
  if (env.code !== SUCCESS_CODE) out.push({ field: 'code', problem: `must be "${SUCCESS_CODE}"` });
  if (env.status !== 200) out.push({ field: 'status', problem: 'must be 200' });
  if (env.desc !== null) out.push({ field: 'desc', problem: 'must be null on success' });
  if (!Array.isArray(env.result)) return [...out, { field: 'result', problem: 'must be an array' }];
  if (answer.kind === 'list') {
    out.push(...checkValue('pagination', env.pagination, 'pagination'));
    if (answer.links !== false || env.links !== undefined) out.push(...checkValue('links', env.links, 'links'));
  } else if (env.pagination !== undefined || env.links !== undefined) {
    out.push({ field: 'pagination', problem: 'only list answers carry pagination and links' });
  }
  if (answer.kind === 'envelope-any') return out;
  if (answer.kind === 'envelope' && env.result.length === 0) out.push({ field: 'result', problem: 'must hold the answer object' });
  env.result.forEach((item, i) => out.push(...checkValue(answer.item, item, `result[${i}]`)));
  return out;
}

function header(headers: Exchange['requestHeaders'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
