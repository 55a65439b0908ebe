// The manifest stage: paths in, DesiredBrand objects and diagnostics out
// . Reading, interpolation, schema, files, references and
// lint run in that order, in one pass: a document with errors is still built
// and checked without the nodes they are in (without-invalid.ts). Nothing here
// throws for bad input.

import { isAbsolute, relative, resolve, sep } from 'node:path';
import { oncePerBase } from './base-diagnostics.js';
import { compose, kindOf } from './compose.js';
import { readPolicies, type PolicyRule } from './policy.js';
import { manifestFilesUnder } from './files-under.js';
import { addDocument, type BrandDraft } from './build-brand.js';
import { DIAGNOSTIC_CODES, isLiveChecked } from './codes.js';
import { interpolateDoc } from './interpolate.js';
import { lintBrand } from './lint.js';
import { FileReader } from './local-files.js';
import { ownerByTree, type FoundFile } from './owners.js';
import { ParseCache } from './parse-cache.js';
import { readManifestFile } from './read-yaml.js';
import { sortDiagnostics } from './render-diagnostics.js';
import { builtInSchema, checkSchema, entrySections, loadSchemaValidator, schemaFaults } from './schema-check.js';
import { checkValues } from './text-checks.js';
import { checkCredentials, isSensitiveName, MIN_SECRET_LENGTH, sensitivePatterns, type Credential } from './sensitive.js';
import type { SourceDoc } from './source.js';
import type { Diagnostic, LoadResult } from './types.js';
import { echoesRemoval, withoutInvalid } from './without-invalid.js';
import { Redaction } from '../util/redaction.js';

/** Options of a load: the environment for `${env:NAME}` and the directory paths are relative to. */
export interface LoadOptions {
  env: Record<string, string | undefined>;
  cwd: string;
  /** Credentials in play (token, client secret, token file, brand keys from the environment): refused in manifest content. */
  credentials?: Credential[];
  /** The cache directory: unchanged manifests are read from what the fast YAML reader made of them last time (parse-cache.ts). */
  cacheDir?: string;
  /**
   * Keep the notes a read of the live service settles (`liveChecked` codes,
   * such as RCS514): `validate` asks for them; the commands that read the
   * service say what it settles themselves, with file and line.
   */
  liveChecked?: boolean;
  /** The folder `path:` files must stay in (--root, RCSCTL_ROOT), absolute; else the repository above each manifest. */
  root?: string;
  /** Keep each brand's documents as composed and interpolated (`rcsctl render`): LoadResult.docs. */
  keepDocs?: boolean;
}

/** A load's result, with each brand's documents when `keepDocs` asked for them. */
export interface LoadedManifests extends LoadResult {
  /** With `keepDocs`: each brand's documents, composed and interpolated, in load order (`rcsctl render`, policies). */
  docs?: Map<string, SourceDoc[]>;
  /** The rules of the `kind: Policy` documents among the paths (docs/policies.md); the ones with errors left out (their diagnostics say why). */
  policies: PolicyRule[];
}

/** Load every manifest under `paths` (files, or directories read recursively). */
// long: one pass (find, read, build the brands, then ownership, credentials and the cache) over drafts and diagnostics it keeps together; each step is a helper it calls.
export async function loadManifests(paths: string[], opts: LoadOptions): Promise<LoadedManifests> {
  const diagnostics: Diagnostic[] = [];
  const files: FoundFile[] = [];
  for (const p of paths) {
    const abs = isAbsolute(p) ? p : resolve(opts.cwd, p);
    const shown = displayName(abs, opts.cwd);
    const found = await manifestFilesUnder(abs);
    if (found === 'missing') diagnostics.push(topLevel('RCS100', shown, `no such file or directory: ${p}`));
    else if (found.length === 0) diagnostics.push(topLevel('RCS108', shown, `no *.yaml or *.yml manifest under ${p}`));
    for (const f of found === 'missing' ? [] : found) {
      if (!files.some((x) => x.abs === f)) files.push({ abs: f, shown: displayName(f, opts.cwd), root: abs });
    }
  }

  const drafts = new Map<string, BrandDraft>();
  const brokenBrands = new Set<string>();
  /** Brands with a document or file left out whole (unreadable, no brand id, or wrong as a whole): their handles are unknown. */
  const unread = new Set<string>();
  /** Brands with at least one document free of errors: the brands returned, as before one-pass checking. */
  const clean = new Set<string>();
  const entries = new Set(entrySections());
  const skipped: LoadResult['skipped'] = [];
  const reader = new FileReader(opts.root);
  const fromEnv = new Set<string>();
  const envNames = new Map<string, string>();
  const patterns = sensitivePatterns(opts.env);
  /** Values of sensitive variables seen so far, longest first (a file's upload name never holds one). */
  const sensitiveValues: string[] = [];
  const allDocs: SourceDoc[] = [];
  const cache = opts.cacheDir !== undefined ? new ParseCache(opts.cacheDir) : undefined;
  /** By file: the nodes taken out of resources that were kept and checked (without-invalid.ts); a finding there only echoes the removal. */
  const prunedIn = new Map<string, string[]>();
  /** By file: a finding's pointer into a value whose lists lost items, as written. */
  const writtenIn = new Map<string, (pointer: string) => string>();
  const asWritten = (d: Diagnostic): Diagnostic => {
    const path = writtenIn.get(d.file)?.(d.path) ?? d.path;
    return path === d.path ? d : { ...d, path };
  };
  const echo = (d: Diagnostic): boolean => echoesRemoval(d.path, prunedIn.get(d.file) ?? []);
  const readDocs: SourceDoc[] = [];
  const kept = new Map<string, SourceDoc[]>();
  for (const f of files) {
    const read = await readManifestFile(f.abs, f.shown, cache);
    diagnostics.push(...read.diagnostics);
    // A document lost to a YAML error names its brand, but not the handles it declares: that brand's links to them are not checked.
    for (const id of read.declared ?? []) {
      brokenBrands.add(id);
      unread.add(id);
      skipped.push({ brandId: id, file: f.shown, by: 'document' });
    }
    if (read.docs.length === 0 && read.diagnostics.length === 0) {
      diagnostics.push(topLevel('RCS113', f.shown, 'the file holds no YAML document (it is empty, or only comments); it declares nothing'));
    }
    readDocs.push(...read.docs);
  }
  // Policy documents hold rules, not a brand: read apart (policy.ts), never built.
  const policy = readPolicies(readDocs.filter((d) => kindOf(d) === 'Policy'));
  diagnostics.push(...policy.diagnostics);
  // Bases, overrides and generated brands become Brand documents, once, before any section is built (compose.ts).
  const composed = await compose(readDocs.filter((d) => kindOf(d) !== 'Policy'), { cwd: opts.cwd, ...(cache !== undefined ? { cache } : {}) });
  diagnostics.push(...composed.diagnostics);
  {
    for (const src of composed.docs) {
      if (opts.keepDocs === true) {
        const brandId = (src.value as { brand?: { id?: unknown } } | null)?.brand?.id;
        if (typeof brandId === 'string') kept.set(brandId, [...(kept.get(brandId) ?? []), src]);
      }
      // A composed document has no bytes of its own: the cache knows its value's hash (parse-cache.ts).
      const composedKey = src.composed !== undefined ? cache?.composedKey(src.value) : undefined;
      if (composedKey !== undefined && cache?.composedClean(composedKey) === true) src.checkedBefore = true;
      const interpolated = interpolateDoc(src, opts.env, fromEnv, envNames);
      for (const [name, value] of envNames) {
        if (value.length >= MIN_SECRET_LENGTH && isSensitiveName(name, patterns) && !sensitiveValues.includes(value)) sensitiveValues.push(value);
      }
      sensitiveValues.sort((a, b) => b.length - a.length);
      allDocs.push(src);
      // A value the parse cache vouches for (SourceDoc.checkedBefore) passed both checks as it is.
      const checked = src.checkedBefore === true && builtInSchema();
      const text = checked ? [] : checkValues(src);
      // A NUL or a lone surrogate is not text: the schema would only repeat it.
      const schema = checked || text.some((d) => d.severity === 'error') ? [] : (await loadSchemaValidator(), checkSchema(src));
      const found = [...interpolated, ...text, ...schema];
      if (composedKey !== undefined && src.composed !== undefined) cache?.stageComposed(composedKey, [...src.composed.inputs]);
      diagnostics.push(...found);
      const errors = found.filter((d) => d.severity === 'error');
      const id = (src.value as { brand?: { id?: unknown } } | null)?.brand?.id;
      if (errors.length === 0) {
        clean.add(id as string);
        diagnostics.push(...(await addDocument(drafts, src, reader, sensitiveValues)));
        continue;
      }
      if (typeof id === 'string') {
        brokenBrands.add(id);
        skipped.push({ brandId: id, file: src.file, by: 'document' });
      }
      // The rest of the document is still checked: files, references, lint; a resource with errors keeps the fields the schema passes.
      await loadSchemaValidator();
      const rest = withoutInvalid(src, errors, entries, schemaFaults);
      if (rest === undefined) {
        if (typeof id === 'string') unread.add(id);
        continue;
      }
      if (rest.pruned.length > 0) {
        prunedIn.set(src.file, [...(prunedIn.get(src.file) ?? []), ...rest.pruned]);
        writtenIn.set(src.file, rest.original);
      }
      diagnostics.push(...(await addDocument(drafts, rest.src, reader, sensitiveValues, rest.left)).map(asWritten).filter((d) => !echo(d)));
    }
  }

  // A file with errors that names no brand is the brand's whose tree it is in.
  const owned = new Map<string, Set<string>>();
  const absOf = new Map(files.map((f) => [f.shown, f.abs]));
  for (const [id, f] of [...[...drafts.values()].flatMap((d) => d.brand.manifestFiles.map((m) => [d.brand.brandId, m] as const)), ...skipped.map((k) => [k.brandId, k.file] as const)]) {
    const abs = absOf.get(f) ?? f;
    owned.set(abs, (owned.get(abs) ?? new Set()).add(id));
  }
  const withErrors = new Set(diagnostics.filter((d) => d.severity === 'error').map((d) => d.file));
  for (const f of files) {
    if (!withErrors.has(f.shown) || owned.has(f.abs)) continue;
    const owner = ownerByTree(f, owned);
    if (owner === undefined) continue;
    brokenBrands.add(owner.brandId);
    unread.add(owner.brandId);
    skipped.push({ brandId: owner.brandId, file: f.shown, by: owner.by });
  }

  for (const [brandId, draft] of drafts) {
    let found = lintBrand(draft, [...drafts.values()]);
    // A handle may live in a document that was left out whole; do not call it missing.
    if (unread.has(brandId)) found = found.filter((d) => d.code !== 'RCS401' && d.code !== 'RCS402' && d.code !== 'RCS510');
    // A resource left out for its errors may be what uses a file: "never used" cannot be told.
    if (brokenBrands.has(brandId)) found = found.filter((d) => d.code !== 'RCS507');
    diagnostics.push(...found.map(asWritten).filter((d) => !echo(d)));
  }
  // A credential's value anywhere in manifest content is refused (a brand key only where it belongs).
  const brandKeys = allDocs.flatMap((src) => {
    const b = (src.value as { brand?: { id?: unknown; key?: unknown } } | null)?.brand;
    return typeof b?.key === 'string' ? [{ label: `the brand key of ${typeof b.id === 'string' ? b.id : 'a brand'}`, value: b.key }] : [];
  });
  diagnostics.push(...checkCredentials(allDocs, [...(opts.credentials ?? []), ...brandKeys]));
  const sensitive = [...envNames].filter(([name]) => isSensitiveName(name, patterns)).map(([name, value]) => ({ name, value }));
  // validate and apply reach one verdict: manifests that declare no brand are an error for both.
  if (drafts.size === 0 && brokenBrands.size === 0 && !diagnostics.some((d) => d.severity === 'error') && files.length > 0 && policy.rules.length === 0) {
    diagnostics.push(topLevel('RCS114', files[0]?.shown ?? '', 'the manifests declare no brand: nothing to validate, plan or apply'));
  }
  if (cache !== undefined) {
    // Only files that gave no diagnostic at all are kept (a live-checked note is lint's, made again on every load).
    const noisy = new Set(diagnostics.filter((d) => !isLiveChecked(d.code)).map((d) => d.file));
    const shown = new Map(files.map((f) => [f.abs, f.shown]));
    const secrets = new Redaction();
    secrets.add([...sensitive, ...[...(opts.credentials ?? []), ...brandKeys].map((c) => ({ name: c.label, value: c.value }))]);
    cache.save((abs) => !noisy.has(shown.get(abs) ?? abs), (text) => secrets.holds(text), (file) => !noisy.has(file));
  }
  const envValues = new Redaction();
  envValues.add([...fromEnv].map((value) => ({ name: 'a value from the environment', value })));
  return { brands: [...drafts.values()].filter((d) => clean.has(d.brand.brandId)).map((d) => d.brand), diagnostics: sortDiagnostics(oncePerBase(diagnostics).filter((d) => opts.liveChecked === true || !isLiveChecked(d.code)).map((d) => scrub(d, envValues))), files: [...files.map((f) => f.shown), ...composed.baseFiles.filter((b) => !files.some((f) => f.shown === b))], skipped, sensitive, policies: policy.rules, ...(opts.keepDocs === true ? { docs: kept } : {}) };
}

// Messages quote handles and names, and any of them may come from `${env:...}`
// (a brand key, in the worst case): values from the environment never reach a message.
function scrub(d: Diagnostic, envValues: Redaction): Diagnostic {
  const message = envValues.text(d.message);
  return message === d.message ? d : { ...d, message };
}

// A path given on the command line has no line to point at: line and column 0.
function topLevel(code: 'RCS100' | 'RCS108' | 'RCS113' | 'RCS114', file: string, message: string): Diagnostic {
  return { code, severity: DIAGNOSTIC_CODES[code].severity, file, line: 0, col: 0, path: '', message };
}

function displayName(abs: string, cwd: string): string {
  const rel = relative(cwd, abs);
  return rel === '' || rel.startsWith('..' + sep) || rel === '..' || isAbsolute(rel) ? abs : rel;
}

export { manifestFilesUnder } from './files-under.js';
