// What the policy evaluator sends its worker and gets back (cel-worker.ts):
// plain data, copied across the thread boundary.

/** A rule as the worker evaluates it. */
export interface WorkerRule {
  name: string;
  check: 'value' | 'brand' | 'step' | 'plan' | 'run';
  where?: string;
  expression: string;
  message: string;
  messageExpression?: string;
  /** Brands the rule does not apply to (its exceptions): their items are not checked, and a run rule does not count them. */
  except: string[];
}

/** Everything a run's rules look at, each brand once. */
export interface WorkerInput {
  rules: WorkerRule[];
  labels: string[];
  /** Whether the run is for a pull or merge request (labels are known). */
  request: boolean;
  /** Each brand as rules see it (`brand`): id, owners and, when its manifests were read, its sections. */
  brands: { id: string; view: Record<string, unknown> }[];
  /** Every scalar of the brands' manifests (value rules). */
  values: { b: number; value: unknown; path: string; key: string }[];
  /** Every step of the brands' plans (step rules). */
  steps: { b: number; step: Record<string, unknown> }[];
  /** Each brand's plan (plan rules; a run rule sees them all). */
  plans: { b: number; plan: Record<string, unknown> }[];
  /** At most this many broken items are reported per rule; the rest are counted. */
  limit: number;
}

/** One rule's outcome: the items that broke it (up to the limit), how many did, or the error that stopped it. */
export interface RuleOutcome {
  failed: { item: number; message: string }[];
  total: number;
  error?: { item: number; message: string };
}

/** The worker's messages: each rule as it starts (for the time bound), then every outcome. */
export type WorkerMessage = { type: 'start'; rule: number } | { type: 'done'; outcomes: RuleOutcome[] };
