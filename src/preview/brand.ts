// The preview of a brand as its manifests declare it, composed from what each
// kind brings (`preview`, src/kinds/handset.ts) by role alone: the sections of
// handsets (`page`), the parts drawn into another kind's handsets (`partOf`),
// the brand's picture (`avatar`); then the findings about the links between
// the handsets. No kind is named here.

import { relative } from 'node:path';
import { declaredObjects } from '../kinds/declared.js';
import type { Handset, HandsetPart, PageSection, ShownSource } from '../kinds/handset.js';
import { imageOf, isLocalFile, linkFindings, replyTarget, type Finding, type ImageView, type LinkTarget, type RawReply, type Resolvers } from '../kinds/handset-model.js';
import { KINDS, type AnyKind } from '../kinds/index.js';
import { isPreviewable, pluralOf, type Previewable } from '../kinds/resource-kind.js';
import type { DesiredBrand, Diagnostic } from '../manifest/types.js';
import { brandFolderOf } from '../kinds/brand-name.js';

/** One section of a brand's page: the handsets of the kinds whose `page` has its id, in registry order. */
export interface SectionView {
  id: string;
  heading: string;
  /** Its title in the page's contents, when it is listed there. */
  toc?: string;
  order: number;
  /** Drawn even when empty. */
  always: boolean;
  /** Counted in the page's header, in the words of its first kind (`auto-reply`, `auto-replies`). */
  counted: boolean;
  one: string;
  many: string;
  /** Cut into pages when the brand has many. */
  paged: boolean;
  /** Replies open its handsets: each carries the badges of its findings. */
  opened: boolean;
  handsets: Handset[];
}

/** One brand's preview. */
export interface BrandView {
  brandId: string;
  /** The brand's name: the first object of a kind that names the brand (its profile), else the folder that declares it, else its id. */
  title: string;
  /** The name every handset shows at its top (the main room's); the title when nothing gives one. */
  barName?: string;
  /** The brand's picture on every handset (its logo). */
  avatar?: ImageView;
  /** The sections, in their order on the page. */
  sections: SectionView[];
  findings: Finding[];
  /** Style rules the kinds' drawings bring. */
  css: string;
}

/** The sections of `view` drawn on its page: those with handsets, and those drawn even when empty. */
export function drawnSections(view: BrandView): SectionView[] {
  return view.sections.filter((s) => s.always || s.handsets.length > 0);
}

/** The handsets of the section `id` (tests and programs: `handsetsIn(view, 'rooms')`). */
export function handsetsIn(view: BrandView, id: string): Handset[] {
  return view.sections.find((s) => s.id === id)?.handsets ?? [];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type PreviewKind = AnyKind & Previewable<any>;

/** The kinds the preview draws, in registry order. */
export function previewKinds(): PreviewKind[] {
  return KINDS.filter(isPreviewable);
}

/** The style rules every previewable kind's drawing brings. */
export function kindsCss(): string {
  return previewKinds()
    .map((k) => k.preview.css ?? '')
    .join('');
}

/** The brand's picture: the first declared object of a kind that gives one. */
export function avatarOf(brand: DesiredBrand): ImageView | undefined {
  for (const kind of previewKinds()) {
    const avatar = kind.preview.avatar;
    const first = avatar === undefined ? undefined : declaredObjects(kind, brand)[0];
    if (avatar !== undefined && first !== undefined) {
      const { file, alt } = avatar(first[1]);
      return imageOf(file, alt);
    }
  }
  return undefined;
}

/** The anchor of a declared object on the page: its section's prefix and its key. */
const anchorOf = (page: PageSection<unknown>, key: string): string => `${page.anchor}-${key}`;

/**
 * The handset a reply opens: by the key of an object replies open, or by the
 * live id one is pinned to. Both looked up in maps made once: a search of the
 * messages per reply made a brand of n linked auto-replies cost n² (100,000 of
 * them did not finish in minutes).
 */
function linkTargets(brand: DesiredBrand, kinds: readonly PreviewKind[]): (reply: RawReply) => LinkTarget {
  const byKey = new Map<string, LinkTarget>();
  const byPinned = new Map<string, LinkTarget>();
  for (const kind of kinds) {
    const page = kind.preview.page;
    if (page?.target === undefined) continue;
    for (const [key, d] of declaredObjects(kind, brand)) {
      const t = page.target(d);
      const target = { key: anchorOf(page, key), name: t.name };
      byKey.set(key, target);
      if (t.pinnedId !== undefined && !byPinned.has(t.pinnedId)) byPinned.set(t.pinnedId, target);
    }
  }
  return (reply) => {
    const to = replyTarget(reply);
    if (to !== undefined && 'key' in to) return byKey.get(to.key) ?? { name: to.key };
    // A reply with neither target is a chatbot answer (isAnswer), never looked up here.
    return to === undefined ? { name: '' } : (byPinned.get(to.id) ?? { name: to.id });
  };
}

/** The preview of one brand; `diagnostics` are the loader's warnings, shown as lint findings. */
export function brandView(brand: DesiredBrand, diagnostics: readonly Diagnostic[] = [], cwd = process.cwd()): BrandView {
  const shortNames = new Map<string, string>();
  const where = (s: ShownSource): string => {
    let name = shortNames.get(s.file);
    if (name === undefined) shortNames.set(s.file, (name = relative(cwd, s.file) || s.file));
    return `${name}:${s.line}`;
  };
  const kinds = previewKinds();
  const resolvers: Resolvers = {
    // A drawing gives its images as local files (what the manifest's file handle names), else as a name.
    image: (value, alt) => (isLocalFile(value) ? imageOf(value, alt) : { name: String(value), alt }),
    link: linkTargets(brand, kinds),
  };
  const avatar = avatarOf(brand);

  // What each kind draws into another's handsets, by the kind and key it is drawn into.
  const parts = new Map<string, HandsetPart[]>();
  const into = (kind: string, key: string): string => `${kind}\u0000${key}`;
  for (const kind of kinds) {
    const partOf = kind.preview.partOf;
    if (partOf === undefined) continue;
    for (const [, d] of declaredObjects(kind, brand)) {
      const of = partOf.of(d);
      const at = into(of.kind, of.key);
      parts.set(at, [...(parts.get(at) ?? []), partOf.part(d, { brand, resolvers })]);
    }
  }

  const byKind = new Map<string, Handset[]>();
  const sections: SectionView[] = [];
  let title: string | undefined;
  let barName: string | undefined;
  for (const kind of kinds) {
    const page = kind.preview.page;
    if (page === undefined) continue;
    let section = sections.find((s) => s.id === page.id);
    if (section === undefined) {
      section = {
        id: page.id,
        heading: page.heading,
        ...(page.toc !== undefined ? { toc: page.toc } : {}),
        order: page.order,
        always: page.always === true,
        counted: page.counted === true,
        one: kind.label,
        many: pluralOf(kind),
        paged: page.paged === true,
        opened: page.target !== undefined,
        handsets: [],
      };
      sections.push(section);
    }
    const own: Handset[] = [];
    byKind.set(kind.name, own);
    for (const [key, d] of declaredObjects(kind, brand)) {
      const h = page.handset(d, {
        brand,
        key,
        anchor: anchorOf(page, key),
        address: `${kind.name}.${key}`,
        where,
        resolvers,
        parts: parts.get(into(kind.name, key)) ?? [],
        ...(avatar !== undefined ? { avatar } : {}),
        handsetsOf: (name) => byKind.get(name) ?? [],
      });
      own.push(h);
      section.handsets.push(h);
      if (page.namesBrand === true && title === undefined) title = h.name;
      if (barName === undefined) barName = page.barName?.(d);
    }
  }
  sections.sort((a, b) => a.order - b.order);

  const ownFiles = new Set(brand.manifestFiles);
  const lint: Finding[] = diagnostics
    .filter((d) => ownFiles.has(d.file))
    .map((d): Finding => ({ code: 'lint', severity: 'warning', message: `${d.code}: ${d.message}`, where: where(d) }));
  const linked = sections.flatMap((s) => s.handsets.map((h) => ({ key: h.key, name: h.name, links: h.links, opened: s.opened })));
  return {
    brandId: brand.brandId,
    // The brand's name, never a room's (a brand has many rooms): without a profile, the folder that declares the brand.
    title: title ?? folderTitle(brand),
    ...(barName !== undefined ? { barName } : {}),
    ...(avatar !== undefined ? { avatar } : {}),
    sections,
    findings: [...linkFindings(linked), ...lint],
    css: kindsCss(),
  };
}

/** A brand without a declared name, by the folder that declares it (its id when that is the working folder). */
function folderTitle(brand: DesiredBrand): string {
  const folder = brandFolderOf(brand);
  return folder === '.' ? brand.brandId : folder;
}
