// What the live cache keeps of templates, and when it serves it: a template
// detail while the template list's updateDate for it holds, and a form (kept
// service-wide: no brand owns one) while the form list's updateDate holds.

import type { MessagebaseForm, TemplateDetail } from '../../contract/wire.js';
import { cachePart, SERVICE_WIDE, type LiveCache } from '../live-cache.js';

const DETAILS = cachePart<{ updateDate: string; detail: TemplateDetail }>('templates');
const FORMS = cachePart<MessagebaseForm>('templateForms');

/** The cached template detail, when its updateDate is still `updateDate`. */
export function cachedTemplate(cache: LiveCache, brandId: string, id: string, updateDate: string): TemplateDetail | undefined {
  const entry = cache.get(brandId, DETAILS, id);
  return entry !== undefined && entry.updateDate === updateDate ? entry.detail : undefined;
}

/** Keep a freshly read template detail. */
export function cacheTemplate(cache: LiveCache, brandId: string, detail: TemplateDetail): void {
  cache.set(brandId, DETAILS, detail.messagebaseId, { updateDate: detail.updateDate, detail });
}

/** The cached form, when the form list still gives it `updateDate`. */
export function cachedForm(cache: LiveCache, id: string, updateDate: string): MessagebaseForm | undefined {
  const form = cache.get(SERVICE_WIDE, FORMS, id);
  return form !== undefined && form.updateDate === updateDate ? form : undefined;
}

/** Keep a form. */
export function cacheForm(cache: LiveCache, form: MessagebaseForm): void {
  cache.set(SERVICE_WIDE, FORMS, form.messagebaseformId, form);
}
