// Composition (issue 37): shared bases with typed variables, per-brand
// overrides, and generated brands, resolved once per load before any section
// is built. What comes out is plain Brand documents: each base a brand uses
// becomes one document of that brand, whose positions are the base file's
// (so files a base names are found beside the base, and a diagnostic names the
// base's line) and whose `composed` says which brand uses it and, field by
// field, what set each value (an override, a variable, a generator row). Every
// later stage sees Brand documents only. Nothing here names a kind: sections
// are whatever keys a base holds besides its frame.

import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { DIAGNOSTIC_CODES, type DiagnosticCode } from './codes.js';
import { manifestFilesUnder } from './files-under.js';
import type { ParseCache } from './parse-cache.js';
import { readManifestFile } from './read-yaml.js';
import { diagAt, jsonPointer, offsetOf, position, type ComposedFrom, type PathSegments, type Place, type SourceDoc } from './source.js';
import type { Diagnostic } from './types.js';

/** A variable a base declares. */
interface VariableSpec {
  type: 'string' | 'number' | 'boolean';
  required: boolean;
  default?: unknown;
}

/** A base: its documents (one folder or file) and the variables they declare. */
interface Base {
  abs: string;
  shown: string;
  docs: SourceDoc[];
  variables: Map<string, VariableSpec & { src: SourceDoc }>;
}

/** A value given to a variable, and where it was written. */
interface Given {
  value: unknown;
  at: Place;
}

const FRAME_KEYS = new Set(['apiVersion', 'kind', 'description', 'variables', 'uses']);
const VAR = /\$(\$?)\{var:([^}]*)\}/g;
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What composing gives: the documents to build brands from, and the problems found. */
export interface Composed {
  docs: SourceDoc[];
  diagnostics: Diagnostic[];
  /** Base files read (shown), for the load's file list. */
  baseFiles: string[];
}

/**
 * Turn the documents read into Brand documents: a Base is used, not built; a
 * Brand with `bases:` gets one document per base (and per base those use); a
 * BrandSet becomes one brand per row. Documents of any other kind pass as read.
 */
// long: one pass whose steps (load a base once, use it for a brand, generate a set's rows, read a CSV) are closures over the load's base cache and diagnostics; each is a short function inside it.
export async function compose(read: SourceDoc[], opts: { cwd: string; cache?: ParseCache }): Promise<Composed> {
  const diagnostics: Diagnostic[] = [];
  const out: SourceDoc[] = [];
  const bases = new Map<string, Promise<Base | undefined>>();
  const baseFiles = new Set<string>();
  const shownOf = (abs: string): string => {
    const rel = relative(opts.cwd, abs);
    return rel === '' || rel.startsWith('..' + sep) || rel === '..' || isAbsolute(rel) ? abs : rel;
  };

  const loadBase = (abs: string): Promise<Base | undefined> => {
    let got = bases.get(abs);
    if (got === undefined) {
      got = (async () => {
        const files = await manifestFilesUnder(abs);
        if (files === 'missing') return undefined;
        const base: Base = { abs, shown: shownOf(abs), docs: [], variables: new Map() };
        for (const f of files) {
          const r = await readManifestFile(f, shownOf(f), opts.cache);
          diagnostics.push(...r.diagnostics);
          for (const d of r.docs) {
            if (kindOf(d) !== 'Base') continue;
            base.docs.push(d);
            baseFiles.add(d.file);
            diagnostics.push(...declareVariables(d, base));
          }
        }
        return base;
      })();
      bases.set(abs, got);
    }
    return got;
  };

  /**
   * The documents `brandId` gets from the base at `abs`, with `given`
   * variables; `chain` is the bases on the way (for cycles), `inputs` the
   * files besides the base's that write into the documents (the brand's, or a
   * generator's and its rows').
   */
  // long: one base's use read top to bottom (cycle, variables, the bases it uses, then each document filled in for the brand), all in the brand's frame of diagnostics; split, each part would take the same ten parameters.
  const useBase = async (
    brandId: string,
    via: string,
    user: SourceDoc,
    at: PathSegments,
    abs: string,
    given: Map<string, Given>,
    overrides: Overrides | undefined,
    chain: string[],
    inputs: string[],
    usedAt: Place,
    brandAt: Place,
  ): Promise<SourceDoc[]> => {
    // A problem at a line of a base (its `uses:`) names the brand; one at the brand's own line needs not.
    const inBase = chain.length > 0 ? via : undefined;
    if (chain.includes(abs)) {
      diagnostics.push(withVia(diagAt(user, 'RCS704', at, `base ${shownOf(abs)} uses itself: ${[...chain, abs].map(shownOf).join(' → ')}; a base may not use a base that uses it`), brandId, inBase));
      return [];
    }
    const base = await loadBase(abs);
    if (base === undefined || base.docs.length === 0) {
      const why = base === undefined ? 'no such file or directory' : 'it holds no `kind: Base` document';
      diagnostics.push(withVia(diagAt(user, 'RCS705', at, `base ${shownOf(abs)} cannot be used: ${why}`), brandId, inBase));
      return [];
    }
    // Variables: each given one must be declared, of its type; each required one given.
    const values = new Map<string, Given>();
    for (const [name, g] of given) {
      const spec = base.variables.get(name);
      if (spec === undefined) {
        const known = [...base.variables.keys()];
        diagnostics.push(placed('RCS701', g.at, `base ${base.shown} declares no variable "${name}"${known.length > 0 ? ` (it declares ${known.join(', ')})` : ' (it declares none)'}`, brandId, inBase));
        continue;
      }
      const typed = ofType(g.value, spec.type);
      if (typed === undefined) {
        diagnostics.push(placed('RCS703', g.at, `variable "${name}" of base ${base.shown} is a ${spec.type}; ${JSON.stringify(g.value)} is not`, brandId, inBase));
        continue;
      }
      values.set(name, { value: typed, at: g.at });
    }
    for (const [name, spec] of base.variables) {
      if (values.has(name) || given.has(name)) continue;
      if (spec.default !== undefined) {
        values.set(name, { value: spec.default, at: lazyPlace(spec.src, ['variables', name, 'default'], 'default') });
      } else if (spec.required) {
        diagnostics.push(withVia(diagAt(user, 'RCS702', at, `base ${base.shown} needs variable "${name}" (a ${spec.type}), and it is not given`), brandId, inBase));
      }
    }
    const docs: SourceDoc[] = [];
    for (const src of base.docs) {
      const raw = src.value as Record<string, unknown>;
      // The bases this one uses come first, with their values taken from this one's.
      const uses = Array.isArray(raw.uses) ? raw.uses : [];
      for (let i = 0; i < uses.length; i++) {
        const u = uses[i] as { base?: unknown; variables?: unknown } | null;
        if (typeof u?.base !== 'string') {
          diagnostics.push(withVia(diagAt(src, 'RCS706', ['uses', i], 'each `uses:` entry is `{ base: PATH, variables: {...} }`'), brandId, via));
          continue;
        }
        const inner = new Map<string, Given>();
        for (const [name, v] of Object.entries(isMap(u.variables) ? u.variables : {})) {
          inner.set(name, { value: substitute(v, values, [], () => undefined), at: lazyPlace(src, ['uses', i, 'variables', name], 'base') });
        }
        docs.push(...(await useBase(brandId, via, src, ['uses', i, 'base'], resolve(dirname(src.absPath), u.base), inner, overrides, [...chain, abs], inputs, usedAt, brandAt)));
      }
      const value: Record<string, unknown> = { apiVersion: 'rcsctl/v1', kind: 'Brand', brand: { id: brandId } };
      const vars = new Map<string, { name: string; at: Place }[]>();
      // The base's sections are copied as they are; only the strings that hold a variable are worked out for this brand.
      const shape = shapeOf(src);
      for (const k of shape.keys) value[k] = copyPlain(raw[k]);
      for (const hole of shape.holes) {
        setAt(value, hole.path, substitute(hole.text, values, hole.path, (path, name) => {
          const g = values.get(name);
          // Declared but given no usable value: RCS702 or RCS703 said so where it was given.
          if (g === undefined && base.variables.has(name)) return undefined;
          if (g === undefined) {
            diagnostics.push(withVia(diagAt(src, 'RCS701', path, `"\${var:${name}}" names no variable of base ${base.shown}${base.variables.size > 0 ? ` (it declares ${[...base.variables.keys()].join(', ')})` : ''}`), brandId, via));
            return undefined;
          }
          const list = vars.get(hole.pointer);
          if (list === undefined) vars.set(hole.pointer, [{ name, at: g.at }]);
          else list.push({ name, at: g.at });
          return g.value;
        }));
      }
      const overridden = new Map<string, Place>();
      overrides?.apply(value, overridden);
      const composed: ComposedFrom = {
        via,
        brandId,
        // The brand's frame (its id) is the brand's own line, or its generator row.
        place: (path) => (path.length >= 1 && path[0] === 'brand' ? brandAt : placeFor(path, overridden)),
        variables: vars,
        inputs: [...new Set([src.file, ...inputs])],
        usedAt,
      };
      docs.push(derived(src, value, composed));
    }
    return docs;
  };

  // A BrandSet's YAML rows file under a manifest folder is read as a manifest too: it is the set's data, not a document.
  const rowsFiles = new Set(
    read.flatMap((src) => {
      const from = kindOf(src) === 'BrandSet' ? (src.value as { from?: unknown }).from : undefined;
      return typeof from === 'string' ? [resolve(dirname(src.absPath), from)] : [];
    }),
  );
  for (const src of read) {
    const k = kindOf(src);
    if (k === 'Base' || rowsFiles.has(src.absPath)) continue;
    if (k === 'BrandSet') {
      out.push(...(await generate(src)));
      continue;
    }
    const raw = src.value as Record<string, unknown> | null;
    if (raw === null || typeof raw !== 'object' || (raw.bases === undefined && raw.overrides === undefined)) {
      out.push(src);
      continue;
    }
    const brandId = (raw.brand as { id?: unknown } | undefined)?.id;
    const { bases: list, overrides: given, ...own } = raw;
    const overrides = given === undefined ? undefined : new Overrides(src, given);
    const via = `brand ${String(brandId)} (${src.file}:${position(src.lines, offsetOf(src, ['brand'], 'key')).line})`;
    if (typeof brandId === 'string' && Array.isArray(list)) {
      // The `bases:` key and the `brand:` key: the fast reader knows where top-level keys are, so neither needs the file's YAML tree.
      const usedAt = lazyPlace(src, ['bases'], 'brand', 'key');
      const brandAt = lazyPlace(src, ['brand'], 'brand', 'key');
      for (let i = 0; i < list.length; i++) {
        const entry = list[i] as { base?: unknown; variables?: unknown } | null;
        if (typeof entry?.base !== 'string') {
          diagnostics.push(diagAt(src, 'RCS706', ['bases', i], 'each `bases:` entry is `{ base: PATH, variables: {...} }`'));
          continue;
        }
        const given = new Map<string, Given>();
        for (const [name, v] of Object.entries(isMap(entry.variables) ? entry.variables : {})) {
          given.set(name, { value: v, at: lazyPlace(src, ['bases', i, 'variables', name], 'variable') });
        }
        out.push(...(await useBase(brandId, via, src, ['bases', i, 'base'], resolve(dirname(src.absPath), entry.base), given, overrides, [], [src.file], usedAt, brandAt)));
      }
    } else if (list !== undefined) {
      diagnostics.push(diagAt(src, 'RCS706', ['bases'], '`bases:` is a list of `{ base: PATH, variables: {...} }`'));
    }
    if (overrides !== undefined) diagnostics.push(...overrides.unused());
    // The brand's own document, without the composition keys (the schema checks the rest).
    out.push(derived(src, own, undefined, src));
  }

  /** A BrandSet: one brand per row, inline or from a CSV or YAML file. */
  async function generate(src: SourceDoc): Promise<SourceDoc[]> {
    const raw = src.value as { base?: unknown; brands?: unknown; from?: unknown };
    if (typeof raw.base !== 'string') {
      diagnostics.push(diagAt(src, 'RCS706', ['base'], 'a BrandSet names the base it stamps: `base: PATH`'));
      return [];
    }
    const rows: { id: unknown; key?: unknown; values: Map<string, Given>; at: Place }[] = [];
    const rowPlace = (s: SourceDoc, path: PathSegments, how: Place['how']): Place => lazyPlace(s, path, how);
    if (Array.isArray(raw.brands)) {
      raw.brands.forEach((row: unknown, i: number) => {
        if (!isMap(row)) return diagnostics.push(diagAt(src, 'RCS706', ['brands', i], 'each row is `{ id: BR.…, variables: {...} }`'));
        const values = new Map<string, Given>();
        for (const [name, v] of Object.entries(isMap(row.variables) ? row.variables : {})) values.set(name, { value: v, at: rowPlace(src, ['brands', i, 'variables', name], 'generator row') });
        rows.push({ id: row.id, key: row.key, values, at: rowPlace(src, ['brands', i], 'generator row') });
      });
    }
    if (typeof raw.from === 'string') {
      const abs = resolve(dirname(src.absPath), raw.from);
      const shown = shownOf(abs);
      let text: string | undefined;
      try {
        text = await readFile(abs, 'utf8');
      } catch (err) {
        diagnostics.push(diagAt(src, 'RCS707', ['from'], `cannot read ${shown} (${(err as NodeJS.ErrnoException).code ?? 'error'})`));
      }
      if (text !== undefined && /\.csv$/i.test(abs)) rows.push(...csvRows(text, shown));
      else if (text !== undefined) {
        const r = await readManifestFile(abs, shown);
        diagnostics.push(...r.diagnostics);
        const list = r.docs[0]?.value;
        if (r.docs[0] !== undefined && !Array.isArray(list)) diagnostics.push(diagAt(r.docs[0], 'RCS707', [], `${shown} is a list of rows: \`- { id: BR.…, city: Seoul }\``));
        const doc = r.docs[0];
        if (doc !== undefined && Array.isArray(list)) {
          list.forEach((row: unknown, i: number) => {
            if (!isMap(row)) return diagnostics.push(diagAt(doc, 'RCS707', [i], 'each row is a map with `id` and the variables'));
            const values = new Map<string, Given>();
            for (const [name, v] of Object.entries(row)) if (name !== 'id' && name !== 'key') values.set(name, { value: v, at: rowPlace(doc, [i, name], 'generator row') });
            rows.push({ id: row.id, key: row.key, values, at: rowPlace(doc, [i], 'generator row') });
          });
        }
      }
    }
    const docs: SourceDoc[] = [];
    const setAt = `${src.file}:${position(src.lines, offsetOf(src, ['base'])).line}`;
    for (const row of rows) {
      if (typeof row.id !== 'string') {
        diagnostics.push(placed('RCS707', row.at, 'the row has no brand id (`id: BR.…`)'));
        continue;
      }
      const via = `brand ${row.id} (${row.at.file}:${row.at.line}, generated by ${setAt})`;
      const made = await useBase(row.id, via, src, ['base'], resolve(dirname(src.absPath), raw.base), row.values, undefined, [], [src.file, row.at.file], row.at, row.at);
      const first = made.find((d) => d.composed !== undefined);
      if (typeof row.key === 'string' && first !== undefined) (first.value as { brand: { key?: string } }).brand.key = row.key;
      docs.push(...made);
    }
    return docs;
  }

  function csvRows(text: string, shown: string): { id: unknown; key?: unknown; values: Map<string, Given>; at: Place }[] {
    const records = parseCsv(text);
    const header = records[0];
    if (header === undefined) return [];
    const rows = [];
    const idAt = header.cells.indexOf('id');
    if (idAt < 0) {
      diagnostics.push(placed('RCS707', { file: shown, line: 1, col: 1, how: 'generator row' }, `${shown} needs an "id" column (the brand id of each row)`));
      return [];
    }
    for (const r of records.slice(1)) {
      if (r.cells.length === 1 && r.cells[0] === '') continue;
      const values = new Map<string, Given>();
      header.cells.forEach((name, i) => {
        if (name === 'id' || name === 'key' || r.cells[i] === undefined) return;
        values.set(name, { value: r.cells[i], at: { file: shown, line: r.line, col: 1, how: 'generator row' } });
      });
      const key = header.cells.indexOf('key');
      rows.push({ id: r.cells[idAt], ...(key >= 0 ? { key: r.cells[key] } : {}), values, at: { file: shown, line: r.line, col: 1, how: 'generator row' as const } });
    }
    return rows;
  }

  return { docs: out, diagnostics, baseFiles: [...baseFiles] };
}

/**
 * Where `path` of `src` is, worked out when first read: most runs print no
 * position, and working one out may need the document's YAML tree (which the
 * fast reader does not build: 200 brand files would each be parsed twice).
 */
function lazyPlace(src: SourceDoc, path: PathSegments, how: Place['how'], at?: 'key'): Place {
  let pos: { line: number; col: number } | undefined;
  const where = (): { line: number; col: number } => (pos ??= position(src.lines, offsetOf(src, path, at)));
  return {
    file: src.file,
    how,
    get line() {
      return where().line;
    },
    get col() {
      return where().col;
    },
  };
}

/** A string of a base's document that holds `${var:...}`: where it is, and the names it refers to. */
interface Hole {
  path: (string | number)[];
  pointer: string;
  text: string;
}

/** A base document's sections and the strings in them that hold variables, found once per run (not once per brand). */
interface Shape {
  keys: string[];
  holes: Hole[];
}

const shapes = new WeakMap<SourceDoc, Shape>();

function shapeOf(src: SourceDoc): Shape {
  let t = shapes.get(src);
  if (t === undefined) {
    const raw = src.value as Record<string, unknown>;
    const keys = Object.keys(raw).filter((k) => !FRAME_KEYS.has(k));
    const holes: Hole[] = [];
    const walk = (v: unknown, path: (string | number)[]): void => {
      if (typeof v === 'string') {
        if (v.includes('${var:')) holes.push({ path: [...path], pointer: jsonPointer(path), text: v });
      } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
      else if (isMap(v)) for (const k of Object.keys(v)) walk(v[k], [...path, k]);
    };
    for (const k of keys) walk(raw[k], [k]);
    t = { keys, holes };
    shapes.set(src, t);
  }
  return t;
}

/** A copy of a value read from YAML or JSON (maps, lists and scalars): a walk, cheaper than structuredClone's serialiser for these. */
function copyPlain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(copyPlain);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      const x = copyPlain((v as Record<string, unknown>)[k]);
      // A key written `__proto__` stays a key, as the reader made it.
      if (k === '__proto__') Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
      else out[k] = x;
    }
    return out;
  }
  return v;
}

/** Set `v` at `path` of `root` (every step but the last exists: it is a copy of the base's value). */
function setAt(root: Record<string, unknown>, path: readonly (string | number)[], v: unknown): void {
  let node = root as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) node = node[path[i] as string | number] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = v;
}

/** The `kind:` of a document, when it is one composition handles. */
export function kindOf(src: SourceDoc): string | undefined {
  const k = (src.value as { kind?: unknown } | null)?.kind;
  return typeof k === 'string' ? k : undefined;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The variables a Base document declares, checked. */
function declareVariables(src: SourceDoc, base: Base): Diagnostic[] {
  const diags: Diagnostic[] = [];
  const raw = (src.value as { variables?: unknown }).variables;
  if (raw === undefined) return diags;
  if (!isMap(raw)) return [diagAt(src, 'RCS706', ['variables'], '`variables:` maps each name to `{ type, required, default, description }`')];
  for (const [name, spec] of Object.entries(raw)) {
    if (!VAR_NAME.test(name)) {
      diags.push(diagAt(src, 'RCS706', ['variables', name], `variable name "${name}" must be a letter or _, then letters, digits or _`, { at: 'key' }));
      continue;
    }
    const s = isMap(spec) ? spec : {};
    const type = s.type ?? 'string';
    if (type !== 'string' && type !== 'number' && type !== 'boolean') {
      diags.push(diagAt(src, 'RCS706', ['variables', name, 'type'], `variable type is string, number or boolean; not ${JSON.stringify(type)}`));
      continue;
    }
    if (s.default !== undefined && ofType(s.default, type) === undefined) {
      diags.push(diagAt(src, 'RCS703', ['variables', name, 'default'], `the default of "${name}" is not a ${type}`));
      continue;
    }
    const unknown = Object.keys(s).filter((k) => !['type', 'required', 'default', 'description'].includes(k));
    for (const k of unknown) diags.push(diagAt(src, 'RCS706', ['variables', name, k], `a variable has type, required, default and description; not "${k}"`, { at: 'key' }));
    base.variables.set(name, { type, required: s.required !== false && s.default === undefined, ...(s.default !== undefined ? { default: s.default } : {}), src });
  }
  return diags;
}

/** `v` as a value of `type` (text from a CSV row is read as the type asks), or undefined. */
function ofType(v: unknown, type: VariableSpec['type']): unknown {
  if (typeof v === type) return v;
  if (typeof v !== 'string') return undefined;
  if (type === 'number' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  if (type === 'boolean' && (v === 'true' || v === 'false')) return v === 'true';
  return undefined;
}

/** Replace `${var:NAME}` in every string of `v`; a string that is one reference whole takes the variable's type. */
function substitute(v: unknown, values: Map<string, Given>, path: (string | number)[], lookup: (path: PathSegments, name: string) => unknown): unknown {
  if (typeof v === 'string') {
    if (!v.includes('${var:')) return v;
    const whole = /^\$\{var:([^}]*)\}$/.exec(v);
    const get = (name: string): unknown => {
      const found = lookup([...path], name);
      return found !== undefined ? found : values.get(name)?.value;
    };
    // An unknown variable was reported (RCS701): it leaves nothing for `${env:}` to report again.
    if (whole?.[1] !== undefined) return get(whole[1]) ?? '';
    return v.replace(VAR, (all, escape: string, name: string) => {
      if (escape === '$') return all;
      const got = get(name);
      return got === undefined ? '' : String(got);
    });
  }
  if (Array.isArray(v)) return v.map((x, i) => substitute(x, values, [...path, i], lookup));
  if (isMap(v)) {
    for (const k of Object.keys(v)) v[k] = substitute(v[k], values, [...path, k], lookup);
    return v;
  }
  return v;
}

/**
 * A brand's `overrides:` (section → key → fields): merged into the documents
 * of its bases as JSON Merge Patch does (maps merge, anything else replaces,
 * null removes). Every override must change something a base sets.
 */
class Overrides {
  private readonly used = new Set<string>();
  constructor(
    private readonly src: SourceDoc,
    private readonly given: unknown,
  ) {}

  /** Merge what applies into `value`, recording where each overridden field came from. */
  apply(value: Record<string, unknown>, overridden: Map<string, Place>): void {
    if (!isMap(this.given)) return;
    const walk = (target: Record<string, unknown>, patch: Record<string, unknown>, path: string[]): void => {
      for (const [k, v] of Object.entries(patch)) {
        if (!(k in target)) continue;
        const here = [...path, k];
        // A section or an entry is used when a base holds it; a field when it is set.
        if (isMap(v) && isMap(target[k])) {
          this.used.add(jsonPointer(here));
          walk(target[k], v, here);
          continue;
        }
        this.used.add(jsonPointer(here));
        overridden.set(jsonPointer(here), lazyPlace(this.src, ['overrides', ...here], 'override'));
        if (v === null) delete target[k];
        else target[k] = copyPlain(v);
      }
    };
    walk(value, this.given, []);
  }

  /** Overrides no base took: a section, key or field the bases do not set. */
  unused(): Diagnostic[] {
    if (!isMap(this.given)) return [diagAt(this.src, 'RCS706', ['overrides'], '`overrides:` maps a section to the keys of the resources it changes')];
    const out: Diagnostic[] = [];
    const walk = (patch: Record<string, unknown>, path: string[]): void => {
      for (const [k, v] of Object.entries(patch)) {
        const here = [...path, k];
        if (!this.used.has(jsonPointer(here))) {
          const what = here.length === 1 ? `section "${k}"` : here.length === 2 ? `"${here.join('.')}"` : `field ${here.slice(2).join('.')} of "${here.slice(0, 2).join('.')}"`;
          out.push(diagAt(this.src, 'RCS708', ['overrides', ...here], `override of ${what} changes nothing: no base of this brand sets it (declare a new resource in the brand itself; an override changes what a base sets)`, { at: 'key' }));
        } else if (isMap(v)) walk(v, here);
      }
    };
    walk(this.given, []);
    return out;
  }
}

/** What set the value at `path` of a base's document: an override when one covers it. */
function placeFor(path: PathSegments, overridden: Map<string, Place>): Place | undefined {
  if (overridden.size === 0) return undefined;
  for (let n = path.length; n > 0; n--) {
    const hit = overridden.get(jsonPointer(path.slice(0, n)));
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** A document built from `src`'s text and tree (positions stay the base's) with a new value. */
function derived(src: SourceDoc, value: unknown, composed: ComposedFrom | undefined, same?: SourceDoc): SourceDoc {
  const doc: SourceDoc = {
    file: src.file,
    absPath: src.absPath,
    get text() {
      return src.text;
    },
    get lines() {
      return src.lines;
    },
    get doc() {
      return src.doc;
    },
    value,
    ...(src.keysAreText !== undefined ? { keysAreText: src.keysAreText } : {}),
    ...(src.keyOffsets !== undefined ? { keyOffsets: src.keyOffsets } : {}),
    ...(same?.checkedBefore !== undefined ? { checkedBefore: same.checkedBefore } : {}),
    ...(composed !== undefined ? { composed } : {}),
  };
  return doc;
}

/** A diagnostic at a place another file holds (a variable's value, a generator row); `via` names the brand when the place is a base's line. */
function placed(code: DiagnosticCode, at: Place, message: string, brandId?: string, via?: string): Diagnostic {
  const d: Diagnostic = { code, severity: DIAGNOSTIC_CODES[code].severity, file: at.file, line: at.line, col: at.col, path: '', message };
  return withVia(d, brandId, via);
}

/** Say which brand a diagnostic at a base's line is about (base-diagnostics.ts names the brands in the message). */
function withVia(d: Diagnostic, brandId: string | undefined, via: string | undefined): Diagnostic {
  return via === undefined || brandId === undefined ? d : { ...d, forBrand: { id: brandId, via } };
}
/** CSV records (RFC 4180: quoted cells, "" inside quotes), each with the line it starts on. */
export function parseCsv(text: string): { cells: string[]; line: number }[] {
  const out: { cells: string[]; line: number }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        cell += c;
      }
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === ',') {
      cells.push(cell.trim());
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      cells.push(cell.trim());
      out.push({ cells, line: start });
      cells = [];
      cell = '';
      line++;
      start = line;
    } else cell += c;
  }
  if (cell !== '' || cells.length > 0) {
    cells.push(cell.trim());
    out.push({ cells, line: start });
  }
  return out;
}
