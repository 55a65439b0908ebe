// Templates back to a manifest: text templates with their formattedString,
// image templates with their body (each image downloaded under
// images/templates/) and buttons.

import type { TemplateDetail } from '../../api/types.js';
import { maapFileId } from '../../spec/template-policy.js';
import { localName } from '../../util/upload-name.js';
import { assignHandles } from '../handles.js';
import type { KindExporter } from '../resource-kind.js';
import { custTmpltIdOf } from './kind.js';

/** The `templates:` section. */
export const templateExporter: KindExporter<TemplateDetail> = {
  section: 'templates',
  handles: (templates) => assignHandles(templates, (t) => t.messagebaseId, (t) => custTmpltIdOf(t), 'template'),
  entries(templates, ctx) {
    const out: Record<string, unknown> = {};
    const handleOf = (t: TemplateDetail): string => ctx.handle('template', t.messagebaseId) as string;
    for (const t of [...templates].sort((a, b) => handleOf(a).localeCompare(handleOf(b)))) {
      const entry: Record<string, unknown> = { custTmpltId: custTmpltIdOf(t) };
      if (!t.messagebaseId.endsWith(`-${custTmpltIdOf(t)}`)) entry.messagebaseId = t.messagebaseId;
      entry.tmpltName = t.tmpltName;
      entry.messagebaseformId = t.messagebaseformId;
      if (t.body !== undefined) {
        const files = new Map((t.files ?? []).map((f) => [f.fileId, f]));
        entry.body = t.body.map((b) => {
          if (!('param' in b)) return b;
          const file = files.get(maapFileId(b.value) ?? '');
          if (file === undefined) return b;
          if (localName(file.fileName).sha12 === undefined) ctx.note(`template "${t.tmpltName}": image ${file.fileName} was not uploaded by rcsctl; the first plan shows it as changed (a modification goes to review)`);
          return { param: b.param, value: { path: ctx.image(file.fileName, file.url, 'images/templates') } };
        });
        if (t.buttons !== undefined && t.buttons.length > 0) entry.buttons = t.buttons;
      } else {
        entry.formattedString = t.formattedString;
      }
      out[handleOf(t)] = entry;
    }
    return out;
  },
};
