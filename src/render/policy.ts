// Policy rules broken (docs/policies.md), as every view of a plan shows
// them: the rule, the message, where the value is and where the rule is.

import { violationPlace, violationText, type PolicyViolation } from '../core/policy.js';
import { inline } from '../util/markdown.js';
import type { Style } from './style.js';

/** Text lines for `violations`, indented under a brand (or a run's heading). */
export function policyText(violations: readonly PolicyViolation[] | undefined, style: Style, indent = '  '): string[] {
  if (violations === undefined || violations.length === 0) return [];
  const errors = violations.filter((v) => v.severity === 'error').length;
  const whose = indent === '' ? 'the whole run' : 'this brand';
  const head = `${indent}Policy: ${violations.length} violation${violations.length === 1 ? '' : 's'} for ${whose}${errors > 0 ? ` (${errors} error${errors === 1 ? '' : 's'}: nothing is applied for ${whose === 'this brand' ? 'it' : 'any brand'})` : ' (warnings)'}:`;
  return [errors > 0 ? style.red(head) : style.yellow(head), ...violations.map((v) => (v.severity === 'error' ? style.red : style.yellow)(`${indent}  ${v.severity}[policy ${v.rule}] ${violationText(v)}`))];
}

/** Markdown list items for `violations`. */
export function policyMarkdown(violations: readonly PolicyViolation[] | undefined): string[] {
  if (violations === undefined || violations.length === 0) return [];
  return violations.map((v) => {
    const at = violationPlace(v);
    return `- ${v.severity === 'error' ? '❌' : '⚠️'} **policy \`${inline(v.rule)}\`**${v.subject !== undefined ? ` \`${inline(v.subject)}\`` : ''}: ${inline(v.message)} (${at !== undefined ? `\`${inline(at)}\`; ` : ''}rule at \`${inline(`${v.ruleFile}:${v.ruleLine}`)}\`)`;
  });
}

/** True when a violation among them is an error: the brand (or the run) is not applied. */
export function policyFails(violations: readonly PolicyViolation[] | undefined): boolean {
  return (violations ?? []).some((v) => v.severity === 'error');
}
