// Brand templates (messagebases), their image files and the template forms,
// as the public OpenAPI document describes them: v1 text templates (a
// formattedString checked against the form's widget policy), v2 templates (the
// form's params), operator review on every registration and modification,
// cancel, and the states in which update and delete are allowed. What the
// document leaves open is listed in docs/decisions.md.

import { imageSize } from 'image-size';
import type { MessagebaseForm, TemplateBodyItem, TemplateButtonGroup } from '../../contract/wire.js';
import { AUTO_REPLY_FILE, MAX_LENGTH, TEMPLATE } from '../../spec/limits.js';
import { FORM_LOGO_FILE_IDS } from '../../spec/template-forms.js';
import { checkFormattedString, checkTemplateBody, formatPolicyPath, maapFileId, withoutWidgetPolicy, type PolicyProblem } from '../../spec/template-policy.js';
import { formatServiceTime } from '../../util/time.js';
import { authenticate, authorizeBrand } from '../auth.js';
import { contentTypeOf, fileUrl, unreadableUpload } from '../files.js';
import { ok, paged, type RequestContext, type Reply } from '../http-types.js';
import type { Route } from '../router.js';
import { templateFileId, templateId } from '../ids.js';
import { fail } from '../service-error.js';
import { TEMPLATE_CHANGEABLE, templateAfterCancel, templateAfterModify } from '../state-machines.js';
import type { StoredAccount, StoredBrand, StoredTemplate, StoredTemplateFile, TemplateContent } from '../store.js';
import { asObject, extensionOf, optionalString, sameJson } from '../validate.js';
import { announce, templateNotice } from '../messaging/notifications.js';

const BRAND = '/api/1.1/brand/:brandId';
const FORMS = '/api/1.1/messagebase/messagebaseform';

/** The template, template file and form routes. */
export function templateRoutes(): Route[] {
  return [
    { method: 'GET', pattern: FORMS, handler: listForms },
    { method: 'GET', pattern: `${FORMS}/:formId`, handler: formDetail },
    { method: 'GET', pattern: `${FORMS}/:formId/logo`, handler: formLogos },
    { method: 'POST', pattern: `${BRAND}/messagebase`, handler: registerV1 },
    { method: 'GET', pattern: `${BRAND}/messagebase`, handler: list },
    { method: 'GET', pattern: `${BRAND}/messagebase/:id`, handler: detail },
    { method: 'PUT', pattern: `${BRAND}/messagebase/:id`, handler: modifyV1 },
    { method: 'DELETE', pattern: `${BRAND}/messagebase/:id`, handler: remove },
    { method: 'PUT', pattern: `${BRAND}/messagebase/:id/cancel`, handler: cancel },
    { method: 'POST', pattern: `${BRAND}/v2/messagebase`, handler: registerV2 },
    // The service reference names POST for a v2 modification, the public document PUT: both are served.
    { method: 'POST', pattern: `${BRAND}/v2/messagebase/:id`, handler: modifyV2 },
    { method: 'PUT', pattern: `${BRAND}/v2/messagebase/:id`, handler: modifyV2 },
    { method: 'POST', pattern: `${BRAND}/v2/messagebase/file`, handler: uploadFile },
    { method: 'GET', pattern: `${BRAND}/v2/messagebase/file/:fileId`, handler: fileDetail },
  ];
}

// ------------------------------------------------------------------ forms

function listForms(ctx: RequestContext): Reply {
  authenticate(ctx);
  return paged(ctx, [...ctx.store.forms.values()], (f) => ({
    messagebaseformId: f.messagebaseformId,
    formName: f.formName,
    cardType: f.cardType,
    bizCondition: f.bizCondition,
    bizCategory: f.bizCategory,
    bizService: f.bizService,
    registerDate: f.registerDate,
    updateDate: f.updateDate,
  }));
}

function formDetail(ctx: RequestContext): Reply {
  authenticate(ctx);
  return ok([pathForm(ctx)]);
}

function formLogos(ctx: RequestContext): Reply {
  authenticate(ctx);
  const form = pathForm(ctx);
  // Only text forms carry a title icon (*chosen*).
  const ids = form.params.length === 0 ? FORM_LOGO_FILE_IDS : [];
  return ok(ids.map((fileId) => ({ fileId, fileUrl: fileUrl(ctx.baseUrl, fileId, `${fileId}.png`), fileName: `${fileId}.png` })));
}

function pathForm(ctx: RequestContext): MessagebaseForm {
  const form = ctx.store.forms.get(ctx.params.formId as string);
  if (form === undefined) fail('invalidMessagebaseformId');
  return form;
}

// -------------------------------------------------------------- templates

async function registerV1(ctx: RequestContext): Promise<Reply> {
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const root = asObject(await ctx.json(), 'body');
  const items = root.regMessagebases;
  if (!Array.isArray(items) || items.length === 0) fail('requiredValue', 'regMessagebases');
  if (items.length > TEMPLATE.maxPerRegistration) fail('overSize', 'regMessagebases');
  // Every entry is checked before any is stored: a refused request registers nothing (*chosen*).
  const parsed = items.map((item) => {
    const o = asObject(item, 'regMessagebases');
    const head = parseHead(brand, o, true);
    const form = parseForm(ctx, o);
    return { head, content: { tmpltName: head.tmpltName, messagebaseformId: form.messagebaseformId, formattedString: checkedFormattedString(form, o.formattedString) } };
  });
  const ids = new Set<string>();
  for (const { head } of parsed) {
    const id = templateId(brand.brandId, head.custTmpltId);
    if (ids.has(id) || brand.templates.has(id) || brand.deletedTemplateIds.has(id)) fail('duplicateMessagebaseId');
    ids.add(id);
  }
  return ok(parsed.map(({ head, content }) => ({ messagebaseId: store(ctx, brand, account, head, content).messagebaseId })));
}

async function registerV2(ctx: RequestContext): Promise<Reply> {
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const o = asObject(await ctx.json(), 'body');
  const head = parseHead(brand, o, true);
  const form = parseForm(ctx, o);
  const content = v2Content(brand, form, head.tmpltName, o);
  const id = templateId(brand.brandId, head.custTmpltId);
  if (brand.templates.has(id) || brand.deletedTemplateIds.has(id)) fail('duplicateMessagebaseId');
  return ok([{ messagebaseId: store(ctx, brand, account, head, content).messagebaseId }]);
}

async function modifyV1(ctx: RequestContext): Promise<Reply> {
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const t = find(brand, ctx.params.id as string);
  if (!TEMPLATE_CHANGEABLE.includes(t.approvalResult)) fail('notAllowedModification');
  const o = asObject(await ctx.json(), 'body');
  const head = parseHead(brand, o, false);
  if (o.custTmpltId !== undefined && o.custTmpltId !== t.custTmpltId) fail('invalidCustTmpltId');
  const form = parseForm(ctx, o);
  const content: TemplateContent = { tmpltName: head.tmpltName, messagebaseformId: form.messagebaseformId, formattedString: checkedFormattedString(form, o.formattedString) };
  return modify(ctx, brand, t, account, content);
}

async function modifyV2(ctx: RequestContext): Promise<Reply> {
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const t = find(brand, ctx.params.id as string);
  if (!TEMPLATE_CHANGEABLE.includes(t.approvalResult)) fail('notAllowedModification');
  const o = asObject(await ctx.json(), 'body');
  const head = parseHead(brand, o, false);
  // A modification may leave the form out: it keeps the template's.
  const form = parseForm(ctx, o.messagebaseformId === undefined ? { messagebaseformId: t.messagebaseformId } : o);
  return modify(ctx, brand, t, account, v2Content(brand, form, head.tmpltName, o));
}

function modify(ctx: RequestContext, brand: StoredBrand, t: StoredTemplate, account: StoredAccount, content: TemplateContent): Reply {
  if (sameJson(contentOf(t), content)) fail('noChanges');
  const from = t.approvalResult;
  // The approved version is kept for cancel; a rejected modification keeps the one it already has.
  if (from === '승인') t.previous = contentOf(t);
  delete t.formattedString;
  delete t.body;
  delete t.buttons;
  Object.assign(t, content, {
    approvalResult: templateAfterModify(from),
    approvalReason: null,
    updateDate: formatServiceTime(new Date(ctx.store.stamp())),
    updateId: account.userId,
  });
  announce(ctx, templateNotice(brand.brandId, t, 'modified'));
  return ok([{ messagebaseId: t.messagebaseId }]);
}

function remove(ctx: RequestContext): Reply {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const t = find(brand, ctx.params.id as string);
  if (!TEMPLATE_CHANGEABLE.includes(t.approvalResult)) fail('notAllowedDelete');
  brand.templates.delete(t.messagebaseId);
  brand.deletedTemplateIds.add(t.messagebaseId);
  announce(ctx, templateNotice(brand.brandId, t, 'deleted'));
  return ok([{ messagebaseId: t.messagebaseId }]);
}

function cancel(ctx: RequestContext): Reply {
  const { account, brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const t = find(brand, ctx.params.id as string);
  const to = templateAfterCancel(t.approvalResult);
  if (to === undefined) fail('invalidApprovalStatus');
  if (to === '승인' && t.previous !== undefined) {
    delete t.formattedString;
    delete t.body;
    delete t.buttons;
    Object.assign(t, t.previous);
  }
  delete t.previous;
  Object.assign(t, { approvalResult: to, approvalReason: null, updateDate: formatServiceTime(new Date(ctx.store.stamp())), updateId: account.userId });
  announce(ctx, templateNotice(brand.brandId, t, 'modified'));
  return ok([{ messagebaseId: t.messagebaseId }]);
}

function list(ctx: RequestContext): Reply {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  return paged(ctx, [...brand.templates.values()], (t) => listView(brand, t));
}

function detail(ctx: RequestContext): Reply {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const t = find(brand, ctx.params.id as string);
  const form = ctx.store.forms.get(t.messagebaseformId);
  const values = new Map((t.body ?? []).flatMap((b) => ('param' in b ? [[b.param, b.value] as const] : [])));
  const files = [...values.values()].flatMap((v) => {
    const f = brand.templateFiles.get(maapFileId(v) ?? '');
    return f === undefined ? [] : [fileView(ctx, f)];
  });
  return ok([
    {
      ...listView(brand, t),
      productCode: form?.productCode ?? 'tmplt',
      spec: form?.spec ?? 'openrichcard',
      cardType: form?.cardType ?? 'Description',
      agencyId: t.agencyId,
      inputText: null,
      attribute: form === undefined ? [] : [...form.bizCondition, form.bizCategory ?? '', form.bizService ?? ''],
      guideInfo: form?.guideInfo ?? null,
      policyInfo: form?.policyInfo ?? null,
      params: (form?.params ?? []).map((p) => ({ ...p, inputText: values.get(p.param) ?? null })),
      files,
      formattedString: t.formattedString ?? withoutWidgetPolicy(form?.formattedString ?? {}),
      custTmpltId: t.custTmpltId,
      ...(t.body !== undefined ? { body: t.body } : {}),
      ...(t.buttons !== undefined ? { buttons: t.buttons } : {}),
    },
  ]);
}

// ----------------------------------------------------------------- files

async function uploadFile(ctx: RequestContext): Promise<Reply> {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const form = await ctx.multipart();
  const file = form.files.get('file');
  if (file === undefined) fail('requiredValue', 'file');
  if (file.filename === '') fail('requiredValue', 'fileName');
  if ([...file.filename].length > MAX_LENGTH.fileName) fail('overSize', 'fileName');
  if (!(AUTO_REPLY_FILE.extensions as readonly string[]).includes(extensionOf(file.filename))) fail('notAllowedExtension');
  if (file.bytes.length > AUTO_REPLY_FILE.maxBytes) fail('fileTooLarge');
  if (unreadableUpload(file.bytes, file.filename)) fail('notAllowedExtension');
  let size: { width?: number; height?: number };
  try {
    size = imageSize(file.bytes);
  } catch {
    fail('notAllowedExtension');
  }
  const fileId = templateFileId(ctx.store, brand.brandId);
  const stored: StoredTemplateFile = { fileId, fileName: file.filename, bytes: file.bytes, contentType: contentTypeOf(file.filename), imageWidth: size.width ?? 0, imageHeight: size.height ?? 0 };
  brand.templateFiles.set(fileId, stored);
  return ok([fileView(ctx, stored)]);
}

function fileDetail(ctx: RequestContext): Reply {
  const { brand } = authorizeBrand(ctx, ctx.params.brandId as string);
  const f = brand.templateFiles.get(ctx.params.fileId as string);
  if (f === undefined) fail('invalidFileId');
  return ok([fileView(ctx, f)]);
}

function fileView(ctx: RequestContext, f: StoredTemplateFile) {
  return { fileId: f.fileId, url: fileUrl(ctx.baseUrl, f.fileId, f.fileName), fileName: f.fileName, imageWidth: f.imageWidth, imageHeight: f.imageHeight };
}

// ---------------------------------------------------------------- parsing

interface Head {
  custTmpltId: string;
  tmpltName: string;
  agencyId: string | null;
}

/** brandId (64315, 64316), custTmpltId (64324), tmpltName (64314, 64304), agencyId. */
function parseHead(brand: StoredBrand, o: Record<string, unknown>, registering: boolean): Head {
  if (o.brandId === undefined || o.brandId === null || o.brandId === '') fail('missingBrandId');
  if (o.brandId !== brand.brandId) fail('invalidBrandId');
  let custTmpltId = '';
  if (registering) {
    if (typeof o.custTmpltId !== 'string' || !TEMPLATE.custTmpltId.test(o.custTmpltId)) fail('invalidCustTmpltId');
    custTmpltId = o.custTmpltId;
  }
  if (typeof o.tmpltName !== 'string' || o.tmpltName.trim() === '') fail('missingTemplateName');
  if ([...o.tmpltName].length > MAX_LENGTH.tmpltName) fail('overSize', 'tmpltName');
  const agencyId = optionalString(o, 'agencyId', MAX_LENGTH.botAgencyId) ?? null;
  return { custTmpltId, tmpltName: o.tmpltName, agencyId: agencyId === '' ? null : agencyId };
}

/** The form a request names: 64312 missing, 64313 unknown. */
function parseForm(ctx: RequestContext, o: Record<string, unknown>): MessagebaseForm {
  if (o.messagebaseformId === undefined || o.messagebaseformId === null || o.messagebaseformId === '') fail('missingMessagebaseformId');
  const form = typeof o.messagebaseformId === 'string' ? ctx.store.forms.get(o.messagebaseformId) : undefined;
  if (form === undefined) fail('unknownMessagebaseformId');
  return form;
}

/** A v1 formattedString that keeps to the form's policy (64313 for an image form, 64318 otherwise), stored without widgetPolicy. */
function checkedFormattedString(form: MessagebaseForm, fs: unknown): Record<string, unknown> {
  const problems = checkFormattedString(form, fs);
  refuse(problems);
  return withoutWidgetPolicy(fs) as Record<string, unknown>;
}

function v2Content(brand: StoredBrand, form: MessagebaseForm, tmpltName: string, o: Record<string, unknown>): TemplateContent {
  refuse(
    checkTemplateBody(form, o.body, o.buttons, (id) => {
      const f = brand.templateFiles.get(id);
      return f === undefined ? undefined : { width: f.imageWidth, height: f.imageHeight, name: `template file ${id}` };
    }),
  );
  const buttons = o.buttons as TemplateButtonGroup[] | undefined;
  return { tmpltName, messagebaseformId: form.messagebaseformId, body: o.body as TemplateBodyItem[], ...(buttons !== undefined && buttons.length > 0 ? { buttons } : {}) };
}

/** Answer the first policy problem with the document's code for its area. */
function refuse(problems: PolicyProblem[]): void {
  const p = problems[0];
  if (p === undefined) return;
  switch (p.area) {
    case 'form':
      return fail('unknownMessagebaseformId');
    case 'file':
      return fail('fileNotExist');
    case 'body':
      return fail('invalidBodyFormat', formatPolicyPath(p.path));
    case 'buttons':
      return fail('invalidButtonsFormat', formatPolicyPath(p.path));
    case 'formattedString':
      return fail('invalidFormattedString');
  }
}

function store(ctx: RequestContext, brand: StoredBrand, account: StoredAccount, head: Head, content: TemplateContent): StoredTemplate {
  const now = formatServiceTime(new Date(ctx.store.stamp()));
  const t: StoredTemplate = {
    messagebaseId: templateId(brand.brandId, head.custTmpltId),
    custTmpltId: head.custTmpltId,
    ...content,
    agencyId: head.agencyId,
    status: 'ready',
    approvalResult: '승인대기',
    approvalReason: null,
    registerDate: now,
    approvalDate: null,
    updateDate: now,
    registerId: account.userId,
    updateId: account.userId,
  };
  brand.templates.set(t.messagebaseId, t);
  announce(ctx, templateNotice(brand.brandId, t, 'created'));
  return t;
}

function contentOf(t: StoredTemplate): TemplateContent {
  return {
    tmpltName: t.tmpltName,
    messagebaseformId: t.messagebaseformId,
    ...(t.formattedString !== undefined ? { formattedString: t.formattedString } : {}),
    ...(t.body !== undefined ? { body: t.body } : {}),
    ...(t.buttons !== undefined ? { buttons: t.buttons } : {}),
  };
}

function find(brand: StoredBrand, id: string): StoredTemplate {
  const t = brand.templates.get(id);
  if (t === undefined) fail('invalidMessagebaseId');
  return t;
}

function listView(brand: StoredBrand, t: StoredTemplate) {
  return {
    groupId: null,
    messagebaseId: t.messagebaseId,
    tmpltName: t.tmpltName,
    messagebaseformId: t.messagebaseformId,
    brandId: brand.brandId,
    status: t.status,
    approvalResult: t.approvalResult,
    approvalReason: t.approvalReason,
    registerDate: t.registerDate,
    approvalDate: t.approvalDate,
    updateDate: t.updateDate,
    registerId: t.registerId,
    updateId: t.updateId,
  };
}
