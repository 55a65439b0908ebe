// A messagebaseId as a send or an agency file registration uses it: a common
// messagebase, or a brand template whose approved version is live
// (docs/decisions.md, "Brand templates in sends"). Both answer the same
// questions: which productCode it is registered for, whether it takes an
// advertising header, which variables a send must fill, which images it takes.

import type { MessagebaseForm } from '../../contract/wire.js';
import { commonImageSlots, type ImageSlot } from '../../spec/messagebases.js';
import { variablesIn } from '../../spec/template-policy.js';
import { failAgency } from '../service-error.js';
import type { EmulatorStore, StoredBrand, StoredTemplate, TemplateContent } from '../store.js';

/** What a send or a file registration needs to know of its messagebaseId. */
export interface UsableMessagebase {
  messagebaseId: string;
  productCode: string;
  /** policyInfo.adHeaderAllowed: false refuses header "1". */
  adHeaderAllowed: boolean;
  /** policyInfo.adBodyAllowed: false refuses a body that starts with the advertising label, "(광고)". */
  adBodyAllowed: boolean;
  /** The `{{name}}` variables a send must give in its body (templates only). */
  variables: string[];
  /** The images it takes, with the size each must have. */
  images: ImageSlot[];
}

/**
 * The messagebase a send from `brand` may use: a common one, or a template of
 * that brand. Undefined when the id names neither; a template whose approved
 * version is not live is refused (40018).
 */
export function messagebaseForSend(store: EmulatorStore, brand: StoredBrand, id: string): UsableMessagebase | undefined {
  const common = commonMessagebase(store, id);
  if (common !== undefined) return common;
  const t = brand.templates.get(id);
  return t === undefined ? undefined : approvedTemplate(store, t);
}

/** The messagebase a file registration names: a common one, or any brand's template (its id names the brand). */
export function messagebaseForFile(store: EmulatorStore, id: string): UsableMessagebase | undefined {
  const common = commonMessagebase(store, id);
  if (common !== undefined) return common;
  for (const brand of store.brands.values()) {
    const t = brand.templates.get(id);
    if (t !== undefined) return approvedTemplate(store, t);
  }
  return undefined;
}

/** Whether an image of this size fits: it has the size of one of the messagebase's images (a size of 0 is not checked). */
export function imageFits(base: UsableMessagebase, size: { width: number; height: number }): boolean {
  return base.images.some((slot) => (slot.width <= 0 || slot.width === size.width) && (slot.height <= 0 || slot.height === size.height));
}

function commonMessagebase(store: EmulatorStore, id: string): UsableMessagebase | undefined {
  const m = store.messagebase(id);
  if (m === undefined) return undefined;
  return { messagebaseId: m.messagebaseId, productCode: m.productCode, adHeaderAllowed: m.policyInfo.adHeaderAllowed, adBodyAllowed: m.policyInfo.adBodyAllowed, variables: [], images: commonImageSlots(m) };
}

/** The template's live (approved) content: itself in 승인, the approved version kept while a modification is reviewed. */
function approvedTemplate(store: EmulatorStore, t: StoredTemplate): UsableMessagebase {
  const live: TemplateContent | undefined = t.approvalResult === '승인' ? t : t.approvalResult.endsWith('(수정)') ? t.previous : undefined;
  if (live === undefined) failAgency('templateNotApproved', `${t.messagebaseId}: ${t.approvalResult}`);
  if (t.status !== 'ready') failAgency('templateNotApproved', `${t.messagebaseId}: ${t.status}`);
  const form = store.forms.get(live.messagebaseformId);
  return {
    messagebaseId: t.messagebaseId,
    productCode: form?.productCode ?? 'tmplt',
    adHeaderAllowed: form?.policyInfo.adHeaderAllowed ?? true,
    adBodyAllowed: form?.policyInfo.adBodyAllowed ?? true,
    variables: [...new Set(stringsIn([live.formattedString, live.body, live.buttons]).flatMap(variablesIn))],
    images: formImages(form),
  };
}

/** A form's file params with their sizes. */
function formImages(form: MessagebaseForm | undefined): ImageSlot[] {
  return (form?.params ?? []).filter((p) => p.type === 'file').map((p) => ({ param: p.param, width: p.imageWidth ?? 0, height: p.imageHeight ?? 0 }));
}

/** Every string inside a JSON value. */
function stringsIn(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(stringsIn);
  if (v !== null && typeof v === 'object') return Object.values(v).flatMap(stringsIn);
  return [];
}
