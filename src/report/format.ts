// Value and change formatting shared by the drift renderers (as the plan shows them).

import type { FieldChange } from '../plan/types.js';

/** A value as shown in a report; `<ref:…>` placeholders read `(known after apply: …)`. */
export function formatValue(v: unknown): string {
  if (typeof v === 'string') {
    const ref = /^<ref:([A-Za-z]+):([^>]+)>$/.exec(v);
    if (ref) return `(known after apply: ${ref[1]}.${ref[2]})`;
    return JSON.stringify(v);
  }
  return JSON.stringify(v) ?? 'undefined';
}

/** One field change as a line: `+ path: value`, `- path: value`, `~ path: before → after`. */
export function changeLine(c: FieldChange): string {
  switch (c.type) {
    case 'add':
      return `+ ${c.path}: ${formatValue(c.after)}`;
    case 'remove':
      return `- ${c.path}: ${formatValue(c.before)}`;
    case 'change':
      return `~ ${c.path}: ${formatValue(c.before)} → ${formatValue(c.after)}`;
    default: {
      const never: never = c.type;
      throw new Error(`unknown change ${String(never)}`);
    }
  }
}
