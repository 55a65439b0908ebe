// The one description of a resource kind that every stage is generic over:
// validate (its manifest section), plan (identity, normalisation, requests,
// gates, references), apply (its handlers and their idempotency codes),
// staleness and verification (re-reading by identity), drift (findings about
// its live state) and export (its manifest section from live objects).
// A kind is one folder, src/kinds/<kind>/, whose index.ts exports one of these;
// the registry (src/kinds/index.ts) lists them. The stages never name a kind:
// what differs between kinds is a declared property here.

import type { BrandRef, RcsClient } from '../api/index.js';
import type { Inspector } from '../api/inspect.js';
import type { DoctorCheck } from '../core/doctor-check.js';
import type { DriftOptions, Finding } from '../core/finding.js';
import type { LiveBrand } from '../core/live.js';
import type { IdMap } from '../core/refs.js';
import type { FieldChange, Gate, KindName, PlanProblem, Step } from '../core/step.js';
import type { DesiredBrand, Diagnostic } from '../manifest/types.js';
import type { LiveCache } from './live-cache.js';
import type { KindManifest } from './manifest-section.js';
import type { KindPreview } from './handset.js';

/** What normalising a live object needs: other live objects by id, never a manifest. */
export interface LiveContext {
  /** The name of a live object of `kind` (a live auto-reply file's fileName), when it was read. */
  liveName(kind: KindName, id: string): string | undefined;
}

/** Choices made for one plan (`plan --cancel-review`), which kinds may act on. */
export interface PlanOptions {
  /** Withdraw a pending review before changing what waits for it (templates). */
  cancelReview?: boolean;
  /** The kinds' own options set for this run (`Optioned`), by flag without dashes: an `option` gate naming one of them is lifted. */
  options?: readonly string[];
}

/** What planning needs beyond the live view: the manifest, and ids of things not created yet. */
export interface PlanContext extends LiveContext {
  brand: DesiredBrand;
  live: LiveBrand;
  options?: PlanOptions;
  /** The id of resource `kind:key`: its live id if it exists, else a placeholder the applier fills in. */
  ref(kind: KindName, key: string): string;
}

/** Desired and live objects paired by identity. */
export interface MatchResult<D, L> {
  pairs: [D, L][];
  /** Desired objects with no live counterpart: to create. */
  missing: D[];
  /** Live objects no desired object claims: unmanaged, or deleted when pruned. */
  extra: L[];
  problems: PlanProblem[];
}

/** What a kind's step builders receive from the generic planner. */
export interface StepSeed {
  id: string;
  kind: KindName;
  address: string;
  name: string;
  gate: Gate;
  changes: FieldChange[];
  dependsOn: string[];
  produces: string;
}

/** What reading needs: the client, the brand, and what other kinds read before. */
export interface ReadEnv {
  client: RcsClient;
  brand: BrandRef;
  concurrency: number;
  /** The manifests' view of the brand, when reading for a plan (export reads without one). */
  desired?: DesiredBrand;
  /** The account (the service's personId) reads that name one act as when the manifests name none (`export --account`). */
  account?: string;
  /** Details whose list `updateDate` is unchanged are taken from here. */
  cache?: LiveCache;
  /** The sections read so far: every kind named in `read.after` is there. */
  live: Readonly<Record<string, unknown>>;
}

/**
 * How a kind reads its live objects: a `ListReader` when its list is the
 * section, a `DetailReader` when each listed object is read in full.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type KindReader<Listed = unknown> = ListReader<Listed> | DetailReader<any, any>;

/** What every reader may say. */
interface ReaderBase {
  /** Kinds whose sections must be read first (auto-reply files come from the auto-replies' media fields). */
  after?: readonly KindName[];
}

/** A kind whose list (or whatever it reads in one go) is its section. */
export interface ListReader<Listed = unknown> extends ReaderBase {
  /** The section, read concurrently with every other kind's. */
  list(env: ReadEnv): Promise<Listed>;
}

/**
 * A kind read as a list, then each listed object in full. Detail reads overlap
 * the list: each item's detail read starts as soon as its page of the list has
 * arrived (`env.concurrency` at a time), not once the last page is in.
 */
export interface DetailReader<Item, Detail> extends ReaderBase {
  /** The list, item by item as its pages arrive (a `Listing` says its pagination total). */
  items(env: ReadEnv): AsyncIterable<Item>;
  /** One listed item's detail, from the live cache or the service. */
  detail(env: ReadEnv, item: Item): Promise<Detail>;
  /** The section from every item and its detail (in list order); without it, the details are. */
  section?(env: ReadEnv, items: Item[], details: Detail[]): Promise<unknown> | unknown;
}

/** What a handler needs besides the step. */
export interface HandlerEnv {
  client: RcsClient;
  brand: BrandRef;
  ids: IdMap;
  /** Uploads by content hash, so one run never uploads the same content twice. */
  uploads: Map<string, Promise<string>>;
  /** Re-checks, right before a create, that nothing of its name appeared since the plan. */
  absence?: { assertAbsent(kind: KindName, name: string, address: string): Promise<void> };
}

/** What a step produced: the service id of what it created, and a note for the report. */
export interface StepOutcome {
  id?: string;
  note?: string;
}

/** Sends one step to the service. */
export type Handler = (step: Step, env: HandlerEnv) => Promise<StepOutcome>;

/** One live object read again, with what normalising it needs. */
export interface Reread<L> {
  live: L;
  ctx: LiveContext;
}

/** What drift passes to a kind's state findings. */
export interface FindingEnv {
  /** Whether the manifests declare the resource. */
  managed: boolean;
  now: Date;
  opts: DriftOptions;
}

/** What export passes to a kind's section writer. */
export interface ExportContext {
  /** The handle export gave a live object of `kind` (by live id), if that kind assigns handles. */
  handle(kind: KindName, liveId: string): string | undefined;
  /** Place a live image under `dir` and queue its download; returns the path the manifest writes. */
  image(fileName: string, url: string, dir: string): string;
  /** Tell the user something about the export. */
  note(message: string): void;
}

/** How a kind writes its live objects back as a manifest section. */
export interface KindExporter<L> {
  /** The manifest section written (`autoReplies`). */
  section: string;
  /** Handles by live id for this kind's objects, so other kinds can refer to them. */
  handles?(live: L[]): Map<string, string>;
  /** The section's entries (key order as written); empty leaves the section out. */
  entries(live: L[], ctx: ExportContext): Record<string, unknown>;
  /** Why the section could not be read, when it could not (the brand page without an account): export says so rather than count it as empty. */
  unread?(live: LiveBrand): string | undefined;
}

/** One object as its kind's list shows it: enough to tell another process's work. */
export interface ListedObject {
  id: string;
  name: string;
  updateDate: string;
  registerDate: string;
}

/**
 * How a kind whose identity is a name the service does not keep unique
 * (auto-replies, logos) is listed: apply re-checks right before each create
 * that the name is still free, compares the list before and after a run for
 * another process's work, and `apply --dedupe` keeps one copy of each name
 * and deletes the others with the kind's delete handler. `Item` is a list
 * entry; a live object must do as well.
 */
export interface NamedListing<D, L, Item = L> {
  /** Several of them, for messages: `auto-replies`. */
  readonly plural: string;
  /** The whole list now (one paged read). */
  list(client: RcsClient, brand: BrandRef): Promise<Item[]>;
  /** A list entry, or a live object as read for a plan, as the list shows it. */
  listed(item: Item | L): ListedObject;
  /** The name a desired object claims; undefined when it is pinned by id (a copy of its name is then not its concern). */
  claimedName(d: D): string | undefined;
}

/**
 * How verification reads a kind's list after apply: one list read instead of a
 * detail read per object, for deletes (absence), missing objects, and entries
 * that vouch for an object by themselves.
 */
export interface KindListing<Item = unknown> {
  /** The whole list now (one paged read). */
  list(client: RcsClient, brand: BrandRef): Promise<Item[]>;
  /** An entry's live id. */
  id(item: Item): string;
  /** An entry is the whole live object and names no other (logos): it is compared as it is. */
  complete?: boolean;
  /**
   * Keep in the live cache an object this run created and verification
   * vouched for from `item` (its entry, untouched since the create): `sent` is
   * the create request as sent. A kind without it reads such objects again.
   */
  remember?(cache: LiveCache, brandId: string, item: Item, sent: unknown): void;
}

/** A reference the graph draws as an arrow from the object that holds it. */
export interface DrawnLink {
  /** The address of what it points at, as the manifests name it (`autoReply.hours`). */
  to: string;
  label?: string;
  /** The target is a live object the manifests do not declare (a pinned id): a dashed arrow to a node of its own. */
  outside?: boolean;
  /** The target is a local image the object holds itself (a template's `value: {path}`), not a declared object: a node of its own, named by its path (`to` is `image.<path>`). */
  image?: boolean;
}

/** How `rcsctl graph` draws a kind's declared objects; without one, a node of its name and address. */
export interface KindDrawing<D> {
  /** Fill and outline of its nodes, in both notations. */
  readonly colour?: readonly [fill: string, stroke: string];
  /** The node's first line; default the kind's `desiredName`. */
  name?(d: D): string;
  /** Lines after the address (an auto-reply's messagebase). */
  details?(d: D): string[];
  /** What it refers to: an arrow from it to each. */
  links?(d: D): DrawnLink[];
  /** The address of what it is part of (a menu, of its room): an arrow from that to it. */
  partOf?(d: D): string;
}

/** What a kind's doctor checks get: raw read-only access, the brand, and the brand's base path (`/api/1.1/brand/BR.x`). */
export interface DoctorEnv {
  inspect: Inspector;
  brand: BrandRef;
  base: string;
  /** The account (personId) the run names (its RCSCTL_PERSON_ID), for the checks that read as one. */
  account?: string;
}

/** How one object of a kind is known: its key in the address, its names, its live id and state. */
export interface KindIdentity<D, L> {
  /** The key in the resource's address (`autoReply.<key>`): a handle or a service id. */
  key(d: D): string;
  /** What a desired object is called in messages and the plan. */
  desiredName(d: D): string;
  liveId(l: L): string;
  liveName(l: L): string;
  /** approvalResult or status, used by gates and fingerprints. */
  liveState(l: L): string | undefined;
}

/**
 * How a kind reads its live objects, and reads one again: a reader and the
 * section it fills go together, or neither is given (a kind read with
 * another's section: menus live in rooms).
 */
export type KindRead<L> = (ReadsSection | ReadWithAnother) & {
  /** Read one live object by its live id (as the account `readAs`, when its step recorded one); undefined when it is gone. */
  reread(client: RcsClient, brand: BrandRef, id: string, readAs?: string): Promise<Reread<L> | undefined>;
};

/** A kind that reads a section of the live brand of its own. */
interface ReadsSection {
  /** How its live objects are read. */
  readonly reader: KindReader;
  /** The section of the live brand `reader` fills (`autoReplies`). */
  readonly section: string;
}

/** A kind whose live objects another kind's section holds. */
interface ReadWithAnother {
  readonly reader?: undefined;
  readonly section?: undefined;
}

/** How desired and live objects are paired, compared and turned into steps. */
export interface KindDiff<D, L> {
  /** Desired and live objects paired by identity; the rest is to create, or unmanaged. */
  match(desired: D[], live: L[], brand: DesiredBrand): MatchResult<D, L>;
  /** Comparable form of a live object: server-owned fields dropped, defaults applied. */
  normaliseLive(l: L, ctx: LiveContext): unknown;
  /** Comparable form of a desired object; `l` is its live counterpart, for fields left unmanaged. */
  normaliseDesired(d: D, ctx: PlanContext, l: L | undefined): unknown;
  /** The step that brings a missing object into being, or undefined when nothing is to be sent. */
  createStep(d: D, ctx: PlanContext, seed: StepSeed): Step | undefined;
  /** The step that changes a live object. */
  updateStep(d: D, l: L, ctx: PlanContext, seed: StepSeed): Step;
}

/** What may stop, or must confirm, each operation on an object (a review, a state that blocks, a delete). */
export interface KindGates<D, L> {
  create(d: D): Gate;
  update(l: L, changes: FieldChange[], d: D): Gate;
  delete(l: L): Gate;
}

/**
 * A resource kind: its whole life, from manifest section to export. This is
 * the core every kind has, ten members: what it is (`name`, `label`), its
 * schema (`manifest`), its desired and live objects (`desired`, `live`), how
 * one object is known (`identity`), read (`read`), compared and turned into
 * steps (`diff`, `gates`), and sent (`handlers`). What only some kinds do is a
 * capability interface a kind adds to its type (`ResourceKind<D, L, 'logo'> &
 * Previewable<D> & Stateful<L> & Exportable<L>`), and a stage asks for it with
 * the capability's type guard (`isExportable(kind)`), as Terraform's plugin
 * framework adds `ResourceWithImportState` to a resource. A stage cannot reach
 * a capability's member without the guard: it is not on this type.
 */
export interface ResourceKind<D, L, N extends KindName = KindName> {
  readonly name: N;
  /** How people call it: `auto-reply`, `room`. */
  readonly label: string;
  /** Its manifest section: schema fragment, builder and lint rules. */
  readonly manifest?: KindManifest;
  /** Its objects the manifests declare. */
  desired(brand: DesiredBrand): D[];
  /** Its objects in a live brand as read. */
  live(live: LiveBrand): L[];
  readonly identity: KindIdentity<D, L>;
  readonly read: KindRead<L>;
  readonly diff: KindDiff<D, L>;
  readonly gates: KindGates<D, L>;
  /** Its apply handlers, by operation. */
  readonly handlers: Partial<Record<Step['op'], Handler>>;
}

/**
 * A kind a handset shows, for `preview` and `plan --preview`: it brings its own
 * drawing (src/kinds/handset.ts), whose parts the preview composes by their
 * roles (a section of handsets on the brand's page, a part drawn into another
 * kind's handset, the brand's picture, files others show, a change drawn
 * before and after) without naming the kind.
 */
export interface Previewable<D> {
  readonly preview: KindPreview<D>;
}

/** A kind whose live objects have a state drift reports on (review, expiry). */
export interface Stateful<L> {
  /** Finding codes its `findings` can produce (each documented in docs/troubleshooting.md). */
  readonly findingCodes: readonly string[];
  /** Findings about a live object's state, for drift. */
  findings(address: string, l: L, env: FindingEnv): Finding[];
}

/** A kind the service can list in full, so export writes it back as a manifest section. */
export interface Exportable<L> {
  readonly exporter: KindExporter<L>;
}

/**
 * What doctor's checks across kinds read of a kind: its live list (the dates
 * in it, the states it shows) and how the service leaves its fields that have
 * no value. A kind's checks of its own routes are its `doctor`.
 */
export interface DoctorSurvey {
  /** Its list route under the brand's path (`/logo`), read once with limit 1000. */
  readonly list: string;
  /** The states (approvalResult) rcsctl knows for it. */
  readonly states?: readonly string[];
  /**
   * Fields that may have no value, and how the service leaves them: the key
   * absent, or null. Read from the list, or from the first few details when
   * `detail` gives the route of one listed item.
   */
  readonly unset?: { readonly fields: readonly string[]; readonly form: 'absent' | 'null'; detail?(item: Readonly<Record<string, unknown>>): string };
}

/** A kind doctor's checks across kinds look at. */
export interface Surveyed {
  readonly survey: DoctorSurvey;
}

/** Whether doctor's checks across kinds read `kind`. */
export function isSurveyed<K extends AnyKind>(kind: K): kind is K & Surveyed {
  return typeof (kind as Partial<Surveyed>).survey === 'object';
}

/** The operations a kind may give its own words (the others are the kind's own only in name: an upload, a link step). */
export type WordedOp = 'create' | 'update' | 'delete';

/**
 * A kind whose steps read better in words of its own than "will be created"
 * (a room's menu "will be replaced", "removed"): the plan, the preview and
 * apply's report use them for the operations it names.
 */
export interface Worded {
  readonly words: Readonly<Partial<Record<WordedOp, { readonly plan: string; readonly done: string }>>>;
}

/** Whether `kind` has words of its own for its steps. */
export function isWorded<K extends AnyKind>(kind: K): kind is K & Worded {
  return typeof (kind as Partial<Worded>).words === 'object';
}

/** A command-line option of plan and apply that a kind adds (`Optioned`): a flag that lifts its `option` gates. */
export interface KindOption {
  /** The flag without its dashes (`allow-something`): a gate of type `option` names it. */
  readonly flag: string;
  /** Its line in `plan --help` and `apply --help`. */
  readonly description: string;
}

/**
 * A kind with options of its own on plan and apply: a step it gates with
 * `{ type: 'option', option: flag }` is refused unless the run sets `--flag`
 * (a change too dangerous to run by default). The CLI registers every kind's
 * options; the plan marks each such gate lifted when its flag is set.
 */
export interface Optioned {
  readonly options: readonly KindOption[];
}

/** Whether `kind` adds options of its own to plan and apply. */
export function isOptioned<K extends AnyKind>(kind: K): kind is K & Optioned {
  return Array.isArray((kind as Partial<Optioned>).options);
}

/** An entry of a live object that users press, as the statistics name it. */
export interface UsageEntry {
  /** What the reader sees: the menu item's or button's label. */
  entry: string;
  change: 'removed' | 'changed';
  /** The statistics read that counts it (`menu:<chatbotId>`): read once per run, whichever kind asks. */
  source: string;
  /** Its key among that read's counts. */
  key: string;
}

/**
 * A kind whose entries users press (menu items, buttons and chips): plan shows,
 * beside a step that removes or changes them, how often they were pressed.
 */
export interface UsageCounted<L> {
  readonly usage: {
    /** The pressed entries that `step` on live object `l` removes or changes. */
    entries(step: Step, l: L, live: LiveBrand): UsageEntry[];
    /** Presses by key from `from` to `to` (yyyymmdd) of one source. */
    read(client: RcsClient, brand: BrandRef, source: string, from: string, to: string): Promise<Map<string, number>>;
  };
}

/** Whether plan can say how often users pressed what `kind`'s steps remove or change. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isUsageCounted<K extends AnyKind>(kind: K): kind is K & UsageCounted<any> {
  return typeof (kind as Partial<UsageCounted<unknown>>).usage === 'object';
}

/** A kind `rcsctl graph` draws its own way; without it, a node of its name and address. */
export interface Drawn<D> {
  readonly drawing: KindDrawing<D>;
}

/** A kind whose references can form a cycle: a create is split into the create without links and a link step. */
export interface LinkSplitting {
  /** Splits a create request whose references form a cycle into create-without-links and the links. */
  splitLinks(request: unknown): { base: unknown; links: unknown } | undefined;
  /** Field changes that belong to the second (link) step when a cycle of references is split. */
  readonly linkChange?: RegExp;
}

/**
 * A kind whose live objects hold references to other objects: plan orders a
 * delete after the updates that drop its references, and `apply --dedupe`
 * re-points them. Without it, a kind's live objects refer to nothing.
 */
export interface Referring<L> {
  /** References a live object holds (`autoReply:ARM0001`), so deletes wait for the updates that drop them. */
  liveRefs(l: L): string[];
  /**
   * The step that writes live object `l` back as it is, except that each of
   * its references `to` names (`autoReply:ARM2` → `ARM1`) points at the new
   * id; undefined when it holds none.
   */
  relink(l: L, to: ReadonlyMap<string, string>, seed: StepSeed): Step | undefined;
}

/** A kind with problems only the live service can reveal (a template against the form the service holds). */
export interface LiveChecked<D> {
  /** Checked for every desired object before anything is planned. */
  liveProblems(desired: D[], live: LiveBrand): PlanProblem[];
}

/** A kind that tells, for a saved plan, which of its creates exist now; without it, each create is re-read by its key. */
export interface CreatedSince {
  /** Creates in a saved plan whose object exists now (made by someone else, or by an earlier run): `how` says so. */
  createdSince(client: RcsClient, brand: BrandRef, creates: Step[]): Promise<{ address: string; how: string }[]>;
}

/** A kind verification reads by its list after apply; without it, every object it checks is re-read. */
export interface Listed {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly listing: KindListing<any>;
}

/** A kind whose identity is a name the service does not keep unique: how its list is read (see NamedListing). */
export interface Named<D, L> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly named: NamedListing<D, L, any>;
}

/** A kind that adds a note to drift for a brand (what the service cannot show). */
export interface DriftNoted {
  driftNote(desired: DesiredBrand): string | undefined;
}

/**
 * A kind with checks of its own for `rcsctl doctor`: read-only requests (GETs
 * through `inspect`) of its routes, each said as ok, differs or skipped. Run
 * after the service-wide checks, once the brand answered.
 */
export interface Doctored {
  doctor(env: DoctorEnv): Promise<DoctorCheck[]>;
}

/**
 * A kind whose objects are content-addressed uploads (auto-reply image
 * files): a missing one is brought into being by an `upload` step, which
 * shows no field changes, and apply cannot check it by reading it back.
 */
export interface Uploaded {
  readonly createOp: 'upload';
  readonly verified: false;
}

/** Whether `kind`'s objects are content-addressed uploads. */
export function isUploaded<K extends AnyKind>(kind: K): kind is K & Uploaded {
  return (kind as Partial<Uploaded>).createOp === 'upload';
}

/** A kind whose steps wait for steps its requests do not name (a room's menu, for its room). */
export interface Ordered<D, L> {
  /**
   * Tokens (`chatbot:0212345678`) of steps that must run before this object's
   * steps, beyond those its request names; `l` is the live counterpart, if any.
   */
  after(d: D, l?: L): string[];
}

/** Whether `kind`'s steps wait for steps their requests do not name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isOrdered<K extends AnyKind>(kind: K): kind is K & Ordered<any, any> {
  return typeof (kind as Partial<Ordered<unknown, unknown>>).after === 'function';
}

/** A kind whose unlisted live objects may be deleted: the `prune:` entry that allows it. Without it, never deleted. */
export interface Prunable {
  readonly prune: string;
}

/**
 * A kind a manifest may leave fields of unmanaged (rooms): after apply only
 * the fields the plan expected are compared, since the service fills the rest.
 */
export interface PartlyManaged {
  readonly partialFields: true;
}

/** A kind whose gates can answer `review`: what of it goes to operator review, in help's words (`room`, `brand name or profile image`). */
export interface Reviewed {
  readonly reviewed: string;
}

/** A kind with problems that stop a create (a room with no certificate). */
export interface CreateChecked<D> {
  createProblems(d: D): PlanProblem[];
}

/** A kind export cannot write back: why, and what to do instead, said in export's output and the manifest it writes. */
export interface NotExported {
  readonly notExported: string;
}

/** The `prune:` entry of `kind`, when it may be pruned. */
export function pruneOf(kind: AnyKind): string | undefined {
  const prune = (kind as Partial<Prunable>).prune;
  return typeof prune === 'string' ? prune : undefined;
}

/** Whether the manifests' `prune:` list (`prune`) names `kind`. */
export function prunedBy(kind: AnyKind, prune: readonly string[]): boolean {
  const entry = pruneOf(kind);
  return entry !== undefined && prune.includes(entry);
}

/** Whether a manifest may leave fields of `kind` unmanaged. */
export function isPartlyManaged<K extends AnyKind>(kind: K): kind is K & PartlyManaged {
  return (kind as Partial<PartlyManaged>).partialFields === true;
}

/** What of `kind` goes to operator review, when anything does. */
export function reviewedOf(kind: AnyKind): string | undefined {
  const reviewed = (kind as Partial<Reviewed>).reviewed;
  return typeof reviewed === 'string' ? reviewed : undefined;
}

/** Whether `kind` checks a create for problems first. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isCreateChecked<K extends AnyKind>(kind: K): kind is K & CreateChecked<any> {
  return typeof (kind as Partial<CreateChecked<unknown>>).createProblems === 'function';
}

/** Why export cannot write `kind` back, when it cannot. */
export function notExportedOf(kind: AnyKind): string | undefined {
  const why = (kind as Partial<NotExported>).notExported;
  return typeof why === 'string' ? why : undefined;
}

/** Whether the graph draws `kind` its own way. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isDrawn<K extends AnyKind>(kind: K): kind is K & Drawn<any> {
  return typeof (kind as Partial<Drawn<unknown>>).drawing === 'object';
}

/** Whether `kind` splits a create out of a reference cycle. */
export function splitsLinks<K extends AnyKind>(kind: K): kind is K & LinkSplitting {
  return typeof (kind as Partial<LinkSplitting>).splitLinks === 'function';
}

/** Whether `kind`'s live objects hold references (that `apply --dedupe` can re-point). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isReferring<K extends AnyKind>(kind: K): kind is K & Referring<any> {
  return typeof (kind as Partial<Referring<unknown>>).liveRefs === 'function';
}

/** The references live object `l` of `kind` holds; none for a kind that is not `Referring`. */
export function liveRefsOf(kind: AnyKind, l: unknown): string[] {
  return isReferring(kind) ? kind.liveRefs(l) : [];
}

/** A kind whose name for several is not its label with an s (`auto-replies`). */
export interface Plural {
  readonly plural: string;
}

/** Whether `kind` has a plural of its own. */
export function isPlural<K extends AnyKind>(kind: K): kind is K & Plural {
  return typeof (kind as Partial<Plural>).plural === 'string';
}

/** How several of `kind` are called: its `plural`, or its label with an s. */
export function pluralOf(kind: AnyKind): string {
  return isPlural(kind) ? kind.plural : `${kind.label}s`;
}

/**
 * A kind whose live objects the manifests do not declare are reported as
 * unmanaged (plan, drift, `export --adopt`): those someone may have made in
 * the console. Without it (files, menus, a brand's own settings), an
 * undeclared live object is not worth a word unless the kind is pruned.
 */
export interface ReportsUnmanaged {
  readonly reportsUnmanaged: true;
}

/** Whether `kind` reports live objects no manifest declares. */
export function isReportingUnmanaged<K extends AnyKind>(kind: K): kind is K & ReportsUnmanaged {
  return (kind as Partial<ReportsUnmanaged>).reportsUnmanaged === true;
}

/** Whether `kind` checks desired objects against what the service holds. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isLiveChecked<K extends AnyKind>(kind: K): kind is K & LiveChecked<any> {
  return typeof (kind as Partial<LiveChecked<unknown>>).liveProblems === 'function';
}

/** Whether `kind` tells which creates of a saved plan exist now. */
export function tellsCreatedSince<K extends AnyKind>(kind: K): kind is K & CreatedSince {
  return typeof (kind as Partial<CreatedSince>).createdSince === 'function';
}

/** Whether verification reads `kind` by its list. */
export function isListed<K extends AnyKind>(kind: K): kind is K & Listed {
  return typeof (kind as Partial<Listed>).listing === 'object';
}

/** Whether `kind`'s identity is a name the service does not keep unique. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isNamed<K extends AnyKind>(kind: K): kind is K & Named<any, any> {
  return typeof (kind as Partial<Named<unknown, unknown>>).named === 'object';
}

/** Whether `kind` adds a note to drift. */
export function isDriftNoted<K extends AnyKind>(kind: K): kind is K & DriftNoted {
  return typeof (kind as Partial<DriftNoted>).driftNote === 'function';
}

/** Whether `kind` has doctor checks of its own. */
export function isDoctored<K extends AnyKind>(kind: K): kind is K & Doctored {
  return typeof (kind as Partial<Doctored>).doctor === 'function';
}

/** Whether `kind` is drawn by the preview. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isPreviewable<K extends AnyKind>(kind: K): kind is K & Previewable<any> {
  return typeof (kind as Partial<Previewable<unknown>>).preview === 'object';
}

/** How a handset shows `kind` (its drawing's parts), or undefined when it is not drawn. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function previewOf(kind: AnyKind): KindPreview<any> | undefined {
  return isPreviewable(kind) ? kind.preview : undefined;
}

/** Whether drift asks `kind` for findings about its live objects' state. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isStateful<K extends AnyKind>(kind: K): kind is K & Stateful<any> {
  return typeof (kind as Partial<Stateful<unknown>>).findings === 'function';
}

/** Whether export writes `kind` back. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isExportable<K extends AnyKind>(kind: K): kind is K & Exportable<any> {
  return (kind as Partial<Exportable<unknown>>).exporter !== undefined;
}

/** The pure part of a kind (kind.ts in its folder): everything but reading, applying, drift, export and manifest. */
export type KindPlanning<D, L, N extends KindName = KindName> = Omit<ResourceKind<D, L, N>, 'manifest' | 'read' | 'handlers'>;

/** A kind with its type parameters erased, for registries. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyKind = ResourceKind<any, any>;

/** Diagnostics, re-exported for kinds' lint rules. */
export type { Diagnostic };
