// After the steps, the touched resources are re-read and compared with what
// the plan expected of them. Whatever still differs must be explained by a
// step that did not run (blocked, held, skipped or failed); anything else is a
// verification failure naming the resource and its fields.

import type { BrandRef, RcsClient } from '../api/index.js';
import { kindByName } from '../kinds/index.js';
import { diffObjects } from '../plan/diff.js';
import type { BrandPlan, FieldChange, Step } from '../plan/types.js';
import { mapLimit } from '../util/concurrency.js';
import type { StepResult } from './execute.js';
import { resolveRefs, tokenOf, type IdMap } from '../core/refs.js';
import { reread } from './stale.js';

/** A resource still out of line after apply, with no step to explain it. */
export interface Unconverged {
  address: string;
  changes: FieldChange[];
  message: string;
}

/** Re-read every resource whose steps all ran, and compare it with the plan's expectation. */
export async function verifyApplied(client: RcsClient, brand: BrandRef, plan: BrandPlan, results: StepResult[], ids: IdMap, concurrency: number): Promise<Unconverged[]> {
  const byAddress = new Map<string, { last: Step; allDone: boolean }>();
  plan.steps.forEach((step, i) => {
    const prev = byAddress.get(step.address);
    const done = results[i]?.status === 'done';
    byAddress.set(step.address, { last: step, allDone: (prev?.allDone ?? true) && done });
  });
  const toCheck = [...byAddress.values()].filter((e) => e.allDone && kindByName(e.last.kind).verified !== false).map((e) => e.last);
  const out: Unconverged[] = [];
  await mapLimit(toCheck, concurrency, async (step) => {
    const id = step.liveId ?? ids.get(tokenOf(step)) ?? (step.op === 'menu-replace' ? step.chatbotId : undefined);
    if (id === undefined) {
      out.push({ address: step.address, changes: [], message: `${step.address}: no id is known after apply, so it cannot be checked` });
      return;
    }
    const current = await reread(client, brand, step.kind, id);
    if (step.op === 'delete') {
      if (current !== undefined) out.push({ address: step.address, changes: [], message: `${step.address} (${id}) still exists after its delete` });
      return;
    }
    if (current === undefined) {
      out.push({ address: step.address, changes: [], message: `${step.address} (${id}) does not exist after apply` });
      return;
    }
    if (step.expected === undefined) return;
    const kind = kindByName(step.kind);
    const expected = resolveRefs(step.expected, ids);
    let actual = kind.normaliseLive(current.live, current.ctx);
    if (kind.partialFields === true) actual = pick(actual, Object.keys(expected as object));
    const changes = diffObjects(actual, expected);
    if (changes.length > 0) {
      out.push({ address: step.address, changes, message: `${step.address} (${id}) differs from the manifest after apply: ${changes.map((c) => c.path).join(', ')}` });
    }
  });
  return out.sort((a, b) => a.address.localeCompare(b.address));
}

function pick(value: unknown, keys: string[]): Record<string, unknown> {
  const source = value as Record<string, unknown>;
  return Object.fromEntries(keys.filter((k) => k in source).map((k) => [k, source[k]]));
}
