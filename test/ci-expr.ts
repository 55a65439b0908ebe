// The condition languages of the recipes, as much as they use: GitHub's
// `${{ … }}` expressions (contexts, strings, ==, !=, &&, ||, !, parentheses,
// always(), success(), failure(), cancelled()) and GitLab's `rules: if:`
// ($VARIABLE, "strings", the same operators). An unknown function, context
// or token throws, so a recipe cannot pass here on a typo.

/** GitHub's contexts (github, matrix, vars, secrets, steps …), or GitLab's variables under `env`. */
export type Contexts = Record<string, unknown>;

/** Whether an earlier job or step failed, for success() and failure(). */
export interface Status {
  failed: boolean;
}

type Value = string | number | boolean | null | Record<string, unknown> | unknown[];

const TOKEN = /\s*(?:(\|\||&&|==|!=|!|\(|\))|'((?:[^']|'')*)'|"([^"]*)"|(\d+(?:\.\d+)?)|\$([A-Za-z_]\w*)|([A-Za-z_][\w-]*(?:\.[\w-]+|\[\d+\])*))/y;

function tokens(text: string): { kind: 'op' | 'str' | 'num' | 'var' | 'name'; text: string }[] {
  const out: { kind: 'op' | 'str' | 'num' | 'var' | 'name'; text: string }[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < text.length && text.slice(at).trim() !== '') {
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(text);
    if (m === null) throw new Error(`cannot read the expression at "${text.slice(at)}"`);
    at = TOKEN.lastIndex;
    if (m[1] !== undefined) out.push({ kind: 'op', text: m[1] });
    else if (m[2] !== undefined) out.push({ kind: 'str', text: m[2].replace(/''/g, "'") });
    else if (m[3] !== undefined) out.push({ kind: 'str', text: m[3] });
    else if (m[4] !== undefined) out.push({ kind: 'num', text: m[4] });
    else if (m[5] !== undefined) out.push({ kind: 'var', text: m[5] });
    else out.push({ kind: 'name', text: m[6] as string });
  }
  return out;
}

const KNOWN = new Set(['github', 'matrix', 'vars', 'secrets', 'steps', 'needs', 'env', 'inputs']);

/** Evaluate one expression (a `${{ }}` wrapper is allowed) to a value. */
export function value(text: string, ctx: Contexts, status: Status = { failed: false }): Value {
  const src = text.trim().replace(/^\$\{\{([\s\S]*)\}\}$/, '$1');
  const t = tokens(src);
  let i = 0;
  const peek = () => t[i];
  const take = (op: string): boolean => {
    if (t[i]?.kind === 'op' && t[i]?.text === op) {
      i++;
      return true;
    }
    return false;
  };
  const truthy = (v: Value): boolean => v !== null && v !== false && v !== 0 && v !== '';
  const or = (): Value => {
    let v = and();
    while (take('||')) {
      const r = and();
      v = truthy(v) ? v : r;
    }
    return v;
  };
  const and = (): Value => {
    let v = unary();
    while (take('&&')) {
      const r = unary();
      v = truthy(v) ? r : v;
    }
    return v;
  };
  const unary = (): Value => (take('!') ? !truthy(unary()) : cmp());
  const cmp = (): Value => {
    const l = primary();
    if (take('==')) return same(l, primary());
    if (take('!=')) return !same(l, primary());
    return l;
  };
  const primary = (): Value => {
    const tok = t[i++];
    if (tok === undefined) throw new Error(`unexpected end of "${src}"`);
    if (tok.kind === 'op' && tok.text === '(') {
      const v = or();
      if (!take(')')) throw new Error(`missing ) in "${src}"`);
      return v;
    }
    if (tok.kind === 'str') return tok.text;
    if (tok.kind === 'num') return Number(tok.text);
    if (tok.kind === 'var') return ((ctx.env as Record<string, string> | undefined)?.[tok.text] ?? null) as Value;
    if (tok.kind === 'name') {
      if (peek()?.text === '(') {
        i++;
        if (!take(')')) throw new Error(`functions with arguments are not known here: "${src}"`);
        if (tok.text === 'always') return true;
        if (tok.text === 'success') return !status.failed;
        if (tok.text === 'failure') return status.failed;
        if (tok.text === 'cancelled') return false;
        throw new Error(`unknown function ${tok.text}()`);
      }
      if (tok.text === 'true' || tok.text === 'false') return tok.text === 'true';
      const path = tok.text.split('.');
      if (!KNOWN.has(path[0] as string) || !(path[0] as string in ctx)) throw new Error(`unknown context ${tok.text} in "${src}"`);
      let v: unknown = ctx;
      for (const p of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
      return (v ?? null) as Value;
    }
    throw new Error(`unexpected ${tok.text} in "${src}"`);
  };
  const v = or();
  if (i !== t.length) throw new Error(`unexpected ${t[i]?.text} in "${src}"`);
  return v;
}

function same(a: Value, b: Value): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b);
  return a === b;
}

/** Evaluate a condition. */
export function evaluate(text: string, ctx: Contexts, status: Status = { failed: false }): boolean {
  const v = value(text, ctx, status);
  return v !== null && v !== false && v !== 0 && v !== '';
}

/** Replace every `${{ … }}` in `text` by its value, as the runner does before a script runs. */
export function interpolate(text: string, ctx: Contexts): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, e: string) => {
    const v = value(e, ctx);
    return v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
}
