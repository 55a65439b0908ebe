// `rcsctl export --base PATH` (issue 37): a live brand written against a base
// it should use, so that adopting a franchise ends in one base and one short
// file per brand. What the base gives as the live brand has it is left out;
// the rest is the base's variables (given with --var, or read off the live
// values the base's `${var:NAME}` texts produce), overrides of what the base
// sets, and the brand's own resources. Nothing is guessed: every candidate is
// loaded through the real loader (composition included) and planned against
// the live brand it came from (the caller's `changes`), and a resource that
// still differs is written more explicitly, in three levels:
//   0. left out (the base gives it as it is live);
//   1. an override: a JSON Merge Patch of what the base sets (null removes);
//   2. replaced: `overrides: { section: { key: null } }` and the live entry
//      in the brand's own section, when a merge patch cannot say it (a field
//      the base's entry does not set that the plan compares: RCS708 refuses
//      an override that adds one).
// A resource that differs at level 2 cannot be written against the base, and
// export says which and why instead of writing a file that plans changes.
// Generic over the kinds: sections are whatever the base and the export hold.

import { mkdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { stringify } from 'yaml';
import type { LiveBrand } from '../core/live.js';
import { RcsctlError } from '../errors.js';
import { exportedCounts } from '../kinds/counts.js';
import { KINDS } from '../kinds/index.js';
import { isExportable } from '../kinds/resource-kind.js';
import { loadManifests, manifestFilesUnder } from '../manifest/index.js';
import { readManifestFile } from '../manifest/read-yaml.js';
import { entrySections } from '../manifest/schema-check.js';
import { desiredSection, type DesiredBrand, type Diagnostic } from '../manifest/types.js';
import { writeOutputFile } from '../util/output-file.js';
import type { Redaction } from '../util/redaction.js';
import { variablesFor, type VariableSpec } from './base-variables.js';
import { buildManifest, type ExportedManifest, type ExportOptions } from './build-manifest.js';
import { fetchImages } from './write-export.js';

/** The base a brand is exported against, and the variables given on the command line. */
export interface BaseChoice {
  /** The base's folder or file, absolute. */
  abs: string;
  /** `--var NAME=VALUE`, as text (read as the variable's type). */
  given: Map<string, string>;
}

/** What the caller supplies: where to stage, the load's surroundings, and the plan of a candidate. */
export interface AgainstBaseEnv {
  /** The brand's folder (the manifest goes in `dir/brand.yaml`); the candidates are staged in a sibling folder. */
  dir: string;
  cwd: string;
  env: Record<string, string | undefined>;
  root?: string;
  concurrency: number;
  redaction: Redaction;
  /** The addresses (`autoReply.hours`) of the steps a plan of `desired` against the live brand has. */
  changes(desired: DesiredBrand, live: LiveBrand): string[];
}

/** The manifest written against the base, the images it needs (already fetched), and lines for the output. */
export interface AgainstBase {
  exported: ExportedManifest;
  fetched: Buffer[];
  lines: string[];
}


/** One resource the base sets: a keyed entry (`autoReplies.hours`), or a whole one-per-brand section (`brandProfile`). */
interface Unit {
  section: string;
  key?: string;
}

const FRAME = new Set(['apiVersion', 'kind', 'description', 'variables', 'uses']);
const unitId = (u: Unit): string => (u.key === undefined ? u.section : `${u.section}.${u.key}`);

/** Write `live` against `base`; throws RcsctlError (naming the brand's problem) when it cannot. */
// long: the rounds (write a candidate, load it, plan it, move each differing resource to the next form) share the stage, the levels and the fields left out; each step they take is a function below.
export async function exportAgainstBase(live: LiveBrand, base: BaseChoice, keyOpts: ExportOptions, env: AgainstBaseEnv): Promise<AgainstBase> {
  const raw = await readBase(base.abs, env.cwd);
  const rel = relative(env.dir, base.abs).split(sep).join('/') || '.';
  const stage = join(dirname(env.dir), `.${basename(env.dir)}.rcsctl-export-${process.pid}`);
  try {
    // Variables: given, else read off the live values, else the base's default.
    const plain = buildManifest(live, keyOpts);
    const { values, lines } = variablesFor(raw, base.given, plain.manifest);
    const frame: Record<string, unknown> = { apiVersion: 'rcsctl/v1', kind: 'Brand', brand: plain.manifest.brand, bases: [{ base: rel, ...(Object.keys(values).length > 0 ? { variables: values } : {}) }] };

    // What the base alone gives this brand, and which live object each of its resources is.
    const alone = await stageAndLoad(stage, frame, [], [], env, true);
    const desired = alone.loaded.brands[0];
    const errors = alone.loaded.diagnostics.filter((d) => d.severity === 'error');
    if (desired === undefined || errors.length > 0) throw new RcsctlError('E_EXPORT_BASE', `the base ${rel} does not load for ${live.brandId}: ${describe(errors)}`);
    const given = baseSections(alone.loaded.docs?.get(live.brandId) ?? []);
    const exported = buildManifest(live, { ...keyOpts, handles: matchedHandles(desired, live) });
    const fetched = await fetchImages(exported.downloads, env.concurrency);

    const units = unitsOf(given);
    const level = new Map(units.map((u) => [unitId(u), 0]));
    // A section export could not read (the brand page without an account) cannot be compared: the base's stays as it is, and the output says so.
    const unread = new Set(KINDS.filter(isExportable).flatMap((k) => (k.exporter.unread?.(live) !== undefined && units.some((u) => u.section === k.exporter.section) ? [k.exporter.section] : [])));
    for (const section of unread) lines.push(`the base's ${section} is kept as the base gives it, unchecked: export did not read it live (see the note below)`);
    // Fields left out of a unit's override: one whose value cannot stand in an override (a path, which an override reads from the base's folder).
    const dropped = new Map<string, string[][]>();
    for (let round = 0; ; round++) {
      const doc = compose(frame, exported.manifest, given, units, level, dropped);
      const staged = await stageAndLoad(stage, doc, exported.downloads.map((d) => d.path), fetched, env, false);
      const flagged = new Map<string, string>();
      const loose: Diagnostic[] = [];
      let retry = false;
      for (const d of staged.loaded.diagnostics.filter((x) => x.severity === 'error')) {
        const u = unitOfDiagnostic(d, units);
        if (u === undefined) {
          loose.push(d);
          continue;
        }
        // A field of an override that does not load: try the override without it (the base's value may be what live has); the plan says if not.
        const field = overrideField(d, u);
        const gone = dropped.get(unitId(u)) ?? [];
        const inPatch = field !== undefined && hasPath(patchOf(u, given, exported.manifest).patch, field);
        if (field !== undefined && inPatch && (level.get(unitId(u)) ?? 0) === 1 && !gone.some((f) => f.join('/') === field.join('/'))) {
          dropped.set(unitId(u), [...gone, field]);
          retry = true;
        } else flagged.set(unitId(u), `${d.code}: ${d.message}`);
      }
      if (loose.length > 0) throw new RcsctlError('E_EXPORT_BASE', `${live.brandId} written against ${rel} does not load: ${describe(loose)}`);
      const brand = staged.loaded.brands[0];
      if (retry && flagged.size === 0) continue;
      if (brand === undefined && flagged.size === 0) throw new RcsctlError('E_EXPORT_BASE', `${live.brandId} written against ${rel} declares no brand when loaded`);
      if (brand !== undefined && flagged.size === 0) {
        for (const address of env.changes(brand, live)) {
          const u = unitOfAddress(address, units, exported.manifest, given, manifestKeys(brand));
          if (u === undefined) throw new RcsctlError('E_EXPORT_BASE', `${live.brandId} written against ${rel} still plans a change to ${address}, which the base does not set`);
          if (!unread.has(u.section)) flagged.set(unitId(u), `the plan changes ${address}`);
        }
      }
      if (flagged.size === 0) {
        const kept = ownPaths(doc);
        const keep = exported.downloads.map((d) => kept.has(d.path));
        const manifest = { ...exported, manifest: doc, downloads: exported.downloads.filter((_, i) => keep[i]), counts: exportedCounts(doc, new Set()) };
        return { exported: manifest, fetched: fetched.filter((_, i) => keep[i]), lines: [...lines, summary(rel, units, level, (u) => entryOf(exported.manifest, u) === undefined, (u) => patchOf(u, given, exported.manifest).extra)] };
      }
      const stuck: string[] = [];
      for (const [id, why] of flagged) {
        const now = level.get(id) ?? 0;
        const u = units.find((x) => unitId(x) === id) as Unit;
        // A patch leaves out the fields the base does not set (an override cannot add one); when they matter, the plan says so and the entry is replaced.
        const next = now + 1;
        if (next > 2 || (next === 2 && entryOf(exported.manifest, u) === undefined)) stuck.push(`${id} (${why})`);
        else level.set(id, next);
      }
      if (stuck.length > 0 || round > units.length * 2) {
        throw new RcsctlError('E_EXPORT_BASE', `${live.brandId} cannot be written against ${rel}: ${stuck.join('; ')}. Export it without --base, or change the base.`);
      }
    }
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** The base's Base documents as written (templates unresolved) and its variables. */
async function readBase(abs: string, cwd: string): Promise<{ sections: Record<string, unknown>[]; variables: Map<string, VariableSpec> }> {
  const files = await manifestFilesUnder(abs);
  if (files === 'missing') throw new RcsctlError('E_USAGE', `--base ${relative(cwd, abs) || abs}: no such file or directory`);
  const sections: Record<string, unknown>[] = [];
  const variables = new Map<string, VariableSpec>();
  for (const f of files) {
    const r = await readManifestFile(f, relative(cwd, f));
    for (const d of r.docs) {
      const v = d.value as Record<string, unknown> | null;
      if (v?.kind !== 'Base') continue;
      sections.push(Object.fromEntries(Object.entries(v).filter(([k]) => !FRAME.has(k))));
      for (const [name, spec] of Object.entries(isMap(v.variables) ? v.variables : {})) {
        const s = isMap(spec) ? spec : {};
        const type = s.type === 'number' || s.type === 'boolean' ? s.type : 'string';
        variables.set(name, { type, required: s.required !== false && s.default === undefined, ...(s.default !== undefined ? { default: s.default } : {}) });
      }
    }
  }
  if (sections.length === 0) throw new RcsctlError('E_USAGE', `--base ${relative(cwd, abs) || abs} holds no \`kind: Base\` document`);
  return { sections, variables };
}

/** Write `doc` and the images into `stage` and load it as the real loader does. */
async function stageAndLoad(stage: string, doc: Record<string, unknown>, paths: string[], fetched: Buffer[], env: AgainstBaseEnv, keepDocs: boolean): Promise<{ loaded: Awaited<ReturnType<typeof loadManifests>> }> {
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  paths.forEach((p, i) => writeOutputFile(join(stage, ...p.split('/')), fetched[i] as Buffer, env.redaction));
  writeOutputFile(join(stage, 'brand.yaml'), stringify(doc, { lineWidth: 0 }), env.redaction);
  const loaded = await loadManifests([stage], { env: env.env, cwd: env.cwd, keepDocs, ...(env.root !== undefined ? { root: env.root } : {}) });
  return { loaded };
}

/** The sections the brand's bases set (their documents, composed for this brand, merged). */
function baseSections(docs: { value: unknown; composed?: unknown }[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const d of docs) {
    if (d.composed === undefined) continue;
    for (const [k, v] of Object.entries(d.value as Record<string, unknown>)) {
      if (k === 'apiVersion' || k === 'kind' || k === 'brand') continue;
      out[k] = isMap(out[k]) && isMap(v) ? { ...out[k], ...v } : v;
    }
  }
  return out;
}

/** For each kind, the live object each resource of the base matches (as plan matches it), under the base's key. */
function matchedHandles(desired: DesiredBrand, live: LiveBrand): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  const keys = manifestKeys(desired);
  for (const kind of KINDS) {
    const m = kind.diff.match(kind.desired(desired), kind.live(live), desired);
    const pairs: [string, string][] = [];
    for (const [d, l] of m.pairs) {
      const at = keys.get(`${kind.name}.${kind.identity.key(d)}`);
      if (at?.key !== undefined) pairs.push([kind.identity.liveId(l), at.key]);
    }
    out.set(kind.name, new Map(pairs));
  }
  return out;
}

/**
 * Where each desired object of `brand` is written: its section and key, by the
 * address plan gives it (`autoReply.hours`; a file is addressed by its upload
 * name, `file.storefront-ff7131fa55b5.png`, and written under its handle).
 */
function manifestKeys(brand: DesiredBrand): Map<string, Unit> {
  const out = new Map<string, Unit>();
  const keyed = new Set(entrySections());
  for (const kind of KINDS) {
    const section = kind.manifest?.section;
    // A one-per-brand section (the brand page) is one resource, whatever key its object has.
    const entries = section !== undefined && keyed.has(section) ? desiredSection(brand, section) : undefined;
    for (const d of kind.desired(brand)) {
      const address = `${kind.name}.${kind.identity.key(d)}`;
      if (section === undefined) continue;
      if (entries === undefined) {
        out.set(address, { section });
        continue;
      }
      for (const [key, v] of entries) if (v === d) out.set(address, { section, key });
    }
  }
  return out;
}

/** Every resource the base sets. */
function unitsOf(given: Record<string, unknown>): Unit[] {
  const keyed = new Set(entrySections());
  return Object.entries(given).flatMap(([section, body]): Unit[] => (keyed.has(section) && isMap(body) ? Object.keys(body).map((key) => ({ section, key })) : [{ section }]));
}

function entryOf(m: Record<string, unknown>, u: Unit): unknown {
  const s = m[u.section];
  return u.key === undefined ? s : isMap(s) ? s[u.key] : undefined;
}

/** The merge patch that turns what the base sets into the live entry; `extra` when the live entry has a field the base's does not set. */
export function mergePatch(base: unknown, live: unknown): { patch: unknown; extra: boolean } {
  if (live === undefined) return { patch: null, extra: false };
  if (!isMap(base) || !isMap(live)) return { patch: JSON.stringify(base) === JSON.stringify(live) ? undefined : live, extra: false };
  const patch: Record<string, unknown> = {};
  let extra = false;
  for (const k of Object.keys(base)) {
    const sub = mergePatch(base[k], live[k]);
    extra ||= sub.extra;
    if (sub.patch !== undefined) patch[k] = sub.patch;
  }
  for (const k of Object.keys(live)) if (!(k in base)) extra = true;
  return { patch: Object.keys(patch).length > 0 ? patch : undefined, extra };
}

function patchOf(u: Unit, given: Record<string, unknown>, m: Record<string, unknown>): { patch: unknown; extra: boolean } {
  return mergePatch(entryOf(given, u), entryOf(m, u));
}

/** The brand's document: the frame, overrides for the units at level 1 and 2, and its own sections (the units at level 2, and all the base does not set). */
function compose(frame: Record<string, unknown>, m: Record<string, unknown>, given: Record<string, unknown>, units: Unit[], level: Map<string, number>, dropped: Map<string, string[][]>): Record<string, unknown> {
  const overrides: Record<string, Record<string, unknown>> = {};
  const own: Record<string, unknown> = {};
  const setOverride = (u: Unit, v: unknown): void => {
    if (u.key === undefined) (overrides as Record<string, unknown>)[u.section] = v;
    else (overrides[u.section] ??= {})[u.key] = v;
  };
  for (const u of units) {
    const l = level.get(unitId(u)) ?? 0;
    if (l === 1) {
      const p = without(patchOf(u, given, m).patch, dropped.get(unitId(u)) ?? []);
      if (p !== undefined) setOverride(u, p);
    } else if (l === 2) setOverride(u, null);
  }
  for (const [section, body] of Object.entries(m)) {
    if (section === 'apiVersion' || section === 'kind' || section === 'brand') continue;
    const inBase = given[section];
    if (inBase === undefined) {
      own[section] = body;
      continue;
    }
    if (!isMap(body)) continue;
    const keyed = units.some((u) => u.section === section && u.key !== undefined);
    if (!keyed) {
      if ((level.get(section) ?? 0) === 2) own[section] = body;
      continue;
    }
    const mine = Object.fromEntries(Object.entries(body).filter(([k]) => !isMap(inBase) || !(k in inBase) || (level.get(`${section}.${k}`) ?? 0) === 2));
    if (Object.keys(mine).length > 0) own[section] = mine;
  }
  return { ...frame, ...(Object.keys(overrides).length > 0 ? { overrides } : {}), ...own };
}

function hasPath(v: unknown, path: string[]): boolean {
  let at = v;
  for (const k of path) {
    if (!isMap(at) || !(k in at)) return false;
    at = at[k];
  }
  return true;
}

/** `patch` without the fields at `paths` (and without maps they leave empty); undefined when nothing is left. */
function without(patch: unknown, paths: string[][]): unknown {
  if (paths.length === 0 || !isMap(patch)) return patch;
  const out = structuredClone(patch);
  for (const path of paths) {
    const trail: Record<string, unknown>[] = [out];
    for (const k of path.slice(0, -1)) {
      const next = (trail[trail.length - 1] as Record<string, unknown>)[k];
      if (!isMap(next)) break;
      trail.push(next);
    }
    if (trail.length === path.length) delete (trail[trail.length - 1] as Record<string, unknown>)[path[path.length - 1] as string];
    for (let i = trail.length - 1; i > 0; i--) if (Object.keys(trail[i] as object).length === 0) delete (trail[i - 1] as Record<string, unknown>)[path[i - 1] as string];
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The field below `u` a load error is at (`['profileImage']`): in the brand's `overrides:`, or where the override lands in the base's document. */
function overrideField(d: Diagnostic, u: Unit): string[] | undefined {
  const parts = d.path.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const rest = parts[0] === 'overrides' ? parts.slice(1) : parts;
  const below = rest.slice(u.key === undefined ? 1 : 2);
  return below.length > 0 ? below : undefined;
}

/** The unit a load error is about: one in `overrides:` or in the base's text for this brand, by its JSON path. */
function unitOfDiagnostic(d: Diagnostic, units: Unit[]): Unit | undefined {
  const parts = d.path.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const rest = parts[0] === 'overrides' ? parts.slice(1) : parts;
  return units.find((u) => u.section === rest[0] && (u.key === undefined || u.key === rest[1]));
}

/** The unit a plan step's address is about: its kind's section, or (a kind inside another's section: menus in rooms) the section holding its key. */
function unitOfAddress(address: string, units: Unit[], m: Record<string, unknown>, given: Record<string, unknown>, keys: Map<string, Unit>): Unit | undefined {
  const at = keys.get(address);
  if (at !== undefined) return units.find((u) => u.section === at.section && u.key === at.key);
  const dot = address.indexOf('.');
  const kindName = address.slice(0, dot);
  const key = address.slice(dot + 1);
  const section = KINDS.find((k) => k.name === kindName)?.manifest?.section;
  return units.find((u) => (section !== undefined ? u.section === section : isMap(given[u.section]) && key in (given[u.section] as object) && isMap(m[u.section])) && (u.key === undefined || u.key === key));
}

/** Every string the brand's own text holds: the image paths it still needs. */
function ownPaths(doc: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (isMap(v)) Object.values(v).forEach(walk);
  };
  for (const [k, v] of Object.entries(doc)) if (k !== 'bases' && k !== 'overrides') walk(v);
  return out;
}

function summary(rel: string, units: Unit[], level: Map<string, number>, removed: (u: Unit) => boolean, extra: (u: Unit) => boolean): string {
  const at = (u: Unit): number => level.get(unitId(u)) ?? 0;
  const n = (f: (u: Unit) => boolean): number => units.filter(f).length;
  const replaced = units.filter((u) => at(u) === 2).map((u) => `${unitId(u)}: ${extra(u) ? 'the live entry has fields the base does not set' : 'an override did not give the live entry'}`);
  const parts = [
    `${n((u) => at(u) === 0)} of its ${units.length} resources as it gives them`,
    `${n((u) => at(u) === 1 && !removed(u))} overridden`,
    `${n((u) => at(u) === 1 && removed(u))} removed (the brand lacks them live)`,
    `${replaced.length} replaced${replaced.length > 0 ? ` (${replaced.join('; ')})` : ''}`,
  ];
  return `against the base ${rel}: ${parts.join(', ')}`;
}

function describe(ds: Diagnostic[]): string {
  return ds.map((d) => `${d.file}:${d.line}:${d.col}: ${d.code} ${d.message}`).join('; ');
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
