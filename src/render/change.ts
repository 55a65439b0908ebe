// A field change as one line of a plan, a drift report or a stale-plan message.

import { formatValue } from '../core/refs.js';
import type { FieldChange } from '../core/step.js';

/** One field change as a line: `+ path: value`, `- path: value`, `~ path: before → after`. */
export function formatChange(c: FieldChange): string {
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
