// What a handset shows, as a kind brings it (issue 40): the parts of a kind's
// drawing, by the roles the preview composes without naming any kind. A kind
// that the preview draws gives `preview: KindPreview<D>` (`Previewable<D>` in
// resource-kind.ts); src/preview gathers every kind's parts and composes the
// pages from their roles alone:
//
// - `page`: its objects drawn as handsets of their own, in a section of the
//   brand's page (auto-replies, rooms, the brand's home; a new kind's own);
// - `partOf`: drawn into another kind's handset (a menu, into its room);
// - `avatar`: the brand's picture at the top of every handset (a logo);
// - `files`: local files other drawings show by their upload name (images);
// - `change`: a changed object drawn before and after on `plan --preview`.
//
// The handset model (src/kinds/handset-model.ts) and its HTML primitives
// (src/kinds/handset-draw.ts) are below the stages, so a kind draws with them.

import type { Step } from '../core/step.js';
import type { DesiredBrand } from '../manifest/types.js';
import type { DrawOptions } from './handset-draw.js';
import type { ImageView, Resolvers, ShownFile, ShownSource, SuggestionView } from './handset-model.js';

export type { ShownFile, ShownSource };

/** One handset as a kind draws it: on the brand's page, or one side of a change. */
export interface Handset<V = unknown> {
  /** Its anchor on the page (`ar-welcome`): unique on the page. */
  key: string;
  /** `kind.key`, as plans write it. */
  address: string;
  /** Its name: in the contents, in links to it, in findings about it. */
  name: string;
  /** The buttons, chips and items on it that lead somewhere (the preview's link findings count them). */
  links: readonly SuggestionView[];
  /** The kind's own model of it (a `MessageView`, a `RoomView`, …), for tests and programs; the preview never reads it. */
  view: V;
  /** Its HTML; `extra` is what the page adds under it (the badges of its findings). */
  html(o: DrawOptions, extra?: string): string;
}

/** What a part drawn into another handset is. */
export interface HandsetPart {
  /** The items of it that lead somewhere (a menu's items). */
  links: readonly SuggestionView[];
  /** Its HTML inside `host` (the handset it is drawn into). */
  html(o: DrawOptions, host: { name: string }): string;
}

/** What a kind's page drawing is given to draw one declared object. */
export interface ShowContext {
  brand: DesiredBrand;
  /** The object's key (as `declaredObjects` gives it) and its anchor on the page (its section's `anchor`, a dash, the key). */
  key: string;
  anchor: string;
  address: string;
  /** `file:line` of where it is declared, the file relative to the working folder. */
  where(source: ShownSource): string;
  /** How its fields find what they point at: images by value, and the handsets reply links open. */
  resolvers: Resolvers;
  /** What other kinds draw into it (`partOf` naming this kind and key), in registry order. */
  parts: readonly HandsetPart[];
  /** The brand's picture (a kind's `avatar`), when one is declared. */
  avatar?: ImageView;
  /** The handsets another kind draws on the page (by kind name); read when drawing, once every handset is made. */
  handsetsOf(kind: string): readonly Handset[];
}

/** A kind's objects drawn as handsets of their own, in a section of the brand's page. */
export interface PageSection<D> {
  /** The section: its anchor (`<id>-h` heads it; sections with one id are one section), heading and, when it is listed in the contents, its title there. */
  readonly id: string;
  readonly heading: string;
  readonly toc?: string;
  /** Where the section goes on the page, lowest first. */
  readonly order: number;
  /** The prefix of its handsets' anchors (`ar` → `ar-welcome`). */
  readonly anchor: string;
  /** Drawn even when the brand declares none (an empty section says so). */
  readonly always?: boolean;
  /** Counted in the page's header by the kind's label (`3 rooms`). */
  readonly counted?: boolean;
  /** Many: a brand with more than a page holds is cut into pages (`page-001.html`, …), the other sections on the index. */
  readonly paged?: boolean;
  /** Its first declared object's `name` is the brand's name: the page's title. */
  readonly namesBrand?: boolean;
  /** The name the manifests give an object, when they give one (other drawings name it by it). */
  name?(d: D): string | undefined;
  /** The name every handset shows at its top: the first declared object that gives one. */
  barName?(d: D): string | undefined;
  /**
   * Reply links open its objects: a reply names one by its key or by the live id
   * it is pinned to. Its handsets carry the badges of their findings, and the
   * link findings say when one is unreachable or a dead end.
   */
  target?(d: D): { name: string; pinnedId?: string };
  /** One declared object drawn. */
  handset(d: D, ctx: ShowContext): Handset;
}

/** A kind's objects drawn into another kind's handset. */
export interface PartOf<D> {
  /** The object it is drawn into: its kind's name and its key. */
  of(d: D): { kind: string; key: string };
  part(d: D, ctx: { brand: DesiredBrand; resolvers: Resolvers }): HandsetPart;
}

/** What a change drawing is given: the changed object's step and what is known around the plan. */
export interface ChangeContext {
  /** The step (the main one of its address) and its address's anchor on the page. */
  step: Step;
  anchor: string;
  resolvers: Resolvers;
  /** Names of the objects of a kind, by key and by live id (from the plan, the manifests and the live read). */
  nameOf(kind: string, id: string): string | undefined;
  avatar?: ImageView;
}

/** A changed object drawn before and after on `plan --preview`, from the normalised forms the plan carries. */
export interface ChangeDrawing {
  /** What its changes are called in the page's words (`menu`: "3 auto-reply and menu changes"). */
  readonly noun: string;
  /** One side: the live or the proposed normalised form. */
  handset(value: unknown, ctx: ChangeContext): Handset;
}

/** How a kind is drawn on a handset: the parts it brings, each by the role the preview composes it by. */
export interface KindPreview<D> {
  readonly page?: PageSection<D>;
  readonly partOf?: PartOf<D>;
  /** The brand's picture at the top of every handset: the first declared object's, with its alternative text. */
  avatar?(d: D): { file: ShownFile; alt: string };
  /** Local files its objects hold, which other drawings show by their upload name. */
  files?(d: D): readonly ShownFile[];
  readonly change?: ChangeDrawing;
  /** Style rules its HTML needs, added to every page's style sheet (a new drawing's own classes). */
  readonly css?: string;
}
