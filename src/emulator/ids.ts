// Ids of seeded and created objects that the seed and the routes both make
// (logos, template images, templates), kept apart from either so neither
// imports the other.

import type { EmulatorStore } from './store.js';

/** A logo id like `BLG-BR.275F8GY6nR-uylr`: brand id and a four-letter counter. */
export function logoId(store: EmulatorStore, brandId: string): string {
  return letterId(store, 'BLG', brandId);
}

/** A template image id like `LT-BR.275F8GY6nR-aaab` (the document shows `maapfile://LT-BR.…-A46w`). */
export function templateFileId(store: EmulatorStore, brandId: string): string {
  return letterId(store, 'LT', brandId);
}

/** A brand template's messagebaseId: `U`, the brand id, `-`, the user's custTmpltId (the document's example). */
export function templateId(brandId: string, custTmpltId: string): string {
  return `U${brandId}-${custTmpltId}`;
}

function letterId(store: EmulatorStore, prefix: string, brandId: string): string {
  let n = store.next(prefix) - 1;
  let suffix = '';
  for (let i = 0; i < 4; i++) {
    suffix = String.fromCharCode(97 + (n % 26)) + suffix;
    n = Math.floor(n / 26);
  }
  return `${prefix}-${brandId}-${suffix}`;
}
