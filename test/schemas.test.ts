// The schema files follow the kind registry: the manifest schema is assembled
// from the kinds' fragments, and the plan and drift report schemas list the
// kinds and finding codes the kinds declare.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderSchemas } from '../scripts/gen-schemas.js';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');

describe('schemas/', () => {
  for (const [path, text] of Object.entries(renderSchemas())) {
    it(`${path} is current (regenerate: npm run build && node dist/scripts/gen-schemas.js)`, () => {
      expect(readFileSync(join(ROOT, path), 'utf8')).toBe(text);
    });
  }
});
