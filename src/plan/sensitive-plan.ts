// A saved plan never holds a sensitive value: writePlanFile seals each as
// `<sensitive:NAME:KEYID:HMAC>` under the sealing key (src/util/seal-key.ts),
// and apply takes the value from the environment again, refusing the plan
// when it is missing or differs from the one planned, or when this machine
// does not have the key the plan was sealed with. The fingerprint of a live
// object holding a secret is keyed too; it is checked against its restored
// snapshot here and given back in plain, so the staleness check is the same
// for every plan.

import { RcsctlError } from '../errors.js';
import { sealedIs, unsealStrings, type KeySource, type Secret } from '../util/redaction.js';
import { PLAN_KEY_VAR, type SealKey } from '../util/seal-key.js';
import { hashValue } from '../util/stable-json.js';
import { keyedFingerprint } from './plan-file.js';
import type { BrandPlan, PlanFile } from './types.js';

/**
 * `file` with every marker replaced by the value of its variable, read from
 * `env` now; refused when a variable is unset, its value differs, or the plan
 * was sealed with another key (or none). The key is asked for only when the
 * plan holds a marker. Returns the values restored, by name, for the run's redaction.
 */
export function restoreSensitive(file: PlanFile, env: Record<string, string | undefined>, path: string, key: KeySource): { file: PlanFile; secrets: Secret[] } {
  const problems = new Map<string, string>();
  const secrets = new Map<string, string>();
  let k: SealKey | undefined;
  const theKey = (): SealKey => (k ??= typeof key === 'function' ? key() : key);
  const { value: restored } = unsealStrings(file, (name, keyId, mac) => {
    const v = env[name];
    if (keyId === undefined) problems.set('(unkeyed)', 'it was made by an older rcsctl, whose seals were plain hashes');
    else if (v === undefined) problems.set(name, `${name} is not set`);
    else if (keyId !== theKey().id) problems.set('(key)', `it was sealed with key ${keyId}, and this run's key (${theKey().source}) is ${theKey().id}: set ${PLAN_KEY_VAR} to the key the plan was made with`);
    else if (!sealedIs(v, mac, theKey())) problems.set(name, `${name} differs from its value when the plan was made`);
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
      { variables: [...problems.keys()].filter((n) => !n.startsWith('(')) },
    );
  }
  const brands = k === undefined ? restored.brands : restored.brands.map((b) => plainFingerprints(b, k as SealKey));
  return { file: { ...restored, brands }, secrets: [...secrets].map(([name, value]) => ({ name, value })) };
}

/** `plan` with each keyed fingerprint given in plain (one that matches neither is left for the staleness check to refuse). */
function plainFingerprints(plan: BrandPlan, key: SealKey): BrandPlan {
  const fingerprints: Record<string, string> = {};
  for (const [address, fp] of Object.entries(plan.fingerprints)) {
    const plain = hashValue(plan.snapshots[address]);
    if (fp === plain) fingerprints[address] = fp;
    else fingerprints[address] = fp === keyedFingerprint(plain, key) ? plain : fp;
  }
  return { ...plan, fingerprints };
}
