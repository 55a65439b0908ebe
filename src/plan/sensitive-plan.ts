// A saved plan never holds a sensitive value: each is written as
// `<sensitive:NAME:sha256>`, and apply takes the value from the environment
// again, refusing the plan when it is missing or differs from the one planned.

import { createHash } from 'node:crypto';
import { RcsctlError } from '../errors.js';
import type { PlanFile } from './types.js';

const MARKER = /<sensitive:([A-Za-z_][A-Za-z0-9_]*):([0-9a-f]{64})>/g;

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** `file` with every sensitive value replaced by its marker. */
export function hideSensitive(file: PlanFile, sensitive: readonly { name: string; value: string }[]): PlanFile {
  // Longest first, so a value inside another is not split.
  const list = [...sensitive].filter((s) => s.value !== '').sort((a, b) => b.value.length - a.value.length);
  if (list.length === 0) return file;
  return mapStrings(file, (text) => {
    let out = text;
    for (const s of list) if (out.includes(s.value)) out = out.split(s.value).join(`<sensitive:${s.name}:${sha256(s.value)}>`);
    return out;
  }) as PlanFile;
}

/**
 * `file` with every marker replaced by the value of its variable, read from
 * `env` now; refused when a variable is unset or its value's hash differs.
 */
export function restoreSensitive(file: PlanFile, env: Record<string, string | undefined>, path: string): { file: PlanFile; values: string[] } {
  const problems = new Map<string, string>();
  const values = new Set<string>();
  const restored = mapStrings(file, (text) =>
    text.replace(MARKER, (whole, name: string, hash: string) => {
      const v = env[name];
      if (v === undefined) {
        problems.set(name, `${name} is not set`);
        return whole;
      }
      if (sha256(v) !== hash) {
        problems.set(name, `${name} differs from its value when the plan was made`);
        return whole;
      }
      values.add(v);
      return v;
    }),
  ) as PlanFile;
  if (problems.size > 0) {
    throw new RcsctlError(
      'E_PLAN_SENSITIVE',
      `the saved plan ${path} takes sensitive values from the environment, and ${[...problems.values()].join('; ')}. Set them as they were, or make a new plan.`,
      { variables: [...problems.keys()] },
    );
  }
  return { file: restored, values: [...values] };
}

function mapStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, fn)]));
  return value;
}
