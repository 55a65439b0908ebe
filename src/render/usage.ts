// Usage beside the change: how often users pressed what a step removes or
// changes ("pressed 4,210 times in the last 30 days"), in the text and
// Markdown plans alike.

import type { Step } from '../core/step.js';

/** "4,210 times", "once", "never". */
export function pressedTimes(n: number): string {
  if (n === 0) return 'never';
  if (n === 1) return 'once';
  return `${n.toLocaleString('en-US')} times`;
}

/** One sentence an entry of a step's usage: `"Opening hours" (removed): pressed 4,210 times in the last 30 days`. */
export function usageSentences(step: Step): string[] {
  const u = step.usage;
  if (u === undefined) return [];
  return [...u.entries].sort((a, b) => b.pressed - a.pressed).map((e) => `${JSON.stringify(e.entry)} (${e.change}): pressed ${pressedTimes(e.pressed)} in the last ${u.days} days`);
}
