// Facts about common messagebases that rcsctl needs offline (lint) and the
// emulator serves. Source: service-api.md (Body shapes observed per type) and
// spec/assumptions.md §5 and §7.

/** The aliases the service applies on store (spec/assumptions.md §5). */
export const MESSAGEBASE_ALIASES: Readonly<Record<string, string>> = {
  SCL00000: 'SCS00000',
  SCwThT00: 'SCwThM00',
  CCwMhM0200: 'CCwMhM0600',
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
}

const SLIDE_FIELDS = ['title1', 'description1', 'media1', 'title2', 'description2', 'media2'] as const;

/** The common messagebases rcsctl knows by heart. */
export const KNOWN_MESSAGEBASES: readonly MessagebaseFacts[] = [
  { messagebaseId: 'SCS00000', tmpltName: 'Speech bubble (short)', messagebaseformId: 'SS000000', productCode: 'chat', type: 'SCL', typeName: '말풍선', bodyFields: ['description'], mediaFields: [] },
  { messagebaseId: 'SCL00000', tmpltName: 'Speech bubble (long)', messagebaseformId: 'SL000000', productCode: 'chat', type: 'SCL', typeName: '말풍선', bodyFields: ['description'], mediaFields: [] },
  { messagebaseId: 'SCwThM00', tmpltName: 'Card, medium image', messagebaseformId: 'CwThM000', productCode: 'chat', type: 'CARD', typeName: '카드', bodyFields: ['title', 'description', 'media'], mediaFields: ['media'] },
  { messagebaseId: 'SCwThT00', tmpltName: 'Card, tall image', messagebaseformId: 'CwThT000', productCode: 'chat', type: 'CARD', typeName: '카드', bodyFields: ['title', 'description', 'media'], mediaFields: ['media'] },
  { messagebaseId: 'CCwMhM0200', tmpltName: 'Slider, small, 2 cards', messagebaseformId: 'CMhM0200', productCode: 'chat', type: 'SLIDER', typeName: '슬라이드', bodyFields: SLIDE_FIELDS, mediaFields: ['media1', 'media2'] },
  { messagebaseId: 'CCwMhM0600', tmpltName: 'Slider, medium, 2 cards', messagebaseformId: 'CMhM0600', productCode: 'chat', type: 'SLIDER', typeName: '슬라이드', bodyFields: SLIDE_FIELDS, mediaFields: ['media1', 'media2'] },
];

/** Facts for a messagebaseId, or undefined when rcsctl does not know it. */
export function messagebaseFacts(id: string): MessagebaseFacts | undefined {
  return KNOWN_MESSAGEBASES.find((m) => m.messagebaseId === id);
}
