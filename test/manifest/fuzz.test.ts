// Property tests: whatever bytes sit in a manifest, the loader returns
// diagnostics and never throws. Mutations of the example reach deep into the
// schema, file and reference stages; random YAML and random text reach the parser.

import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, loadManifests, renderDiagnostics, type LoadResult } from '../../src/manifest/index.js';

const EXAMPLE = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'examples', 'brand');
let dir: string;
let example: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rcsctl-fuzz-'));
  await cp(EXAMPLE, dir, { recursive: true });
  example = await readFile(join(dir, 'brand.yaml'), 'utf8');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function loadText(text: string): Promise<LoadResult> {
  await writeFile(join(dir, 'brand.yaml'), text);
  return loadManifests(['brand.yaml'], { env: { BRAND_KEY: 'k' }, cwd: dir });
}

function wellFormed(r: LoadResult, text: string): void {
  const lineCount = text.split('\n').length;
  for (const d of r.diagnostics) {
    expect(Object.keys(DIAGNOSTIC_CODES)).toContain(d.code);
    expect(['error', 'warning']).toContain(d.severity);
    // A diagnostic about the file as a whole (empty, no brand) has no position: 0:0.
    if (d.line === 0) expect([d.col, d.path]).toEqual([0, '']);
    else {
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.line).toBeLessThanOrEqual(lineCount + 1);
      expect(d.col).toBeGreaterThanOrEqual(1);
    }
    expect(typeof d.message).toBe('string');
  }
  if (!r.diagnostics.some((d) => d.severity === 'error')) expect(r.brands.length).toBeLessThanOrEqual(1);
  // Rendering must cope with whatever the loader found.
  expect(typeof renderDiagnostics(r.diagnostics, { color: true, cwd: dir })).toBe('string');
}

/** One edit of the example's lines: delete, duplicate, swap, splice characters, re-indent. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), with: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), col: fc.nat(), text: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant('yamlish' as const), at: fc.nat(), col: fc.nat(), text: fc.constantFrom(': ', '- ', '&a ', '*a', '!tag ', '{', ']', '"', "'", '#', '|', '>', '---\n', '${env:NOPE}', '0212345678', '..', 'menu', '\t') }),
  fc.record({ kind: fc.constant('indent' as const), at: fc.nat(), by: fc.integer({ min: -4, max: 4 }) }),
);

type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(text: string, edits: Mutation[]): string {
  const lines = text.split('\n');
  for (const e of edits) {
    if (lines.length === 0) break;
    const i = e.at % lines.length;
    const line = lines[i] ?? '';
    switch (e.kind) {
      case 'delete':
        lines.splice(i, 1);
        break;
      case 'duplicate':
        lines.splice(i, 0, line);
        break;
      case 'swap': {
        const j = e.with % lines.length;
        lines[i] = lines[j] ?? '';
        lines[j] = line;
        break;
      }
      case 'insert':
      case 'yamlish': {
        const c = e.col % (line.length + 1);
        lines[i] = line.slice(0, c) + e.text + line.slice(c);
        break;
      }
      case 'indent':
        lines[i] = e.by >= 0 ? ' '.repeat(e.by) + line : line.replace(new RegExp(`^ {0,${-e.by}}`), '');
        break;
      default: {
        const never: never = e;
        throw new Error(`unhandled mutation ${JSON.stringify(never)}`);
      }
    }
  }
  return lines.join('\n');
}

describe('the loader never throws', () => {
  it('loads the unmutated example clean (the baseline the mutations start from)', async () => {
    const r = await loadText(example);
    expect(r.diagnostics).toEqual([]);
  });

  it('on mutations of the example', async () => {
    let sawErrors = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (edits) => {
        const text = mutate(example, edits);
        const r = await loadText(text);
        wellFormed(r, text);
        if (r.diagnostics.length > 0) sawErrors++;
      }),
      { numRuns: 300 },
    );
    // The mutations must actually reach the diagnostics, or the property proves little.
    expect(sawErrors).toBeGreaterThan(100);
  }, 60_000);

  it('on random YAML values', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
        const text = stringify(value);
        wellFormed(await loadText(text), text);
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('on manifest-shaped random documents', async () => {
    const scalar = fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.boolean(), fc.constant(null), fc.constantFrom('images/hero.png', '../x', 'hours', 'SCS00000', 'reply', 'menu'));
    const leaf = fc.dictionary(fc.constantFrom('name', 'messagebaseId', 'body', 'path', 'title', 'type', 'autoReply', 'file', 'media', 'description', 'buttons', 'chipList', 'persistentMenu', 'rcsReply', 'display', 'action', 'reply'), fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })), { maxKeys: 5 });
    const section = fc.dictionary(fc.constantFrom('hours', 'hero', 'main', '0212345678', 'BR.test000001.x'), leaf, { maxKeys: 3 });
    const doc = fc.record(
      {
        apiVersion: fc.constantFrom('rcsctl/v1', 'v2'),
        kind: fc.constant('Brand'),
        brand: fc.record({ id: fc.constantFrom('BR.test000001', 'BR.x') }),
        files: section,
        autoReplies: section,
        logos: section,
        chatbots: section,
        agencyFiles: section,
      },
      { requiredKeys: ['apiVersion', 'kind', 'brand'] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(doc, { minLength: 1, maxLength: 3 }), async (docs) => {
        const text = docs.map((d) => stringify(d)).join('---\n');
        wellFormed(await loadText(text), text);
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('on random text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200, unit: 'binary' }), async (text) => {
        wellFormed(await loadText(text), text);
      }),
      { numRuns: 200 },
    );
  }, 60_000);
});
