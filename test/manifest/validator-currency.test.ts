// The precompiled manifest validator is generated from the schema by the build
// (scripts/gen-validator.mjs); this fails when the committed file is stale.
// Lengths are counted in UTF-16 code units by rcsctl's own length keywords
// (src/manifest/utf16-length.ts), in the generated validator and in the one
// compiled at run time for a kind registered then, and neither the build nor
// that compile prints ajv's notice about its deprecated `unicode` option.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateValidatorSource, VALIDATOR_PATH } from '../../scripts/gen-validator.mjs';
import { logoKind, registerKind, unregisterKind } from '../../src/kinds/index.js';
import type { AnyKind } from '../../src/kinds/resource-kind.js';
import { checkSchema } from '../../src/manifest/schema-check.js';
import { parseManifestText } from '../../src/manifest/read-yaml.js';
import { ROOT } from '../e2e/helpers.js';

afterEach(() => {
  unregisterKind('widget');
  vi.restoreAllMocks();
});

describe('the precompiled manifest validator', () => {
  it('is current with schemas/manifest.schema.json (regenerate: node scripts/gen-validator.mjs, or npm run build)', async () => {
    expect(readFileSync(VALIDATOR_PATH, 'utf8')).toBe(await generateValidatorSource());
  });

  it('is generated without a word on stderr (ajv once announced its deprecated unicode option on every build)', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'gen-validator.mjs')], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('');
  });
});

describe('the validator compiled at run time', () => {
  it('counts an emoji as 2, as the precompiled one does, and warns of nothing', () => {
    const warn = vi.spyOn(console, 'warn');
    // A kind registered at run time makes checkSchema compile the schema itself.
    registerKind({ ...logoKind, name: 'widget', prune: undefined, read: { ...logoKind.read, section: 'widgets' }, manifest: { ...logoKind.manifest, section: 'widgets', order: 99, schema: { property: { type: 'object' }, definitions: {} } } } as unknown as AnyKind);
    // 51 emoji: 51 code points, 102 UTF-16 code units, over the 100 a logo's description may hold.
    const text = '😀'.repeat(51);
    const yaml = `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: BR.demo000001 }\nlogos:\n  main: { name: Logo, description: "${text}", path: logo.png }\n`;
    const [doc] = parseManifestText(yaml, join(ROOT, 'brand.yaml'), 'brand.yaml').docs;
    const diags = checkSchema(doc!);
    expect(diags.map((d) => d.message)).toContainEqual(expect.stringContaining('is 102 characters long'));
    expect(warn).not.toHaveBeenCalled();
  });
});
