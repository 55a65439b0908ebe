// The precompiled manifest validator is generated from the schema by the build
// (scripts/gen-validator.mjs); this fails when the committed file is stale.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateValidatorSource, VALIDATOR_PATH } from '../../scripts/gen-validator.mjs';

describe('the precompiled manifest validator', () => {
  it('is current with schemas/manifest.schema.json (regenerate: node scripts/gen-validator.mjs, or npm run build)', () => {
    expect(readFileSync(VALIDATOR_PATH, 'utf8')).toBe(generateValidatorSource());
  });
});
