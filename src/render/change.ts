// A field change as one line of a plan, a drift report or a stale-plan message.

import { formatValue } from '../core/refs.js';
import type { FieldChange, Step, StepFile } from '../core/step.js';

/**
 * One field change as a line: `+ path: value`, `- path: value`, `~ path: before → after`;
 * a create's service default reads `+ path: value (default)`, and a live id of
 * a declared resource its address (`autoReply.hours`).
 */
export function formatChange(c: FieldChange): string {
  // A reference to a declared resource reads as its handle, not the live id it resolves to.
  const before = c.beforeRef ?? formatValue(c.before);
  const after = c.afterRef ?? formatValue(c.after);
  switch (c.type) {
    case 'add':
      return `+ ${c.path}: ${after}${c.default === true ? ' (default)' : ''}`;
    case 'remove':
      return `- ${c.path}: ${before}`;
    case 'change':
      return `~ ${c.path}: ${before} → ${after}`;
    default: {
      const never: never = c.type;
      throw new Error(`unknown change ${String(never)}`);
    }
  }
}

/** The upload a step makes, as a line: `+ upload hero-ff7131fa55b5.png (10.4 kB)`, `+ upload subscription certificate spring-….png (8.1 kB)`. */
export function uploadLine(file: StepFile): string {
  return `+ upload ${file.sentAs !== undefined ? `${file.sentAs} ` : ''}${file.fileName} (${formatBytes(file.size)})`;
}

/** The upload line of a step, if it makes one: an upload step, or a file sent along a create or update (a room's certificate). */
export function stepUpload(step: Step): StepFile | undefined {
  if (step.op === 'upload') return step.file;
  if ((step.op === 'create' || step.op === 'update') && step.file?.sentAs !== undefined) return step.file;
  return undefined;
}

function formatBytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} kB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}
