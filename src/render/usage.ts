// Usage beside the change: how often users pressed what a step removes or
// changes ("pressed 4,210 times in the last 30 days"), in the text and
// Markdown plans alike.

import type { Step } from '../core/step.js';

/** "pressed 4,210 times", "pressed once", "not pressed". */
export function pressedTimes(n: number): string {
  if (n === 0) return 'not pressed';
  if (n === 1) return 'pressed once';
  return `pressed ${n.toLocaleString('en-US')} times`;
}

/** One sentence an entry of a step's usage: `"Opening hours" (removed): pressed 4,210 times in the last 30 days`; the most pressed first. */
export function usageSentences(step: Step): string[] {
  const u = step.usage;
  if (u === undefined) return [];
  return [...u.entries].sort((a, b) => b.pressed - a.pressed).map((e) => `${JSON.stringify(e.entry)} (${e.change}): ${pressedTimes(e.pressed)} in the last ${u.days} days`);
}
