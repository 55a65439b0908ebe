// The manifest docs stay true: every diagnostic code is documented, and the
// generated reference matches the schema it is generated from.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderManifestDocs } from '../../scripts/gen-manifest-docs.js';
import { DIAGNOSTIC_CODES, manifestSchema } from '../../src/manifest/index.js';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

describe('docs', () => {
  it('docs/diagnostics.md lists exactly the codes of src/manifest/codes.ts, with their severity', () => {
    const text = readFileSync(join(ROOT, 'docs', 'diagnostics.md'), 'utf8');
    const documented = [...text.matchAll(/^### (RCS\d{3}): .* \((error|warning|note)\)$/gm)].map((m) => `${m[1]} ${m[2]}`);
    const table = Object.entries(DIAGNOSTIC_CODES).map(([code, { severity }]) => `${code} ${severity}`);
    expect(documented.sort()).toEqual(table.sort());
  });

  it("every example the reference shows is valid for its definition (media's id form among them)", async () => {
    const schema = manifestSchema() as { definitions: Record<string, { examples?: unknown[] }> };
    const { Ajv } = await import('ajv');
    const formats = (await import('ajv-formats')).default as unknown as (a: InstanceType<typeof Ajv>) => void;
    const ajv = new Ajv({ strict: false });
    formats(ajv);
    const examples = Object.entries(schema.definitions).flatMap(([name, def]) => (def.examples ?? []).map((e) => [name, e] as const));
    expect(examples).toContainEqual(['media', 'ARF000000000001']);
    for (const [name, example] of examples) {
      const check = ajv.compile({ definitions: schema.definitions, $ref: `#/definitions/${name}` });
      expect(check(example), `${name}: ${JSON.stringify(example)} ${ajv.errorsText(check.errors)}`).toBe(true);
    }
    expect(readFileSync(join(ROOT, 'docs', 'manifest.md'), 'utf8')).toContain('```yaml\nmedia: { file: hero }\nmedia: ARF000000000001\n```');
  });

  it('docs/manifest.md is current (regenerate: npm run build && node dist/scripts/gen-manifest-docs.js)', () => {
    const committed = readFileSync(join(ROOT, 'docs', 'manifest.md'), 'utf8');
    expect(committed).toBe(renderManifestDocs(manifestSchema()));
  });
});
