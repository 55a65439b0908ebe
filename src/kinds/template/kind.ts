// Brand templates, the pure part: identity by pinned messagebaseId or by
// custTmpltId; both sides compared without the service's own fields (state,
// dates, the form's guide and policy, widgetPolicy); images by
// content-addressed file name; every registration and modification gated by
// operator review, and changes refused in the states the service refuses them.

import type { TemplateButtonGroup, TemplateDetail, TemplateV1Request, TemplateV2Request } from '../../api/types.js';
import { stepFile, type FieldChange, type Gate, type Step, type StepFile } from '../../core/step.js';
import { maapFileId, withoutWidgetPolicy } from '../../spec/template-policy.js';
import { compact } from '../../util/compact.js';
import type { Drawn, KindPlanning, PlanContext, Prunable, ReportsUnmanaged, Reviewed } from '../resource-kind.js';
import type { DesiredTemplate } from './types.js';

/** States in which the service accepts a template modification or delete (the public document). */
export const TEMPLATE_CHANGEABLE = ['저장', '반려', '반려(수정)', '승인'];
/** States whose review `--cancel-review` can withdraw (the document's cancel). */
export const TEMPLATE_CANCELLABLE = ['승인대기', '승인대기(수정)'];

/** What a template step asks of the service: a text template (v1) or one with params (v2), and the images to upload first. */
export type TemplateRequest =
  | { api: 'text'; template: TemplateV1Request; cancelReview?: true }
  | { api: 'params'; template: TemplateV2Request; images: Record<string, StepFile>; cancelReview?: true };

/** The template kind's pure part. */
export const templatePlanning: KindPlanning<DesiredTemplate, TemplateDetail, 'template'> & Drawn<DesiredTemplate> & Reviewed & Prunable & ReportsUnmanaged = {
  name: 'template',
  label: 'template',
  reviewed: 'template',
  drawing: {
    colour: ['#e8eaf6', '#283593'],
    // A template holds its images itself (`value: {path}`), so each is drawn as an image of its path, labelled by its param.
    links: (d) => (d.body ?? []).flatMap((b) => ('image' in b ? [{ to: `image.${b.image.relPath}`, label: b.param, image: true }] : [])),
  },
  prune: 'templates',
  reportsUnmanaged: true,

  desired: (brand) => [...brand.templates.values()],
  live: (live) => live.templates.items,
  identity: {
    key: (d) => d.handle,
    desiredName: (d) => d.tmpltName,
    liveId: (l) => l.messagebaseId,
    liveName: (l) => l.tmpltName,
    liveState: (l) => l.approvalResult,
  },

  diff: {
    match(desired, live) {
      const byId = new Map(live.map((l) => [l.messagebaseId, l]));
      const byCust = new Map<string, TemplateDetail>();
      for (const l of live) byCust.set(custTmpltIdOf(l), l);
      const claimed = new Set<string>();
      const pairs: [DesiredTemplate, TemplateDetail][] = [];
      const missing: DesiredTemplate[] = [];
      const problems: { code: string; address: string; message: string; file: string; line: number }[] = [];
      for (const d of desired) {
        const l = d.messagebaseId !== undefined ? byId.get(d.messagebaseId) : byCust.get(d.custTmpltId);
        if (l === undefined && d.messagebaseId !== undefined) {
          problems.push({
            code: 'E_PLAN_PINNED_MISSING',
            address: `template.${d.handle}`,
            message: `template.${d.handle} pins messagebaseId ${d.messagebaseId}, but the brand has no template with that id; remove the pin to register a new one`,
            file: d.source.file,
            line: d.source.line,
          });
        } else if (l === undefined || claimed.has(l.messagebaseId)) missing.push(d);
        else {
          claimed.add(l.messagebaseId);
          pairs.push([d, l]);
        }
      }
      return { pairs, missing, extra: live.filter((l) => !claimed.has(l.messagebaseId)), problems };
    },
    normaliseLive(l) {
      const fileNames = new Map((l.files ?? []).map((f) => [f.fileId, f.fileName]));
      return comparable({
        tmpltName: l.tmpltName,
        messagebaseformId: l.messagebaseformId,
        ...(l.body !== undefined
          ? {
              body: l.body.map((b) => {
                if (!('param' in b)) return b;
                const id = maapFileId(b.value);
                return id === undefined ? b : { param: b.param, image: fileNames.get(id) ?? b.value };
              }),
              buttons: l.buttons,
            }
          : { formattedString: l.formattedString }),
      });
    },
    normaliseDesired(d) {
      return comparable({
        tmpltName: d.tmpltName,
        messagebaseformId: d.messagebaseformId,
        ...(d.body !== undefined
          ? { body: d.body.map((b) => ('image' in b ? { param: b.param, image: b.image.uploadName } : b)), buttons: d.buttons }
          : { formattedString: d.formattedString }),
      });
    },
    createStep(d, ctx, seed): Step {
      const form = ctx.live.templates.forms.get(d.messagebaseformId);
      if (d.formattedString === undefined || form === undefined || form === null) return { ...seed, op: 'create', request: toRequest(d, ctx, undefined) };
      // A new text template shows what it changes in its form, not the whole layout.
      const changes = [...seed.changes.filter((c) => !c.path.startsWith('formattedString')), ...leafChanges(withoutWidgetPolicy(form.formattedString), withoutWidgetPolicy(d.formattedString), 'formattedString')];
      return { ...seed, changes, op: 'create', request: toRequest(d, ctx, undefined) };
    },
    updateStep(d, l, ctx, seed): Step {
      const request = toRequest(d, ctx, l);
      if (ctx.options?.cancelReview === true && TEMPLATE_CANCELLABLE.includes(l.approvalResult)) {
        request.cancelReview = true;
        return { ...seed, op: 'update', liveId: l.messagebaseId, request, gate: cancelGate(l) };
      }
      return { ...seed, op: 'update', liveId: l.messagebaseId, request };
    },
  },

  gates: {
    create: () => ({ type: 'review', review: 'a new template goes to operator review (승인대기) and cannot be used until approved' }),
    update(l): Gate {
      const state = l.approvalResult;
      if (TEMPLATE_CANCELLABLE.includes(state)) {
        return { type: 'blocked', state, reason: 'the template waits for review and the service refuses changes to it; rerun with --cancel-review to withdraw the review first' };
      }
      if (!TEMPLATE_CHANGEABLE.includes(state)) return { type: 'blocked', state, reason: `the template is under review; the service accepts changes only in ${TEMPLATE_CHANGEABLE.join(', ')}` };
      return { type: 'review', review: `the modified template goes back to operator review (${state} → ${afterModify(state)})` };
    },
    delete(l): Gate {
      const state = l.approvalResult;
      if (TEMPLATE_CHANGEABLE.includes(state)) return { type: 'destructive' };
      const how = TEMPLATE_CANCELLABLE.includes(state) ? '; cancel its review first (apply --cancel-review with a change, or in the web console)' : '';
      return { type: 'blocked', state, reason: `the template is under review; the service deletes templates only in ${TEMPLATE_CHANGEABLE.join(', ')}${how}` };
    },
  },
};

/** The review gate of a change that first withdraws a pending review, which is gated like a delete. */
function cancelGate(l: TemplateDetail): Gate {
  const after = l.approvalResult === '승인대기' ? '저장' : '승인';
  return {
    type: 'review',
    review: `the modified template goes back to operator review (${after} → ${afterModify(after)})`,
    withdraws: `the pending review (${l.approvalResult}) is withdrawn first (→ ${after}${after === '승인' ? ', the approved version' : ''}), which gives up its place in the queue`,
  };
}

function afterModify(state: string): string {
  return state === '승인' || state === '반려(수정)' ? '승인대기(수정)' : '승인대기';
}

/** The user's id of a live template: the detail's custTmpltId, else the tail of `U<brandId>-<custTmpltId>`. */
export function custTmpltIdOf(l: TemplateDetail): string {
  if (l.custTmpltId !== undefined && l.custTmpltId !== null) return l.custTmpltId;
  const dash = l.messagebaseId.lastIndexOf('-');
  return dash < 0 ? l.messagebaseId : l.messagebaseId.slice(dash + 1);
}

/**
 * The one shape both sides are compared in: widgetPolicy dropped, empty button
 * groups folded. The body keeps its order (the manifest's, or the service's):
 * each entry names its param, so the diff pairs entries by param and a
 * different order is no change, while the plan shows each change at its
 * place in the manifest.
 */
function comparable(t: { tmpltName: string; messagebaseformId: string; formattedString?: unknown; body?: unknown[]; buttons?: TemplateButtonGroup[] | undefined }): unknown {
  return compact({
    tmpltName: t.tmpltName,
    messagebaseformId: t.messagebaseformId,
    formattedString: t.formattedString === undefined ? undefined : withoutWidgetPolicy(t.formattedString),
    body: t.body,
    buttons: foldButtons(t.buttons),
  });
}

function foldButtons(groups: TemplateButtonGroup[] | undefined): unknown[] | undefined {
  if (groups === undefined) return undefined;
  const out: unknown[] = groups.map((g) => (g.suggestions === undefined || g.suggestions.length === 0 ? {} : { suggestions: g.suggestions }));
  while (out.length > 0 && Object.keys(out[out.length - 1] as object).length === 0) out.pop();
  return out.length === 0 ? undefined : out;
}

/** The request for a desired template; an image already live under the same content-addressed name is not uploaded again. */
export function toRequest(d: DesiredTemplate, ctx: PlanContext, l: TemplateDetail | undefined): TemplateRequest {
  const head = { brandId: ctx.brand.brandId, custTmpltId: d.custTmpltId, messagebaseformId: d.messagebaseformId, tmpltName: d.tmpltName };
  if (d.body === undefined) return { api: 'text', template: { ...head, formattedString: d.formattedString ?? {} } };
  const liveFiles = new Map((l?.files ?? []).map((f) => [f.fileName, f.fileId]));
  const images: Record<string, StepFile> = {};
  const body = d.body.map((b) => {
    if (!('image' in b)) return b;
    const known = liveFiles.get(b.image.uploadName);
    if (known !== undefined) return { param: b.param, value: `maapfile://${known}` };
    images[b.param] = stepFile(b.image);
    // Filled with the uploaded file's id when the step runs.
    return { param: b.param, value: `maapfile://<upload:${b.param}>` };
  });
  const template: TemplateV2Request = { ...head, body, ...(d.buttons !== undefined && d.buttons.length > 0 ? { buttons: d.buttons } : {}) };
  return { api: 'params', template, images };
}

/** The leaves where `after` differs from `before` (the form), as field changes under `path`. */
function leafChanges(before: unknown, after: unknown, path: string): FieldChange[] {
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (Array.isArray(before) && Array.isArray(after)) {
    const out: FieldChange[] = [];
    for (let i = 0; i < Math.max(before.length, after.length); i++) out.push(...leafChanges(before[i], after[i], `${path}[${i}]`));
    return out;
  }
  if (isObj(before) && isObj(after)) {
    return [...new Set([...Object.keys(before), ...Object.keys(after)])].flatMap((k) => leafChanges(before[k], after[k], `${path}.${k}`));
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (before === undefined) return [{ path, type: 'add', after }];
  if (after === undefined) return [{ path, type: 'remove', before }];
  return [{ path, type: 'change', before, after }];
}
