// Token issuance, layout components, common messagebases, and the stored-file
// download route (docs/decisions.md, "Token issuance" and "Common messagebases"; the service reference, Layout component).

import { randomBytes } from 'node:crypto';
import { MAX_LENGTH } from '../../spec/limits.js';
import { authenticate, requireAgency } from '../auth.js';
import { ok, paged, type RequestContext, type Reply } from '../http-types.js';
import type { Route } from '../router.js';
import { fail, failEmulator } from '../service-error.js';
import type { StoredBlob } from '../store.js';
import { asObject, requiredString } from '../validate.js';
import { commonImageSlots, type MessagebaseFacts } from '../../spec/messagebases.js';

/** The token, layout, messagebase and file-download routes. */
export function miscRoutes(): Route[] {
  return [
    { method: 'POST', pattern: '/api/1.1/token', handler: token },
    { method: 'GET', pattern: '/api/1.1/baselayout/component', handler: layoutComponents },
    { method: 'GET', pattern: '/api/1.1/messagebase/common', handler: messagebases },
    { method: 'GET', pattern: '/api/1.1/messagebase/common/:messagebaseId', handler: messagebase },
    { method: 'GET', pattern: '/files/:fileId/:fileName', handler: download },
  ];
}

async function token(ctx: RequestContext): Promise<Reply> {
  const o = asObject(await ctx.json(), 'body');
  const clientId = requiredString(o, 'clientId', MAX_LENGTH.clientId);
  const clientSecret = requiredString(o, 'clientSecret', MAX_LENGTH.clientSecret);
  const account = [...ctx.store.accounts.values()].find((a) => a.clientId === clientId);
  if (account === undefined) fail('invalidClientId');
  if (account.clientSecret !== clientSecret) fail('invalidSecret');
  const accessToken = randomBytes(24).toString('base64url');
  const expiresAt = ctx.store.now() + ctx.store.tokenTtlSeconds * 1000;
  ctx.store.issuedTokens.set(accessToken, { userId: account.userId, expiresAt });
  return { status: 200, json: { accessToken, expiresIn: String(Math.floor(expiresAt / 1000)), userId: account.userId, allowedIp: ['127.0.0.1'] } };
}

function layoutComponents(ctx: RequestContext): Reply {
  requireAgency(ctx);
  const reply = paged(ctx, ctx.store.layoutComponents);
  // The reference shows pagination but no links for this list.
  if (reply.json !== undefined) delete (reply.json as Record<string, unknown>).links;
  return reply;
}

function messagebases(ctx: RequestContext): Reply {
  authenticate(ctx);
  return paged(ctx, ctx.store.messagebases, messagebaseView);
}

function messagebase(ctx: RequestContext): Reply {
  authenticate(ctx);
  const m = ctx.store.messagebase(ctx.params.messagebaseId as string);
  if (m === undefined) fail('invalidType', 'messagebaseId');
  // The detail is the public document's MessagebaseInfo, which adds the policy and the
  // params to the list item; an image param carries the size a registered file must have.
  return ok([{ ...messagebaseView(m), policyInfo: m.policyInfo, params: commonImageSlots(m).map((i) => ({ param: i.param, type: 'file', contentType: 'maapfile', imageWidth: i.width, imageHeight: i.height })) }]);
}

/** The brandId a common messagebase answers with. */
const COMMON_BRAND_ID = 'common';

function messagebaseView(m: MessagebaseFacts) {
  return {
    messagebaseId: m.messagebaseId,
    tmpltName: m.tmpltName,
    messagebaseformId: m.messagebaseformId,
    // The public document's Messagebase: "'common' for a template in common use".
    brandId: COMMON_BRAND_ID,
    productCode: m.productCode,
    status: 'ready',
    approvalResult: '승인',
    bodyFields: m.bodyFields,
  };
}

function download(ctx: RequestContext): Reply {
  const id = ctx.params.fileId as string;
  const blob = findBlob(ctx, id);
  if (blob === undefined || blob.fileName !== ctx.params.fileName) failEmulator('notFound');
  return { status: 200, bytes: blob.bytes, contentType: blob.contentType };
}

function findBlob(ctx: RequestContext, id: string): StoredBlob | undefined {
  for (const b of ctx.store.brands.values()) {
    const f = b.files.get(id);
    if (f !== undefined) return f;
    const l = b.logos.get(id);
    if (l !== undefined) return l.blob;
    const t = b.templateFiles.get(id);
    if (t !== undefined) return t;
  }
  return ctx.store.agencyFiles.get(id);
}
