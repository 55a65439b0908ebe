// A template against the form the service holds: the widget policy of a text
// template's formattedString and the params of an image template's body. Found
// when planning (the form is the service's), reported at the manifest line.

import type { MessagebaseForm } from '../../api/types.js';
import type { LiveBrand } from '../../core/live.js';
import type { PlanProblem } from '../../core/step.js';
import { didYouMean } from '../../manifest/suggest.js';
import { checkFormattedString, checkTemplateBody, type PolicyProblem, type TemplateImage } from '../../spec/template-policy.js';
import type { DesiredTemplate } from './types.js';

/** Every problem of the desired templates against their forms. */
export function templateProblems(desired: DesiredTemplate[], live: LiveBrand): PlanProblem[] {
  const section = live.templates;
  return desired.flatMap((d) => checkAgainstForm(d, section.forms.get(d.messagebaseformId), section.formIds));
}

/** The problems of one template against its form (`null` or undefined: the service has no such form). */
export function checkAgainstForm(d: DesiredTemplate, form: MessagebaseForm | null | undefined, formIds: readonly string[]): PlanProblem[] {
  const at = (code: string, path: (string | number)[], message: string): PlanProblem => {
    const loc = d.locate(path);
    return { code, address: `template.${d.handle}`, message: `${loc.file}:${loc.line}:${loc.col}: ${message}`, file: loc.file, line: loc.line };
  };
  if (form === null || form === undefined) {
    return [at('RCS533', ['messagebaseformId'], `the service has no template form "${d.messagebaseformId}"${didYouMean(d.messagebaseformId, formIds)}`)];
  }
  const found: PolicyProblem[] =
    d.body !== undefined
      ? checkTemplateBody(form, d.body.map((b, i) => ('image' in b ? { param: b.param, value: `maapfile://local-${i}` } : b)), d.buttons, (id) => localImage(d, id))
      : checkFormattedString(form, d.formattedString);
  return found.map((p) => at(p.area === 'formattedString' || p.area === 'form' ? (p.area === 'form' ? 'RCS533' : 'RCS534') : 'RCS535', p.path, p.message));
}

/** The local image a body entry holds (`maapfile://local-<index>` stands for it in the check), with its measured size. */
function localImage(d: DesiredTemplate, id: string): TemplateImage | undefined {
  const item = d.body?.[Number(id.slice('local-'.length))];
  if (item === undefined || !('image' in item)) return undefined;
  return { width: item.image.width ?? 0, height: item.image.height ?? 0, name: `"${item.image.relPath}"` };
}
