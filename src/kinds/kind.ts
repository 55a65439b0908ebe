// The one description of a resource kind that the planner, applier, drift and
// export are generic over (DESIGN.md, Pipeline). Adding a kind means writing
// one of these and adding it to src/kinds/index.ts.

import type { DesiredBrand, PruneKind } from '../manifest/types.js';
import type { FieldChange, Gate, KindName, LiveBrand, PlanProblem, Step, StepFile } from '../plan/types.js';

/** Resolves references while planning: a live id when known, else a `<ref:kind:key>` placeholder. */
export interface PlanContext {
  brand: DesiredBrand;
  live: LiveBrand;
  /** The id of resource `kind:key`: its live id if it exists, else a placeholder the applier fills in. */
  ref(kind: KindName, key: string): string;
  /** The file name of a live auto-reply file id, when known. */
  liveFileName(fileId: string): string | undefined;
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

/** A resource kind: identity, reading, normalisation, requests, state rules and references. */
export interface ResourceKind<D, L> {
  readonly name: KindName;
  /** How people call it: `auto-reply`, `room`. */
  readonly label: string;
  /** The `prune:` entry that allows deleting unlisted live objects; none means never deleted. */
  readonly prune?: PruneKind;
  /** Whether unlisted live objects are reported as unmanaged. */
  readonly reportsUnmanaged: boolean;
  /**
   * True when a manifest may leave fields unmanaged (rooms): after apply only
   * the fields the plan expected are compared, since the service fills the rest.
   */
  readonly partialFields?: boolean;

  desired(brand: DesiredBrand): D[];
  live(live: LiveBrand): L[];
  /** The key in the resource's address (`autoReply.<key>`): a handle or a service id. */
  key(d: D): string;
  desiredName(d: D): string;
  liveId(l: L): string;
  liveName(l: L): string;
  /** approvalResult or status, used by gates and fingerprints. */
  liveState(l: L): string | undefined;

  match(desired: D[], live: L[], brand: DesiredBrand): MatchResult<D, L>;

  /** Comparable form of a live object: server-owned fields dropped, defaults applied. */
  normaliseLive(l: L, ctx: PlanContext): unknown;
  /** Comparable form of a desired object; `l` is its live counterpart, for fields left unmanaged. */
  normaliseDesired(d: D, ctx: PlanContext, l: L | undefined): unknown;

  /** The step that brings a missing object into being, or undefined when nothing is to be sent. */
  createStep(d: D, ctx: PlanContext, seed: StepSeed): Step | undefined;
  /** The step that changes a live object. */
  updateStep(d: D, l: L, ctx: PlanContext, seed: StepSeed): Step;
  /** Problems that stop a create (for example a room with no certificate). */
  createProblems?(d: D): PlanProblem[];

  gates: {
    create(d: D): Gate;
    update(l: L, changes: FieldChange[], d: D): Gate;
    delete(l: L): Gate;
  };

  /**
   * Tokens (`chatbot:0212345678`) of steps that must run before this object's
   * steps, beyond those its request names; `l` is the live counterpart, if any.
   */
  after?(d: D, l?: L): string[];
  /** References a live object holds (`autoReply:ARM0001`), so deletes wait for the updates that drop them. */
  liveRefs(l: L): string[];

  /** Splits a create request whose references form a cycle into create-without-links and the links. */
  splitLinks?(request: unknown): { base: unknown; links: unknown } | undefined;
}

/** A kind with its type parameters erased, for registries. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyKind = ResourceKind<any, any>;

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

/** The no-gate value. */
export const NO_GATE: Gate = { type: 'none' };
