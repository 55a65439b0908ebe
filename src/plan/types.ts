// The plan: ordered, gated steps for one brand, and the versioned plan file.
// Steps are a tagged union on `op` (STYLE.md §3); the applier dispatches on it.

import type { AgencyFileInfo, AutoReplyDetail, AutoReplyFile, ChatbotDetail, Logo } from '../api/types.js';

/** The resource kinds rcsctl manages. */
export type KindName = 'file' | 'agencyFile' | 'autoReply' | 'logo' | 'chatbot' | 'persistentMenu';

/** What the live service holds for one brand, as read by `readLive`. */
export interface LiveBrand {
  brandId: string;
  autoReplies: AutoReplyDetail[];
  /** Auto-reply files known from the media fields of live auto-replies, by fileId. */
  files: Map<string, AutoReplyFile>;
  logos: Logo[];
  chatbots: ChatbotDetail[];
  /** Agency files the manifests name, by fileId; `null` when the service does not know it. */
  agencyFiles: Map<string, AgencyFileInfo | null>;
}

/** One field-level difference, with a path like `buttons[0].suggestions[1].action.displayText`. */
export interface FieldChange {
  path: string;
  type: 'add' | 'remove' | 'change';
  before?: unknown;
  after?: unknown;
}

/** Why a step may not simply run. */
export type Gate =
  | { type: 'none' }
  | { type: 'blocked'; state: string; reason: string }
  | { type: 'review'; review: string }
  | { type: 'destructive' };

/** A local file a step sends, checked again by hash when the step runs. */
export interface StepFile {
  /** Path as resolved when planning (absolute). */
  path: string;
  sha256: string;
  size: number;
  fileName: string;
  contentType: string;
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

/** Delete a live resource (only kinds named in `prune:`). */
export interface DeleteStep extends StepBase {
  op: 'delete';
  liveId: string;
}

/** Replace, create or delete the persistent menu of a room. */
export interface MenuReplaceStep extends StepBase {
  op: 'menu-replace';
  chatbotId: string;
  method: 'POST' | 'PUT' | 'DELETE';
  request: unknown;
}

/** One step of a plan. */
export type Step = UploadStep | CreateStep | UpdateStep | LinkStep | DeleteStep | MenuReplaceStep;

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
}

/** The plan for one brand. */
export interface BrandPlan {
  brandId: string;
  steps: Step[];
  unmanaged: Unmanaged[];
  problems: PlanProblem[];
  /** Fingerprint (hash of the snapshot) of every live resource a step touches, by address. */
  fingerprints: Record<string, string>;
  /** The state and normalised form each fingerprint was taken of, to say how a stale plan's resource changed. */
  snapshots: Record<string, LiveSnapshot>;
}

/** What a fingerprint is taken of: a live object's state and normalised form. */
export interface LiveSnapshot {
  state: string | null;
  value: unknown;
}

/** Counts for the summary line. */
export interface PlanSummary {
  create: number;
  update: number;
  delete: number;
  blocked: number;
  review: number;
  unmanaged: number;
}

/** Current plan file format version; apply refuses any other. */
export const PLAN_FILE_VERSION = 1;

/** The saved plan (`plan --out`). Holds no secret. */
export interface PlanFile {
  version: typeof PLAN_FILE_VERSION;
  rcsctlVersion: string;
  createdAt: string;
  baseUrl: string;
  brands: BrandPlan[];
}
