// One handler per (kind, op), dispatched through a registry (STYLE.md §3): the
// only place plan steps become client calls. Creates are idempotent: a create
// whose outcome is unknown is resolved by reading back by identity, and is
// sent again only if the object is absent.

import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { isServiceError, OutcomeUnknownError, type BrandRef, type RcsClient } from '../api/index.js';
import type { AutoReplyRequest, ChatbotInfo, PersistentMenuRequestItem } from '../api/types.js';
import { RcsctlError } from '../errors.js';
import type { Step, StepFile } from '../plan/types.js';
import type { AbsenceCheck } from './recheck.js';
import { resolveRefs, tokenOf, type IdMap } from './refs.js';

/** What a handler needs besides the step. */
export interface HandlerEnv {
  client: RcsClient;
  brand: BrandRef;
  ids: IdMap;
  /** Uploads by content hash, so one run never uploads the same content twice. */
  uploads: Map<string, Promise<string>>;
  /** Re-checks, right before a create, that nothing of its name appeared since the plan. */
  absence?: AbsenceCheck;
}

/** What a step produced: the service id of what it created, and a note for the report. */
export interface StepOutcome {
  id?: string;
  note?: string;
}

type Handler = (step: Step, env: HandlerEnv) => Promise<StepOutcome>;

/** Codes that mean "already as asked": an identical update, a delete of what is gone. */
const NO_CHANGES = '64323';
const GONE: Record<string, string> = { autoReply: '64108', logo: '64109', chatbot: '64105' };

const HANDLERS: Record<string, Handler> = {
  'file:upload': async (step, env) => {
    if (step.op !== 'upload') throw mismatch(step);
    return { id: await upload(step.file, env) };
  },

  'agencyFile:create': async (step, env) => {
    const req = requestOf<{ fileId: string; usageType: string; mimeType: string; messagebaseId?: string }>(step);
    const file = await readChecked(stepFileOf(step));
    try {
      const info = await env.client.agencyFiles.register(env.brand, { ...req, file });
      return { id: info.fileId };
    } catch (err) {
      // A lost answer, or a registration an earlier run already made: the fileId is ours.
      if (err instanceof OutcomeUnknownError || isServiceError(err, '40010')) {
        const info = await env.client.agencyFiles.get(env.brand, req.fileId);
        if (info !== undefined) return { id: info.fileId, note: 'already registered' };
      }
      throw err;
    }
  },

  'logo:create': async (step, env) => {
    const req = requestOf<{ name: string; description?: string }>(step);
    const file = await readChecked(stepFileOf(step));
    await env.absence?.assertAbsent('logo', req.name, step.address);
    return createOnce(
      () => env.client.logos.create(env.brand, { ...req, file }).then((r) => r.fileId),
      async () => {
        for await (const logo of env.client.logos.list(env.brand)) if (logo.name === req.name && logo.fileName === file.fileName) return logo.fileId;
        return undefined;
      },
    );
  },
  'logo:update': async (step, env) => {
    const req = requestOf<{ name: string; description?: string }>(step);
    const file = await readChecked(stepFileOf(step));
    await tolerate(env.client.logos.update(env.brand, liveIdOf(step), { ...req, file }), [NO_CHANGES]);
    return {};
  },
  'logo:delete': async (step, env) => {
    await tolerate(env.client.logos.delete(env.brand, liveIdOf(step), step.name), [GONE.logo as string]);
    return {};
  },

  'chatbot:create': async (step, env) => {
    const req = requestOf<{ chatbots: ChatbotInfo[] }>(step);
    const info = req.chatbots[0] as ChatbotInfo;
    const certificate = await readChecked(stepFileOf(step));
    return createOnce(
      () => env.client.chatbots.create(env.brand, req.chatbots, certificate).then(() => info.mdn),
      async () => {
        try {
          return (await env.client.chatbots.get(env.brand, info.mdn)).chatbotId;
        } catch (err) {
          if (isServiceError(err, GONE.chatbot as string)) return undefined;
          throw err;
        }
      },
    );
  },
  'chatbot:update': async (step, env) => {
    const req = requestOf<{ chatbot: ChatbotInfo }>(step);
    await tolerate(env.client.chatbots.update(env.brand, liveIdOf(step), req.chatbot), [NO_CHANGES]);
    return {};
  },
  'chatbot:delete': async (step, env) => {
    await tolerate(env.client.chatbots.delete(env.brand, liveIdOf(step)), [GONE.chatbot as string]);
    return {};
  },

  'autoReply:create': async (step, env) => {
    const req = resolveRefs(requestOf<AutoReplyRequest>(step), env.ids);
    await env.absence?.assertAbsent('autoReply', req.autoReplyMsgName, step.address);
    return createOnce(
      () => env.client.autoReplies.create(env.brand, req).then((r) => r.autoReplyMsgId),
      async () => {
        // The plan saw no auto-reply with this name: one now is the one we made.
        const found: string[] = [];
        for await (const item of env.client.autoReplies.list(env.brand)) if (item.autoReplyMsgName === req.autoReplyMsgName) found.push(item.autoReplyMsgId);
        if (found.length > 1) throw new RcsctlError('E_APPLY_AMBIGUOUS', `after a lost answer, ${found.length} auto-replies are named "${req.autoReplyMsgName}" (${found.join(', ')}); pin the right one with \`id:\` and delete the other`);
        return found[0];
      },
    );
  },
  'autoReply:update': async (step, env) => {
    const req = resolveRefs(requestOf<AutoReplyRequest>(step), env.ids);
    await tolerate(env.client.autoReplies.update(env.brand, liveIdOf(step), req), [NO_CHANGES]);
    return {};
  },
  'autoReply:link': async (step, env) => {
    const id = env.ids.get(tokenOf(step));
    if (id === undefined) throw new RcsctlError('E_APPLY_INTERNAL', `${step.address}: its create step produced no id`);
    const req = resolveRefs(requestOf<AutoReplyRequest>(step), env.ids);
    await tolerate(env.client.autoReplies.update(env.brand, id, req), [NO_CHANGES]);
    return {};
  },
  'autoReply:delete': async (step, env) => {
    await tolerate(env.client.autoReplies.delete(env.brand, liveIdOf(step), step.name), [GONE.autoReply as string]);
    return {};
  },

  'persistentMenu:menu-replace': async (step, env) => {
    if (step.op !== 'menu-replace') throw mismatch(step);
    const chatbotId = step.chatbotId;
    if (step.method === 'DELETE') {
      await tolerate(env.client.menus.delete(env.brand, chatbotId), [NO_CHANGES]);
      return {};
    }
    const items = resolveRefs((step.request as { persistentMenu: { menu: PersistentMenuRequestItem[] } }).persistentMenu.menu, env.ids);
    if (step.method === 'PUT') {
      await tolerate(env.client.menus.replace(env.brand, chatbotId, items), [NO_CHANGES]);
      return {};
    }
    try {
      await env.client.menus.create(env.brand, chatbotId, items);
    } catch (err) {
      // A lost answer or a menu made since the plan: PUT is idempotent and replaces the whole menu.
      if (!(err instanceof OutcomeUnknownError) && !isServiceError(err, '64377') && !isServiceError(err, '64328')) throw err;
      await tolerate(env.client.menus.replace(env.brand, chatbotId, items), [NO_CHANGES]);
      return { note: 'replaced after an unclear create' };
    }
    return {};
  },
};

/** Run one step against the service. */
export async function runStep(step: Step, env: HandlerEnv): Promise<StepOutcome> {
  const handler = HANDLERS[`${step.kind}:${step.op}`];
  if (handler === undefined) throw new RcsctlError('E_APPLY_INTERNAL', `no handler for ${step.op} of ${step.kind} (${step.address})`);
  return handler(step, env);
}

/** The (kind, op) pairs the registry handles, for the test that every plannable step has a handler. */
export const HANDLED = Object.keys(HANDLERS);

async function upload(file: StepFile, env: HandlerEnv): Promise<string> {
  let pending = env.uploads.get(file.sha256);
  if (pending === undefined) {
    pending = readChecked(file).then(async (f) => {
      try {
        return (await env.client.autoReplies.uploadFile(env.brand, f)).fileId;
      } catch (err) {
        // The service has no file list to read back from, and an orphaned upload is harmless: send once more.
        if (err instanceof OutcomeUnknownError) return (await env.client.autoReplies.uploadFile(env.brand, f)).fileId;
        throw err;
      }
    });
    env.uploads.set(file.sha256, pending);
  }
  return pending;
}

/** Create, and when the answer was lost, read back by identity before creating again. */
async function createOnce(create: () => Promise<string>, readBack: () => Promise<string | undefined>): Promise<StepOutcome> {
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
async function tolerate<T>(p: Promise<T>, codes: string[]): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (codes.some((c) => isServiceError(err, c))) return undefined;
    throw err;
  }
}

/** Read a step's local file and check it is still what the plan saw. */
async function readChecked(file: StepFile): Promise<{ fileName: string; bytes: Uint8Array; contentType: string }> {
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

function requestOf<T>(step: Step): T {
  if (!('request' in step)) throw mismatch(step);
  return step.request as T;
}

function stepFileOf(step: Step): StepFile {
  if (!('file' in step) || step.file === undefined) throw new RcsctlError('E_APPLY_INTERNAL', `${step.address}: the step carries no file`);
  return step.file;
}

function liveIdOf(step: Step): string {
  if (step.liveId === undefined) throw mismatch(step);
  return step.liveId;
}

function mismatch(step: Step): Error {
  return new RcsctlError('E_APPLY_INTERNAL', `${step.address}: unexpected ${step.op} step for ${step.kind}`);
}
