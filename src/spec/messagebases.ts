// Facts about common messagebases that rcsctl needs offline (lint) and the
// emulator serves. Source: the service reference (Body shapes observed per type) and
// docs/decisions.md, "Common messagebases", "Auto-replies" and "Messagebases that refuse advertising".

/**
 * The aliases the service applies on store: the long speech bubble as the short
 * one, the tall card as the medium card. The medium sliders CCwMhM0200 to
 * CCwMhM0600 are stored as themselves (their digits give the card count); the
 * small sliders, stored as the medium slider with as many cards, have ids that
 * neither document gives, so none is listed here.
 */
export const MESSAGEBASE_ALIASES: Readonly<Record<string, string>> = {
  SCL00000: 'SCS00000',
  SCwThT00: 'SCwThM00',
};

/** The id the service stores for a requested messagebaseId. */
export function canonicalMessagebaseId(id: string): string {
  return MESSAGEBASE_ALIASES[id] ?? id;
}

/** A known common messagebase: its id, type and the body fields it takes. */
export interface MessagebaseFacts {
  readonly messagebaseId: string;
  readonly tmpltName: string;
  readonly messagebaseformId: string;
  readonly productCode: string;
  /** autoReplyMsgType of an auto-reply stored on this base. */
  readonly type: 'SCL' | 'CARD' | 'SLIDER';
  readonly typeName: string;
  readonly bodyFields: readonly string[];
  /** Body fields holding an image file id. */
  readonly mediaFields: readonly string[];
  /** Its sending policy (the public OpenAPI document's PolicyInfo, the parts known for common messagebases). */
  readonly policyInfo: MessagebasePolicy;
}

/** The policyInfo fields a common messagebase carries: its cards, and whether it takes advertising. */
export interface MessagebasePolicy {
  readonly cardCount: number;
  /** false: a send with header "1" (advertising) on this messagebase fails. */
  readonly adHeaderAllowed: boolean;
  /** false: a body that starts with the advertising label fails. */
  readonly adBodyAllowed: boolean;
}

/**
 * A common messagebase's policy: it takes advertising. The public document marks
 * a messagebase that refuses it with adHeaderAllowed false, and does so only for
 * the informational text templates and their forms, never for a common one.
 */
export function commonPolicy(cardCount: number): MessagebasePolicy {
  return { cardCount, adHeaderAllowed: true, adBodyAllowed: true };
}

/** Body fields of a slider with `cards` cards: titleN, descriptionN, mediaN for N = 1..cards. */
function sliderFields(cards: number): string[] {
  return Array.from({ length: cards }, (_, i) => [`title${i + 1}`, `description${i + 1}`, `media${i + 1}`]).flat();
}

/** The medium sliders, CCwMhM0200 (2 cards) to CCwMhM0600 (6 cards). */
function mediumSlider(cards: number): MessagebaseFacts {
  const digits = `0${cards}00`;
  const bodyFields = sliderFields(cards);
  return {
    messagebaseId: `CCwMhM${digits}`,
    tmpltName: `Slider, medium, ${cards} cards`,
    messagebaseformId: `CMhM${digits}`,
    productCode: 'chat',
    type: 'SLIDER',
    typeName: '슬라이드',
    bodyFields,
    mediaFields: bodyFields.filter((f) => f.startsWith('media')),
    policyInfo: commonPolicy(cards),
  };
}

/** The common messagebases rcsctl knows by heart. */
export const KNOWN_MESSAGEBASES: readonly MessagebaseFacts[] = [
  { messagebaseId: 'SCS00000', tmpltName: 'Speech bubble (short)', messagebaseformId: 'SS000000', productCode: 'chat', type: 'SCL', typeName: '말풍선', bodyFields: ['description'], mediaFields: [], policyInfo: commonPolicy(1) },
  { messagebaseId: 'SCL00000', tmpltName: 'Speech bubble (long)', messagebaseformId: 'SL000000', productCode: 'chat', type: 'SCL', typeName: '말풍선', bodyFields: ['description'], mediaFields: [], policyInfo: commonPolicy(1) },
  { messagebaseId: 'SCwThM00', tmpltName: 'Card, medium image', messagebaseformId: 'CwThM000', productCode: 'chat', type: 'CARD', typeName: '카드', bodyFields: ['title', 'description', 'media'], mediaFields: ['media'], policyInfo: commonPolicy(1) },
  { messagebaseId: 'SCwThT00', tmpltName: 'Card, tall image', messagebaseformId: 'CwThT000', productCode: 'chat', type: 'CARD', typeName: '카드', bodyFields: ['title', 'description', 'media'], mediaFields: ['media'], policyInfo: commonPolicy(1) },
  ...[2, 3, 4, 5, 6].map(mediumSlider),
];

/** Facts for a messagebaseId, or undefined when rcsctl does not know it. */
export function messagebaseFacts(id: string): MessagebaseFacts | undefined {
  return KNOWN_MESSAGEBASES.find((m) => m.messagebaseId === id);
}

/** An image a messagebase takes: the body field (param) and the size its image must have; 0 is not checked. */
export interface ImageSlot {
  readonly param: string;
  readonly width: number;
  readonly height: number;
}

/**
 * The size of every image of a common messagebase. The public document gives
 * image sizes only in a form's params (media 900×560) and none for the common
 * messagebases, so the common ones take that size
 * (docs/decisions.md, "Brand templates in sends").
 */
export const COMMON_IMAGE_SIZE = { width: 900, height: 560 } as const;

/** The image slots of a common messagebase: each media field at COMMON_IMAGE_SIZE. */
export function commonImageSlots(m: MessagebaseFacts): ImageSlot[] {
  return m.mediaFields.map((param) => ({ param, ...COMMON_IMAGE_SIZE }));
}
