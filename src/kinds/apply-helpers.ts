// What the kinds' apply handlers share: idempotent creates (read back by
// identity after a lost answer), tolerated "already as asked" codes, and local
// files checked against the hash the plan saw.

import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { isServiceError, OutcomeUnknownError } from '../api/index.js';
import type { Step, StepFile } from '../core/step.js';
import { RcsctlError } from '../errors.js';
import type { HandlerEnv, StepOutcome } from './resource-kind.js';

/** Create, and when the answer was lost, read back by identity before creating again. */
export async function createOnce(create: () => Promise<string>, readBack: () => Promise<string | undefined>): Promise<StepOutcome> {
  try {
    return { id: await create() };
  } catch (err) {
    if (!(err instanceof OutcomeUnknownError)) throw err;
    const existing = await readBack();
    if (existing !== undefined) return { id: existing, note: 'created (confirmed by reading back after a lost answer)' };
    return { id: await create(), note: 'created again after a lost answer showed nothing was made' };
  }
}

/** Await `p`, treating the listed service codes as success. */
export async function tolerate<T>(p: Promise<T>, codes: string[]): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (codes.some((c) => isServiceError(err, c))) return undefined;
    throw err;
  }
}

/** Read a step's local file and check it is still what the plan saw. */
export async function readChecked(file: StepFile): Promise<{ fileName: string; bytes: Uint8Array; contentType: string }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file.path);
  } catch (err) {
    throw new RcsctlError('E_APPLY_FILE', `cannot read ${file.path}: ${(err as Error).message}`);
  }
  const sha = createHash('sha256').update(bytes).digest('hex');
  if (sha !== file.sha256) throw new RcsctlError('E_APPLY_FILE', `${file.path} changed since the plan was made; make a new plan`);
  return { fileName: file.fileName, bytes, contentType: file.contentType };
}

export function requestOf<T>(step: Step): T {
  if (!('request' in step)) throw mismatch(step);
  return step.request as T;
}

export function stepFileOf(step: Step): StepFile {
  if (!('file' in step) || step.file === undefined) throw new RcsctlError('E_APPLY_INTERNAL', `${step.address}: the step carries no file`);
  return step.file;
}

export function liveIdOf(step: Step): string {
  if (step.liveId === undefined) throw mismatch(step);
  return step.liveId;
}

export function mismatch(step: Step): Error {
  return new RcsctlError('E_APPLY_INTERNAL', `${step.address}: unexpected ${step.op} step for ${step.kind}`);
}

/** A catch handler: the service code `code` means the object is gone. */
export function gone(code: string): (err: unknown) => undefined {
  return (err: unknown) => {
    if (isServiceError(err, code)) return undefined;
    throw err;
  };
}

/** Every item of a paginated list. */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of it) out.push(item);
  return out;
}

/**
 * Upload a step's file once per content and run (`key` names the endpoint and
 * the content). Files cannot be listed, so there is nothing to read back after a
 * lost answer, and an orphaned upload is harmless: it is sent once more.
 */
export function uploadOnce(env: HandlerEnv, key: string, file: StepFile, send: (f: { fileName: string; bytes: Uint8Array; contentType: string }) => Promise<string>): Promise<string> {
  let pending = env.uploads.get(key);
  if (pending === undefined) {
    pending = readChecked(file).then(async (f) => {
      try {
        return await send(f);
      } catch (err) {
        if (err instanceof OutcomeUnknownError) return send(f);
        throw err;
      }
    });
    env.uploads.set(key, pending);
  }
  return pending;
}
