// The nouns every stage shares: steps, gates, field changes and problems. The
// kinds build steps, the planner orders them, the applier runs them and the
// report shows them; all of them import these from here, and this module
// imports nothing of rcsctl's.

/**
 * A resource kind's name (`autoReply`, `chatbot`). The registry in src/kinds
 * decides which exist, and a program may register more at run time, so the
 * type is a string; `BuiltinKindName` (src/kinds/index.ts) is the list shipped.
 */
export type KindName = string;

/** One field-level difference, with a path like `buttons[0].suggestions[1].action.displayText`. */
export interface FieldChange {
  path: string;
  type: 'add' | 'remove' | 'change';
  before?: unknown;
  after?: unknown;
  /** On a create: the manifest leaves the field out and this is the service's default for it (shown `(default)`). */
  default?: true;
  /** Set by `plan --compare-to`: who caused this difference (Origin). */
  origin?: Origin;
  /** `before` is the live id of a resource the manifests declare: its address (`autoReply.hours`), which views show instead of the id. */
  beforeRef?: string;
  /** `after` is the live id of a resource the manifests declare: its address, shown instead of the id. */
  afterRef?: string;
}

/**
 * Who caused a step or a field change, when a plan is compared with the
 * manifests of its base (`plan --compare-to`): `change`, the change to the
 * manifests since the base; `outside`, a change made outside rcsctl since the
 * base was applied (a console edit), which the step undoes; `both`, the
 * manifests change what was also changed outside rcsctl (a step: fields of
 * both kinds).
 */
export type Origin = 'change' | 'outside' | 'both';

/**
 * How often users pressed the entries a step removes or changes (a menu item,
 * a button or chip), from the service's statistics over the last `days` days:
 * plan shows it beside the step, so a reviewer sees that the button being
 * removed is the brand's most used one.
 */
export interface StepUsage {
  days: number;
  entries: { entry: string; change: 'removed' | 'changed'; pressed: number }[];
}

/** Why a step may not simply run. */
export type Gate =
  | { type: 'none' }
  | { type: 'blocked'; state: string; reason: string }
  | {
      type: 'review';
      review: string;
      /** Set when the step first withdraws a pending review: gated like a delete as well. */
      withdraws?: string;
      /**
       * The changed fields that send it to review, when the kind reviews only
       * some (a brand's name and profile image); the others change at once.
       */
      fields?: string[];
    }
  | { type: 'destructive' }
  /**
   * A change a kind runs only when the run sets one of its own options
   * (`--<option>`, declared by the kind: `Optioned`): refused otherwise,
   * never by default. The plan sets `set` when the option was given.
   */
  | { type: 'option'; option: string; reason: string; set?: true };

/** A local file a step sends, checked again by hash when the step runs. */
export interface StepFile {
  /** Path as resolved when planning (absolute). */
  path: string;
  sha256: string;
  size: number;
  fileName: string;
  contentType: string;
  /**
   * What the file is sent as when it rides along a create or update (a new
   * room's `subscription certificate`): the plan shows it as an upload line of
   * that step. Absent on upload steps and where the file is a compared field.
   */
  sentAs?: string;
}

/** Fields every step has. */
interface StepBase {
  /** Unique within the brand plan, e.g. `autoReply.hours:create`. */
  id: string;
  kind: KindName;
  /** Address of the resource: `autoReply.hours`, `chatbot.0212345678`. */
  address: string;
  /** A human name (auto-reply name, room subTitle, file name). */
  name: string;
  /** Service id, when the resource exists live. */
  liveId?: string;
  /** The address the live object had before a `moved:` declaration renamed it (`autoReply.ARM000000000001`). */
  movedFrom?: string;
  /**
   * Composition: the shared base that declares the resource (its file and
   * line), and where the brand uses it; absent for a resource the brand's own
   * files declare, and on deletes. A base's change shows as such a step in
   * every brand that uses the base.
   */
  sharedBase?: { file: string; line: number; usedAt: { file: string; line: number } };
  /**
   * The account (the service's personId) the live object was read as, for
   * objects the service reads per account: apply re-reads it as the same one
   * (a saved plan is applied by another process, which knows no manifest).
   */
  readAs?: string;
  gate: Gate;
  /** Field-level changes shown in the plan. */
  changes: FieldChange[];
  /**
   * The normalised desired object (placeholders for ids not yet known): after
   * the run, the re-read live object must match it.
   */
  expected?: unknown;
  /** Ids of steps that must finish first. */
  dependsOn: string[];
  /** Set by `plan --compare-to`: who caused the step (its field changes say field by field). */
  origin?: Origin;
  /** How often users pressed what the step removes or changes (plan's usage statistics). */
  usage?: StepUsage;
  /**
   * The reference this step produces (`autoReply:hours`, `file:hero`): later
   * steps' requests name it as `<ref:…>` until the applier knows the id.
   */
  produces?: string;
}

/** Upload an auto-reply image file (content-addressed). */
export interface UploadStep extends StepBase {
  op: 'upload';
  file: StepFile;
}

/** Create a resource. */
export interface CreateStep extends StepBase {
  op: 'create';
  request: unknown;
  file?: StepFile;
}

/** Update a live resource. */
export interface UpdateStep extends StepBase {
  op: 'update';
  liveId: string;
  request: unknown;
  file?: StepFile;
}

/** Add reply links to an auto-reply created earlier in the same plan (cycles). */
export interface LinkStep extends StepBase {
  op: 'link';
  request: unknown;
}

/**
 * Delete a live resource: one no manifest names, of a kind named in `prune:`,
 * or one the manifests themselves remove (`declared`).
 */
export interface DeleteStep extends StepBase {
  op: 'delete';
  liveId: string;
  /**
   * The manifests ask for the removal themselves (a room's menu declared
   * empty): not a prune, so it runs without --allow-delete, the plan shows
   * what goes, and drift calls it a difference rather than a prune.
   */
  declared?: true;
}

/**
 * One step of a plan. The operations are the ones every kind shares: create,
 * update and delete, the upload of a content-addressed file, and the link
 * step that finishes a create split out of a reference cycle. How one kind
 * sends them (a room's menu replaced whole, a profile as multipart) lives in
 * its handlers, never in a variant of its own here.
 */
export type Step = UploadStep | CreateStep | UpdateStep | LinkStep | DeleteStep;

/** A live resource that no manifest names and whose kind is not pruned. */
export interface Unmanaged {
  kind: KindName;
  id: string;
  name: string;
}

/** A problem that stops the brand from being planned (e.g. duplicate live names). */
export interface PlanProblem {
  code: string;
  address: string;
  message: string;
  file?: string;
  line?: number;
  /** When `file` and `line` are a shared base's (composition): where the brand uses the base, so the problem names both. */
  usedAt?: { file: string; line: number };
}

/** What a fingerprint is taken of: a live object's state and normalised form. */
export interface LiveSnapshot {
  state: string | null;
  value: unknown;
}

/** The no-gate value. */
export const NO_GATE: Gate = { type: 'none' };

/** What a review gate says in every view: its reason, and the changed fields that trigger it when the kind names them. */
export function reviewText(gate: Extract<Gate, { type: 'review' }>): string {
  return gate.fields === undefined || gate.fields.length === 0 ? gate.review : `${gate.review} (reviewed: ${gate.fields.join(', ')})`;
}

/** Whether a step is refused by an option gate whose option the run did not set (shown and counted as blocked). */
export function refusedByOption(gate: Gate): gate is Extract<Gate, { type: 'option' }> {
  return gate.type === 'option' && gate.set !== true;
}

/** What an option gate says in every view: refused without its flag, or lifted by it. */
export function optionText(gate: Extract<Gate, { type: 'option' }>): string {
  return gate.set === true ? `allowed by --${gate.option}: ${gate.reason}` : `refused: ${gate.reason}; runs only with --${gate.option}`;
}

/** The placeholder for an id the applier learns when the producing step runs. */
export function placeholder(kind: KindName, key: string): string {
  return `<ref:${kind}:${key}>`;
}

/** Matches `<ref:kind:key>` placeholders inside any string. */
export const PLACEHOLDER_PATTERN = /<ref:([A-Za-z]+):([^>]+)>/g;

/** A local file as a step carries it. */
export function stepFile(file: { absPath: string; sha256: string; size: number; uploadName: string; mimeType: string }): StepFile {
  return { path: file.absPath, sha256: file.sha256, size: file.size, fileName: file.uploadName, contentType: file.mimeType };
}
