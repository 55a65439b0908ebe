// A policy rule broken (docs/policies.md): what every view of a plan shows
// of it. The rules and their evaluation live in src/manifest/policy.ts and
// src/policy/; this is the noun the plan, apply and the renderers share.

/** One rule broken by one item: a manifest value, a brand, a step, a brand's plan or the whole run. */
export interface PolicyViolation {
  /** The rule's name. */
  rule: string;
  severity: 'error' | 'warning';
  message: string;
  /** The brand it is about; absent for a rule on the whole run. */
  brandId?: string;
  /** What broke it: a step's address, or a manifest value's JSON pointer. */
  subject?: string;
  /** Where the value is written (a manifest value, a step's resource, the brand's declaration); absent for a delete of an undeclared resource or a run. */
  file?: string;
  line?: number;
  col?: number;
  /** Where the rule is written. */
  ruleFile: string;
  ruleLine: number;
}

/** `brands/acme/brand.yaml:12`, or undefined when the violation has no place. */
export function violationPlace(v: { file?: string; line?: number }): string | undefined {
  return v.file === undefined ? undefined : v.line !== undefined && v.line > 0 ? `${v.file}:${v.line}` : v.file;
}

/** The one line every text view gives a violation: `[rule] message (brands/x.yaml:12; rule policies/p.yaml:4)`. */
export function violationText(v: PolicyViolation): string {
  const at = violationPlace(v);
  return `${v.subject !== undefined ? `${v.subject}: ` : ''}${v.message} (${at !== undefined ? `${at}; ` : ''}rule ${v.rule} at ${v.ruleFile}:${v.ruleLine})`;
}

/**
 * The rules on the whole run (`check: run`) a plan was checked with, and what
 * they knew of the request, kept on the plan so that `report merge` checks
 * them again over every shard's brands: a shard sees only its own
 * (docs/policies.md, "In CI").
 */
export interface RunRules {
  rules: RecordedRunRule[];
  labels: string[];
  request: boolean;
}

/** A run rule as a plan records it: its expressions, message, exceptions and where it is written. */
export interface RecordedRunRule {
  name: string;
  severity: 'error' | 'warning';
  expression: string;
  message: string;
  messageExpression?: string;
  exceptions: { brand: string; reason: string }[];
  file: string;
  line: number;
  col: number;
}
