// The policy rules' sandbox: a worker thread that evaluates CEL expressions
// over plain data and posts back which items broke which rule. CEL has no
// function that reads a file or the network, and the worker is given none:
// only CEL's standard library, its string extension, an RE2 `matches` (linear
// time) and two URL helpers. The thread that starts it bounds its time (per
// rule) and its memory (resourceLimits), and terminates it past either.

import { parentPort, workerData } from 'node:worker_threads';
import { celEnv, celFunc, celList, CelScalar, isCelError, listType, parse, plan, type CelValue } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { RE2JS } from '@bufbuild/re2';
import type { RuleOutcome, WorkerInput, WorkerMessage, WorkerRule } from './protocol.js';

const URL_IN_TEXT = /https?:\/\/[^\s"'<>]+/gi;

/** The host of a URL, lower-case; '' when the text is not an absolute URL. */
function urlHost(text: string): string {
  try {
    return new URL(text).hostname.toLowerCase();
  } catch {
    return '';
  }
}

const env = celEnv({
  funcs: [
    ...strings,
    celFunc('urlHost', [CelScalar.STRING], CelScalar.STRING, (s: string) => urlHost(s)),
    celFunc('urls', [CelScalar.STRING], listType(CelScalar.STRING), (s: string) => celList(s.match(URL_IN_TEXT) ?? [])),
  ],
  re2: {
    compile: (pattern: string) => {
      const re = new RE2JS(pattern);
      return { test: (text: string) => re.test(text) };
    },
  },
});

type Bindings = Record<string, unknown>;
type Program = (ctx: Bindings) => CelValue | Error;

function compile(expr: string): Program {
  return plan(env, parse(expr)) as unknown as Program;
}

/** The items of a rule, each as the bindings its expression sees, with its index. */
function* itemsOf(rule: WorkerRule, input: WorkerInput): Generator<[number, Bindings]> {
  const skip = new Set(rule.except);
  const brand = (b: number): Record<string, unknown> => input.brands[b]?.view ?? {};
  const kept = (b: number): boolean => !skip.has(input.brands[b]?.id ?? '');
  const { labels, request } = input;
  switch (rule.check) {
    case 'value':
      for (const [i, v] of input.values.entries()) if (kept(v.b)) yield [i, { value: v.value, path: v.path, key: v.key, brand: brand(v.b), labels, request }];
      return;
    case 'brand':
      for (const [i, b] of input.brands.entries()) if (kept(i)) yield [i, { brand: b.view, labels, request }];
      return;
    case 'step':
      for (const [i, s] of input.steps.entries()) if (kept(s.b)) yield [i, { step: s.step, brand: brand(s.b), labels, request }];
      return;
    case 'plan':
      for (const [i, p] of input.plans.entries()) if (kept(p.b)) yield [i, { plan: p.plan, brand: brand(p.b), labels, request }];
      return;
    case 'run': {
      const plans = input.plans.filter((p) => kept(p.b)).map((p) => p.plan);
      const counts: Record<string, number> = { brands: plans.length };
      for (const p of plans) for (const [k, n] of Object.entries((p.counts ?? {}) as Record<string, number>)) counts[k] = (counts[k] ?? 0) + n;
      yield [0, { plans, counts, labels, request }];
      return;
    }
  }
}

function describe(value: CelValue | Error): string {
  if (isCelError(value)) return value.message;
  if (value instanceof Error) return value.message;
  return `it gave ${typeof value === 'string' ? JSON.stringify(value) : typeof value === 'bigint' ? `${value}` : JSON.stringify(value) ?? typeof value}, not true or false`;
}

function evaluate(rule: WorkerRule, input: WorkerInput): RuleOutcome {
  const out: RuleOutcome = { failed: [], total: 0 };
  const where = rule.where !== undefined ? compile(rule.where) : undefined;
  const expression = compile(rule.expression);
  const message = rule.messageExpression !== undefined ? compile(rule.messageExpression) : undefined;
  for (const [i, bindings] of itemsOf(rule, input)) {
    if (where !== undefined) {
      const w = where(bindings);
      if (typeof w !== 'boolean') return { ...out, error: { item: i, message: `where: ${describe(w)}` } };
      if (!w) continue;
    }
    const ok = expression(bindings);
    if (typeof ok !== 'boolean') return { ...out, error: { item: i, message: `expression: ${describe(ok)}` } };
    if (ok) continue;
    out.total++;
    if (out.failed.length >= input.limit) continue;
    const text = message?.(bindings);
    out.failed.push({ item: i, message: typeof text === 'string' && text !== '' ? text : rule.message });
  }
  return out;
}

const input = workerData as WorkerInput;
const outcomes: RuleOutcome[] = [];
for (const [i, rule] of input.rules.entries()) {
  parentPort?.postMessage({ type: 'start', rule: i } satisfies WorkerMessage);
  try {
    outcomes.push(evaluate(rule, input));
  } catch (err) {
    outcomes.push({ failed: [], total: 0, error: { item: -1, message: err instanceof Error ? err.message : String(err) } });
  }
}
parentPort?.postMessage({ type: 'done', outcomes } satisfies WorkerMessage);
