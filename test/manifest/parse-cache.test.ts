// The parsed-manifest cache (src/manifest/parse-cache.ts): a repeat load of
// unchanged files takes what the fast reader made of them from the cache
// directory, gives exactly what a fresh load gives, and never serves an entry
// for other bytes; only clean files are kept, and never a literal brand key.

import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import { ParseCache } from '../../src/manifest/parse-cache.js';
import type { LoadResult } from '../../src/manifest/types.js';
import { ROOT } from '../e2e/helpers.js';

let dir: string;
let cacheDir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-parse-cache-'));
  cacheDir = join(dir, 'cache');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** What a load gives, as plain data (maps as entries, file bytes as their hash). */
function view(r: LoadResult): string {
  return JSON.stringify(r, (_k, v: unknown) => (v instanceof Map ? [...v] : Buffer.isBuffer(v) ? `bytes` : v));
}

const entries = (): string[] => {
  try {
    return readdirSync(join(cacheDir, 'manifests'));
  } catch {
    return [];
  }
};

const load = (paths: string[], withCache: boolean, env: Record<string, string> = {}): Promise<LoadResult> =>
  loadManifests(paths, { env, cwd: dir, ...(withCache ? { cacheDir } : {}) });

describe('the parsed-manifest cache', () => {
  it('gives what a fresh load gives, before and after an edit, with a diagnostic pointing into a cached file', async () => {
    cpSync(join(ROOT, 'examples', 'brand'), join(dir, 'brand'), { recursive: true });
    const manifests = join(dir, 'brand');
    const first = await load([manifests], true);
    expect(view(first)).toBe(view(await load([manifests], false)));
    expect(entries()).toHaveLength(1);
    // Served from the cache now: the same result.
    expect(view(await load([manifests], true))).toBe(view(first));
    // A second file that declares an auto-reply of the first again: a diagnostic whose position is in the cached file or the new one.
    const text = readFileSync(join(manifests, 'brand.yaml'), 'utf8');
    writeFileSync(join(manifests, 'again.yaml'), text.replace(/\nchatbots:[\s\S]*$/, '\n'));
    const twice = await load([manifests], true);
    expect(twice.diagnostics.length).toBeGreaterThan(0);
    expect(view(twice)).toBe(view(await load([manifests], false)));
    // An edit: the old entry is not served.
    writeFileSync(join(manifests, 'again.yaml'), 'apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: BR.other00001 }\n');
    writeFileSync(join(manifests, 'brand.yaml'), text.replace('Hello', 'Hullo'));
    const edited = await load([manifests], true);
    expect(view(edited)).toBe(view(await load([manifests], false)));
    expect(view(edited)).toContain('Hullo');
    expect(view(await load([manifests], true))).toBe(view(edited));
  });

  it('serves an entry only for the same bytes: a planted value is served, and dropped when the file changes', async () => {
    const file = join(dir, 'm.yaml');
    const yaml = 'apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: BR.test000001 }\nautoReplies:\n  a:\n    name: A\n    messagebaseId: SCS00000\n    body: { description: "one" }\n';
    writeFileSync(file, yaml);
    await load([file], true);
    const [entry] = entries();
    const path = join(cacheDir, 'manifests', entry as string);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"one"', '"planted"'));
    expect(view(await load([file], true))).toContain('planted');
    // A damaged entry is no entry.
    writeFileSync(path, '{"reader":');
    expect(view(await load([file], true))).toBe(view(await load([file], false)));
    writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8') || '{}'), values: [1], keyOffsets: [5] }));
    expect(view(await load([file], true))).toBe(view(await load([file], false)));
    writeFileSync(file, yaml.replace('"one"', '"two"'));
    const fresh = view(await load([file], true));
    expect(fresh).toContain('two');
    expect(fresh).not.toContain('planted');
  });

  it('keeps only files that gave no diagnostic, and no literal brand key; a key from the environment stays a reference', async () => {
    const head = 'apiVersion: rcsctl/v1\nkind: Brand\n';
    const ar = 'autoReplies:\n  a:\n    name: A\n    messagebaseId: SCS00000\n    body: { description: "one" }\n';
    writeFileSync(join(dir, 'bad.yaml'), `${head}brand: { id: BR.test000001 }\n${ar}    colour: blue\n`);
    writeFileSync(join(dir, 'literal.yaml'), `${head}brand: { id: BR.test000002, key: BK.literalkey00001 }\n${ar}`);
    writeFileSync(join(dir, 'env.yaml'), `${head}brand: { id: BR.test000003, key: "\${env:THE_KEY}" }\n${ar}`);
    const r = await load([join(dir, 'bad.yaml'), join(dir, 'literal.yaml'), join(dir, 'env.yaml')], true, { THE_KEY: 'BK.fromtheenv0001' });
    expect(r.diagnostics.map((d) => d.file)).toEqual([join(dir, 'bad.yaml')].map(() => 'bad.yaml'));
    expect(entries()).toHaveLength(1);
    const kept = readFileSync(join(cacheDir, 'manifests', entries()[0] as string), 'utf8');
    expect(kept).toContain('${env:THE_KEY}');
    expect(kept).not.toContain('BK.fromtheenv0001');
    expect(kept).not.toContain('BK.literalkey00001');
  });

  it('skips the text and schema checks only for a value kept clean and free of ${...}; an interpolated one is checked on every load', async () => {
    const file = join(dir, 'm.yaml');
    writeFileSync(file, 'apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: BR.test000001 }\nautoReplies:\n  a:\n    name: A\n    messagebaseId: SCS00000\n    body: { description: "one" }\n');
    await load([file], true);
    // A value the checks would refuse, planted in the kept entry: served as it is, so the checks did not run.
    const path = join(cacheDir, 'manifests', entries()[0] as string);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"messagebaseId":"SCS00000"', '"messagebaseId":"SCS00000","colour":"blue"'));
    expect((await load([file], true)).diagnostics).toEqual([]);
    expect((await load([file], false)).diagnostics).toEqual([]);
    // The same through ${env:...}: kept, but checked each time, so a bad value from the environment is found.
    const env = join(dir, 'env.yaml');
    writeFileSync(env, 'apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: BR.test000002 }\nautoReplies:\n  a:\n    name: A\n    messagebaseId: SCS00000\n    body: { description: "${env:TEXT}" }\n');
    expect((await load([env], true, { TEXT: 'fine' })).diagnostics).toEqual([]);
    expect(entries()).toHaveLength(2);
    const bad = await load([env], true, { TEXT: 'not\u0000text' });
    expect(bad.diagnostics.map((d) => d.code)).toEqual((await load([env], false, { TEXT: 'not\u0000text' })).diagnostics.map((d) => d.code));
    expect(bad.diagnostics.length).toBeGreaterThan(0);
  });

  it("skips the checks of a base's document built for a brand only for the very value that checked clean: a changed generator row is checked again", async () => {
    cpSync(join(ROOT, 'examples', 'agency'), join(dir, 'agency'), { recursive: true });
    const manifests = join(dir, 'agency');
    const first = await load([manifests], true);
    expect(first.diagnostics).toEqual([]);
    // Two bases for each of the four brands: eight documents, kept by the hash of their values.
    const kept = JSON.parse(readFileSync(join(cacheDir, 'manifests', 'composed.json'), 'utf8')) as { keys: string[] };
    expect(kept.keys).toHaveLength(8);
    expect(view(await load([manifests], true))).toBe(view(first));
    // Only the rows file changes (it is not a manifest the cache keeps): Daegu's city now holds a NUL, which the text check refuses.
    const csv = join(manifests, 'stores', 'stores.csv');
    writeFileSync(csv, readFileSync(csv, 'utf8').replace('Daegu', 'Dae\u0000gu'));
    const fresh = await load([manifests], false);
    expect(fresh.diagnostics.map((d) => d.code)).toContain('RCS110');
    expect(view(await load([manifests], true))).toBe(view(fresh));
    // The finding's files are not clean: nothing of Daegu's is kept as checked.
    expect((JSON.parse(readFileSync(join(cacheDir, 'manifests', 'composed.json'), 'utf8')) as { keys: string[] }).keys.length).toBeLessThan(8);
  });

  it('keeps no value JSON cannot hold as it is', () => {
    const cache = new ParseCache(cacheDir);
    for (const n of [Number.POSITIVE_INFINITY, Number.NaN, -0]) cache.stage(join(dir, `${String(n)}.yaml`), 'x', [{ value: { n }, keyOffsets: new Map() }]);
    cache.stage(join(dir, 'fine.yaml'), 'x', [{ value: { n: 1.5 }, keyOffsets: new Map([['n', 0]]) }]);
    cache.save(() => true);
    expect(entries()).toHaveLength(1);
    expect(cache.get(join(dir, 'fine.yaml'), 'x')).toEqual([{ value: { n: 1.5 }, keyOffsets: new Map([['n', 0]]), checkedBefore: true }]);
    expect(cache.get(join(dir, 'fine.yaml'), 'y')).toBeUndefined();
  });
});
