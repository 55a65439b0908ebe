// Policy documents (`kind: Policy`): rules kept in the repository beside the
// manifests, each a CEL expression that must hold, checked by validate (on
// the manifests) and by plan and apply (on the plan). This reads and checks
// the documents; src/policy/ evaluates the rules. A bad rule is a diagnostic
// naming file, line and field, as any manifest error.

import { parse } from '@bufbuild/cel';
import { DIAGNOSTIC_CODES } from './codes.js';
import { diagAt, jsonPointer, offsetOf, position, type PathSegments, type SourceDoc } from './source.js';
import type { Diagnostic } from './types.js';

/** What a rule checks: a manifest's values or whole brand, or a plan's steps, a brand's plan or the whole run. */
export const POLICY_CHECKS = ['value', 'brand', 'step', 'plan', 'run'] as const;
export type PolicyCheck = (typeof POLICY_CHECKS)[number];

/** The checks on manifests (validate, and plan and apply before reading); the others are on the plan. */
export const MANIFEST_CHECKS: readonly PolicyCheck[] = ['value', 'brand'];

/** Where a rule or one of its fields is written. */
export interface RuleLocation {
  file: string;
  line: number;
  col: number;
}

/** One rule of a policy document, checked. */
export interface PolicyRule {
  name: string;
  description?: string;
  severity: 'error' | 'warning';
  check: PolicyCheck;
  /** Only the items for which this holds are checked (value and step rules). */
  where?: string;
  /** Must hold (be true) for every item checked. */
  expression: string;
  message: string;
  /** A CEL expression whose string is the message, in place of `message`. */
  messageExpression?: string;
  /** Brands the rule does not apply to, each with the reason. */
  exceptions: { brand: string; reason: string }[];
  /** The rule (its `name:`). */
  at: RuleLocation;
  /** Each expression field's place, for errors in it. */
  fieldAt: Partial<Record<'where' | 'expression' | 'messageExpression', RuleLocation>>;
}

/** The longest expression a rule may hold (characters): an expression is a line or a few, not a program. */
export const MAX_EXPRESSION = 4000;

const RULE_KEYS = new Set(['name', 'description', 'severity', 'check', 'where', 'expression', 'message', 'messageExpression', 'exceptions']);
const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;
const BRAND_ID = /^BR\.[A-Za-z0-9]{10}$/;

/** Read the rules of `docs` (each a `kind: Policy` document); rule names are unique across them all. */
export function readPolicies(docs: readonly SourceDoc[]): { rules: PolicyRule[]; diagnostics: Diagnostic[] } {
  const rules: PolicyRule[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Map<string, RuleLocation>();
  for (const src of docs) {
    const bad = (path: PathSegments, message: string, at: 'key' | 'value' = 'value'): void => {
      diagnostics.push(diagAt(src, 'RCS801', path, message, { at }));
    };
    const raw = src.value as Record<string, unknown>;
    for (const key of Object.keys(raw)) if (!['apiVersion', 'kind', 'description', 'rules'].includes(key)) bad([key], `unknown key "${key}" in a Policy document (apiVersion, kind, description, rules)`, 'key');
    if (raw.apiVersion !== 'rcsctl/v1') bad(['apiVersion'], 'a Policy document says `apiVersion: rcsctl/v1`');
    if (!Array.isArray(raw.rules)) {
      bad(raw.rules === undefined ? ['kind'] : ['rules'], '`rules:` is a list of rules, each with name, check, expression and message');
      continue;
    }
    raw.rules.forEach((entry: unknown, i: number) => {
      const rule = readRule(src, entry, ['rules', i], bad, diagnostics);
      if (rule === undefined) return;
      const prior = seen.get(rule.name);
      if (prior !== undefined) {
        bad(['rules', i, 'name'], `rule "${rule.name}" is declared twice (first at ${prior.file}:${prior.line})`);
        return;
      }
      seen.set(rule.name, rule.at);
      rules.push(rule);
    });
  }
  return { rules, diagnostics };
}

// One entry of `rules:`, or undefined (with diagnostics) when it is not a rule.
function readRule(src: SourceDoc, entry: unknown, at: PathSegments, bad: (path: PathSegments, message: string, at?: 'key' | 'value') => void, syntax: Diagnostic[]): PolicyRule | undefined {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    bad(at, 'a rule is a map: name, check, expression, message (and severity, where, messageExpression, exceptions)');
    return undefined;
  }
  const r = entry as Record<string, unknown>;
  let faults = 0;
  const fault = (path: PathSegments, message: string, where: 'key' | 'value' = 'value'): void => {
    faults++;
    bad(path, message, where);
  };
  for (const key of Object.keys(r)) if (!RULE_KEYS.has(key)) fault([...at, key], `unknown key "${key}" in a rule (${[...RULE_KEYS].join(', ')})`, 'key');
  const text = (key: string, required: boolean): string | undefined => {
    const v = r[key];
    if (v === undefined) {
      if (required) fault(at, `the rule has no \`${key}:\``);
      return undefined;
    }
    if (typeof v !== 'string' || v.trim() === '') {
      fault([...at, key], `\`${key}:\` is a non-empty string`);
      return undefined;
    }
    return v;
  };
  const name = text('name', true);
  if (name !== undefined && !NAME.test(name)) fault([...at, 'name'], `rule name "${name}": lower-case letters, digits and dashes, at most 63 (no-link-shorteners)`);
  const severity = r.severity ?? 'error';
  if (severity !== 'error' && severity !== 'warning') fault([...at, 'severity'], '`severity:` is error or warning');
  const check = text('check', true);
  if (check !== undefined && !(POLICY_CHECKS as readonly string[]).includes(check)) fault([...at, 'check'], `\`check:\` is one of ${POLICY_CHECKS.join(', ')}, not "${check}"`);
  const message = text('message', r.messageExpression === undefined);
  const description = text('description', false);
  const fieldAt: PolicyRule['fieldAt'] = {};
  const cel = (key: 'where' | 'expression' | 'messageExpression', required: boolean): string | undefined => {
    const expr = text(key, required);
    if (expr === undefined) return undefined;
    const p = position(src.lines, offsetOf(src, [...at, key]));
    fieldAt[key] = { file: src.file, line: p.line, col: p.col };
    if (expr.length > MAX_EXPRESSION) {
      fault([...at, key], `\`${key}:\` is ${expr.length} characters; at most ${MAX_EXPRESSION}`);
      return undefined;
    }
    const problem = celSyntax(expr);
    if (problem !== undefined) {
      // The parser counts lines within the expression; a block scalar (`|`) starts on the line after its key.
      const block = /^[|>]/.test(src.text.slice(offsetOf(src, [...at, key]))) ? 1 : 0;
      faults++;
      syntax.push({ code: 'RCS802', severity: DIAGNOSTIC_CODES.RCS802.severity, file: src.file, line: p.line + block + problem.line - 1, col: block > 0 || problem.line > 1 ? problem.col : p.col + problem.col - 1, path: jsonPointer([...at, key]), message: `${key} of rule ${typeof r.name === 'string' ? `"${r.name}"` : String(at[1])} does not parse: ${problem.message}` });
      return undefined;
    }
    return expr;
  };
  const where = cel('where', false);
  if (where !== undefined && check !== 'value' && check !== 'step') fault([...at, 'where'], '`where:` narrows the items of a value or step rule; a brand, plan or run rule has one item');
  const expression = cel('expression', true);
  const messageExpression = cel('messageExpression', false);
  const exceptions: PolicyRule['exceptions'] = [];
  if (r.exceptions !== undefined) {
    if (!Array.isArray(r.exceptions)) fault([...at, 'exceptions'], '`exceptions:` is a list of `{ brand: BR.…, reason: "…" }`');
    else
      r.exceptions.forEach((e: unknown, j: number) => {
        const x = e as { brand?: unknown; reason?: unknown } | null;
        const path = [...at, 'exceptions', j];
        if (x === null || typeof x !== 'object' || Array.isArray(x)) return fault(path, 'an exception is `{ brand: BR.…, reason: "…" }`');
        for (const key of Object.keys(x)) if (key !== 'brand' && key !== 'reason') fault([...path, key], `unknown key "${key}" in an exception (brand, reason)`, 'key');
        if (typeof x.brand !== 'string' || !BRAND_ID.test(x.brand)) return fault([...path, 'brand'], 'an exception names the brand it is for: `brand: BR.` and 10 letters or digits');
        if (typeof x.reason !== 'string' || x.reason.trim() === '') return fault(x.reason === undefined ? path : [...path, 'reason'], `the exception for ${x.brand} gives no reason: \`reason: "…"\` says why the rule does not apply to it`);
        exceptions.push({ brand: x.brand, reason: x.reason });
      });
  }
  if (faults > 0 || name === undefined || check === undefined || expression === undefined || (message === undefined && messageExpression === undefined)) return undefined;
  const p = position(src.lines, offsetOf(src, [...at, 'name']));
  return {
    name,
    ...(description !== undefined ? { description } : {}),
    severity: severity as 'error' | 'warning',
    check: check as PolicyCheck,
    ...(where !== undefined ? { where } : {}),
    expression,
    message: message ?? '',
    ...(messageExpression !== undefined ? { messageExpression } : {}),
    exceptions,
    at: { file: src.file, line: p.line, col: p.col },
    fieldAt,
  };
}

/** The syntax error of a CEL expression, or undefined when it parses. */
export function celSyntax(expr: string): { message: string; line: number; col: number } | undefined {
  try {
    parse(expr);
    return undefined;
  } catch (err) {
    const e = err as { rawMessage?: string; message?: string; location?: { start?: { line?: number; column?: number } } };
    return { message: e.rawMessage ?? e.message ?? String(err), line: e.location?.start?.line ?? 1, col: e.location?.start?.column ?? 1 };
  }
}

/** The severity of a violation's diagnostic code (RCS810 for an error rule, RCS811 for a warning rule). */
export function violationCode(severity: 'error' | 'warning'): 'RCS810' | 'RCS811' {
  return severity === 'error' ? 'RCS810' : 'RCS811';
}
