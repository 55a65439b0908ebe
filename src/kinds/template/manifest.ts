// The `templates:` section: templates by handle, each image read, checked and
// hashed (uploaded content-addressed); lint checks what needs no form: one of
// formattedString and body, unique custTmpltIds and pins, variable names and
// button rules. The form's own rules are checked when planning (policy.ts).

import type { TemplateButtonGroup } from '../../api/types.js';
import type { FileUse } from '../../manifest/local-files.js';
import { AUTO_REPLY_FILE } from '../../spec/limits.js';
import { checkWithoutForm } from '../../spec/template-policy.js';
import type { KindManifest } from '../manifest-section.js';
import { schema } from './schema.js';
import type { DesiredTemplate, DesiredTemplateBodyItem } from './types.js';

type Obj = Record<string, unknown>;

/** An image a template shows: the same rules as an auto-reply image. */
const TEMPLATE_IMAGE: FileUse = { ...AUTO_REPLY_FILE, image: true, label: 'template image' };

/** The templates section. */
export const templateManifest: KindManifest = {
  section: 'templates',
  order: 35,
  schema,
  async build(raw, ctx) {
    for (const [handle, t] of Object.entries(raw as Record<string, Obj>)) {
      if (!ctx.once(handle, 'RCS403', 'template handle')) continue;
      let body: DesiredTemplateBodyItem[] | undefined;
      if (Array.isArray(t.body)) {
        body = [];
        for (const [i, item] of (t.body as Obj[]).entries()) {
          if (item.lineIndex !== undefined) body.push({ lineIndex: item.lineIndex as number });
          else if (typeof item.value === 'object' && item.value !== null) {
            const path = (item.value as { path: string }).path;
            const image = await ctx.file(['templates', handle, 'body', i, 'value', 'path'], path, TEMPLATE_IMAGE);
            if (image === undefined) {
              body = undefined;
              break;
            }
            body.push({ param: item.param as string, image });
          } else body.push({ param: item.param as string, value: item.value as string });
        }
        if (body === undefined) continue;
      }
      const d: DesiredTemplate = {
        handle,
        custTmpltId: t.custTmpltId as string,
        tmpltName: t.tmpltName as string,
        messagebaseformId: t.messagebaseformId as string,
        source: ctx.locationOf(['templates', handle]),
        locate: (path) => ctx.locationOf(['templates', handle, ...path]),
        ...(t.messagebaseId !== undefined ? { messagebaseId: t.messagebaseId as string } : {}),
        ...(t.formattedString !== undefined ? { formattedString: t.formattedString as Obj } : {}),
        ...(body !== undefined ? { body } : {}),
        ...(t.buttons !== undefined ? { buttons: t.buttons as TemplateButtonGroup[] } : {}),
      };
      ctx.add(handle, d);
    }
  },
  lint(ctx) {
    const custIds = new Map<string, string>();
    const pins = new Map<string, string>();
    for (const [handle, t] of ctx.brand.templates) {
      const src = ctx.srcOf(t);
      if (src === undefined) continue;
      const base = ['templates', handle];
      if ((t.formattedString === undefined) === (t.body === undefined)) {
        ctx.diag(src, 'RCS530', base, `template "${handle}" gives ${t.body === undefined ? 'neither' : 'both'} formattedString (a text template) ${t.body === undefined ? 'nor' : 'and'} body (an image template); give exactly one, as its form takes`, { at: 'key' });
      }
      if (t.buttons !== undefined && t.body === undefined) {
        ctx.diag(src, 'RCS530', [...base, 'buttons'], 'buttons belong to an image template (with body); a text template writes its buttons in formattedString (suggestions)', { at: 'key' });
      }
      const prior = custIds.get(t.custTmpltId);
      if (prior !== undefined) ctx.diag(src, 'RCS531', [...base, 'custTmpltId'], `custTmpltId ${t.custTmpltId} is also used by template "${prior}"; it identifies a template, so it must be unique`);
      else custIds.set(t.custTmpltId, handle);
      if (t.messagebaseId !== undefined) {
        const priorPin = pins.get(t.messagebaseId);
        if (priorPin !== undefined) ctx.diag(src, 'RCS509', [...base, 'messagebaseId'], `template messagebaseId ${t.messagebaseId} is also pinned by "${priorPin}"`);
        else pins.set(t.messagebaseId, handle);
      }
      const raw = { formattedString: t.formattedString, body: t.body, buttons: t.buttons };
      for (const p of checkWithoutForm(raw)) ctx.diag(src, 'RCS532', [...base, ...p.path], p.message);
    }
  },
};
