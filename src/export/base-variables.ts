// The variables of `export --base`: given with --var, or read off the live
// brand. Each text of the base that uses variables becomes a pattern; the
// live entry of its section that most of the base entry's texts fit gives the
// values, and a variable is taken only when all its readings agree
// (docs/export.md, "Against a base").

import { RcsctlError } from '../errors.js';
import { entrySections } from '../manifest/schema-check.js';

/** A variable a base declares. */
export interface VariableSpec {
  type: 'string' | 'number' | 'boolean';
  default?: unknown;
  required: boolean;
}

/**
 * The variables to write: each given one (`--var`, read as its type), else one
 * read off the live values, else none (its default applies). Reading one off:
 * each text of the base that uses variables is matched against the value at
 * the same place of each live entry of its section; a variable is taken only
 * when every entry that matches says the same value.
 */
export function variablesFor(raw: { sections: Record<string, unknown>[]; variables: Map<string, VariableSpec> }, given: Map<string, string>, plain: Record<string, unknown>): { values: Record<string, unknown>; lines: string[] } {
  const values: Record<string, unknown> = {};
  const said: string[] = [];
  for (const [name, text] of given) {
    const spec = raw.variables.get(name);
    if (spec === undefined) throw new RcsctlError('E_USAGE', `--var ${name}: the base declares no such variable${raw.variables.size > 0 ? ` (it declares ${[...raw.variables.keys()].join(', ')})` : ''}`);
    const typed = ofType(text, spec.type);
    if (typed === undefined) throw new RcsctlError('E_USAGE', `--var ${name}=${text}: the variable is a ${spec.type}`);
    values[name] = typed;
  }
  const seen = new Map<string, Set<string>>();
  for (const doc of raw.sections) {
    for (const [section, body] of Object.entries(doc)) {
      const live = plain[section];
      if (!isMap(body) || !isMap(live)) continue;
      const keyed = entrySections().includes(section);
      const pairs: [unknown, unknown[]][] = keyed ? Object.values(body).map((e) => [e, Object.values(live)]) : [[body, [live]]];
      for (const [entry, candidates] of pairs) {
        const texts = templated(entry, []);
        if (texts.length === 0) continue;
        // The live entry this one is: the one most of its texts fit (each text read on its own, as an override may change another), if one is best.
        const scored = candidates.map((c) => fitting(texts, c, raw.variables));
        const best = Math.max(0, ...scored.map((f) => f.fits));
        const top = scored.filter((f) => f.fits === best);
        if (best === 0 || top.length !== 1) continue;
        for (const [name, v] of (top[0] as { values: Map<string, unknown> }).values) seen.set(name, new Set([...(seen.get(name) ?? []), JSON.stringify(v)]));
      }
    }
  }
  for (const [name, spec] of raw.variables) {
    if (name in values) {
      said.push(`variable ${name} = ${JSON.stringify(values[name])} (given)`);
      continue;
    }
    const found = [...(seen.get(name) ?? [])];
    if (found.length === 1) {
      const v = JSON.parse(found[0] as string) as unknown;
      if (spec.default !== undefined && JSON.stringify(spec.default) === found[0]) {
        said.push(`variable ${name} = ${found[0] as string} (its default, as live)`);
        continue;
      }
      values[name] = v;
      said.push(`variable ${name} = ${found[0] as string} (read off the live brand)`);
      continue;
    }
    if (spec.default !== undefined) {
      said.push(`variable ${name} = ${JSON.stringify(spec.default)} (its default${found.length > 1 ? `; the live values disagree: ${found.join(', ')}` : ''})`);
      continue;
    }
    const why = found.length > 1 ? `the live brand gives it several values (${found.join(', ')})` : 'no live value shows it';
    throw new RcsctlError('E_EXPORT_VARIABLE', `variable ${name} of the base: ${why}; give it with --var ${name}=VALUE`);
  }
  return { values, lines: said };
}

/** Every string under `v` that uses a variable, with its path. */
function templated(v: unknown, path: (string | number)[]): { path: (string | number)[]; text: string }[] {
  if (typeof v === 'string') return /\$\{var:/.test(v.replace(/\$\$\{/g, '')) ? [{ path, text: v }] : [];
  if (Array.isArray(v)) return v.flatMap((x, i) => templated(x, [...path, i]));
  if (isMap(v)) return Object.entries(v).flatMap(([k, x]) => templated(x, [...path, k]));
  return [];
}

/** How many of `texts` fit `live` (each alone), and the variables they give; none when two fitting texts disagree. */
function fitting(texts: { path: (string | number)[]; text: string }[], live: unknown, specs: Map<string, VariableSpec>): { fits: number; values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  let fits = 0;
  for (const t of texts) {
    const one = unify([t], live, specs);
    if (one === undefined) continue;
    for (const [name, v] of one) if (!agree(values, name, v)) return { fits: 0, values: new Map() };
    fits++;
  }
  return { fits, values };
}

/** The variables that make every text equal the live value at its path, or undefined when one does not fit. */
function unify(texts: { path: (string | number)[]; text: string }[], live: unknown, specs: Map<string, VariableSpec>): Map<string, unknown> | undefined {
  const out = new Map<string, unknown>();
  for (const { path, text } of texts) {
    let at: unknown = live;
    for (const p of path) at = isMap(at) || Array.isArray(at) ? (at as Record<string | number, unknown>)[p] : undefined;
    const whole = /^\$\{var:([^}]*)\}$/.exec(text);
    if (whole?.[1] !== undefined) {
      const spec = specs.get(whole[1]);
      if (spec === undefined || at === undefined || ofType(at, spec.type) === undefined) return undefined;
      if (!agree(out, whole[1], ofType(at, spec.type))) return undefined;
      continue;
    }
    if (typeof at !== 'string') return undefined;
    const names: string[] = [];
    const pattern = text.split(/(\$\$\{|\$\{var:[^}]*\})/).map((part) => {
      const m = /^\$\{var:([^}]*)\}$/.exec(part);
      if (m?.[1] !== undefined) {
        names.push(m[1]);
        return '([\\s\\S]*?)';
      }
      return (part === '$${' ? '${' : part).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    });
    const m = new RegExp(`^${pattern.join('')}$`).exec(at);
    if (m === null) return undefined;
    for (const [i, name] of names.entries()) {
      const spec = specs.get(name);
      const v = spec === undefined ? undefined : ofType(m[i + 1] as string, spec.type);
      if (v === undefined || !agree(out, name, v)) return undefined;
    }
  }
  return out;
}

function agree(out: Map<string, unknown>, name: string, v: unknown): boolean {
  if (out.has(name)) return out.get(name) === v;
  out.set(name, v);
  return true;
}

function ofType(v: unknown, type: VariableSpec['type']): unknown {
  if (typeof v === type) return v;
  if (typeof v !== 'string') return undefined;
  if (type === 'number' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  if (type === 'boolean' && (v === 'true' || v === 'false')) return v === 'true';
  return type === 'string' ? v : undefined;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
