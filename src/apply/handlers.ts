// Dispatch of a plan step to its kind's handler: the only place plan steps
// become client calls. Each kind declares its handlers (by operation) and their
// idempotency codes in its folder (src/kinds/<kind>/service.ts).

import type { Step } from '../core/step.js';
import { RcsctlError } from '../errors.js';
import { KINDS } from '../kinds/index.js';
import type { HandlerEnv, StepOutcome } from '../kinds/resource-kind.js';

export type { HandlerEnv, StepOutcome } from '../kinds/resource-kind.js';

/** Run one step against the service. */
export async function runStep(step: Step, env: HandlerEnv): Promise<StepOutcome> {
  const handler = KINDS.find((k) => k.name === step.kind)?.handlers[step.op];
  if (handler === undefined) throw new RcsctlError('E_APPLY_INTERNAL', `no handler for ${step.op} of ${step.kind} (${step.address})`);
  return handler(step, env);
}

/** The (kind, op) pairs the registered kinds handle (`autoReply:create`). */
export function handledPairs(): string[] {
  return KINDS.flatMap((k) => Object.keys(k.handlers).map((op) => `${k.name}:${op}`));
}
