// What a route module registers (src/emulator/routes/index.ts): its routes and,
// for a family with state of its own, that state, its seed section and its
// review moves. The shared files (store, seed, seed-apply, admin) loop over the
// registered modules, so a new family brings all of it in its own module.

import type { Notice } from './http-types.js';
import type { Route } from './router.js';
import type { SeedChecker } from './seed-checker.js';
import type { ReviewAction } from './state-machines.js';
import type { BrandStateHook, EmulatorStore, StoredBrand } from './store.js';

/** An object the admin API can review: its state and the audit fields a move sets. */
export interface Reviewable {
  approvalResult: string;
  updateDate: string;
  approvalReason?: string | null;
  approvalDate?: string | null;
}

/** How the admin API reviews one kind (POST /_emulator/review and /_emulator/state). */
export interface ReviewMoves {
  /** Every state the kind can be forced into. */
  states: readonly string[];
  /** The object of that kind with id `id` in the brand, if any. */
  find(brand: StoredBrand, id: string): Reviewable | undefined;
  /** The state after `action`, or undefined when the action does not apply. */
  transition(from: string, action: ReviewAction): string | undefined;
  /** The notification announced when the object reaches state `to` (by a move or forced), if any. */
  notice(brand: StoredBrand, id: string, to: string): Notice | undefined;
}

/** A module's section of each seeded brand (`brands[].<key>`). */
export interface SeedSection {
  /** The key it reads in a seeded brand. */
  key: string;
  /** Check the section (given only when present); `path` names it, like `brands[0].page`. */
  check(c: SeedChecker, value: unknown, path: string): void;
  /** Put the checked section into a new brand (given only when present). */
  apply(store: EmulatorStore, brand: StoredBrand, value: unknown, now: string): void;
}

/** A route module as registered: its routes, and what its family keeps and reads. */
export interface EmulatorModule {
  /** The routes, matched in registration order. */
  routes: () => Route[];
  /** Its admin routes (under /_emulator/, loopback only), if it has any. */
  adminRoutes?: () => Route[];
  /** Per-brand state, kept in the brand's slot of that name. */
  state?: BrandStateHook;
  /** Its section of a seeded brand. */
  seed?: SeedSection;
  /** Review moves by admin `kind` name. */
  review?: Readonly<Record<string, ReviewMoves>>;
}
