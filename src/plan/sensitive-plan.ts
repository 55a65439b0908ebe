// A saved plan never holds a sensitive value: writePlanFile seals each as
// `<sensitive:NAME:sha256>` (src/util/redaction.ts), and apply takes the value
// from the environment again, refusing the plan when it is missing or differs
// from the one planned.

import { RcsctlError } from '../errors.js';
import { secretHash, unsealStrings, type Secret } from '../util/redaction.js';
import type { PlanFile } from './types.js';

/**
 * `file` with every marker replaced by the value of its variable, read from
 * `env` now; refused when a variable is unset or its value's hash differs.
 * Returns the values restored, by name, for the run's redaction.
 */
export function restoreSensitive(file: PlanFile, env: Record<string, string | undefined>, path: string): { file: PlanFile; secrets: Secret[] } {
  const problems = new Map<string, string>();
  const secrets = new Map<string, string>();
  const { value: restored } = unsealStrings(file, (name, hash) => {
    const v = env[name];
    if (v === undefined) problems.set(name, `${name} is not set`);
    else if (secretHash(v) !== hash) problems.set(name, `${name} differs from its value when the plan was made`);
    else {
      secrets.set(name, v);
      return v;
    }
    return undefined;
  });
  if (problems.size > 0) {
    throw new RcsctlError(
      'E_PLAN_SENSITIVE',
      `the saved plan ${path} takes sensitive values from the environment, and ${[...problems.values()].join('; ')}. Set them as they were, or make a new plan.`,
      { variables: [...problems.keys()] },
    );
  }
  return { file: restored, secrets: [...secrets].map(([name, value]) => ({ name, value })) };
}
