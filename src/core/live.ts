// What the live service holds for one brand, as `readLive` reads it. Each kind
// adds its own section to `LiveSections` (by declaration merging, in its
// folder's index.ts) and fills it from its `read`; nothing here names a kind.

/** The typed sections of a live brand; every kind that reads something adds its own. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LiveSections {}

/** One brand's live state: its id and what each kind read, under the kind's section name. */
export type LiveBrand = { brandId: string } & LiveSections;

/** A live brand seen as sections by name, for the generic stages. */
export function liveSection(live: LiveBrand, section: string): unknown {
  return (live as unknown as Record<string, unknown>)[section];
}
