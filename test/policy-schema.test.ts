// The policy file's schema (schemas/policy.schema.json) against the shipped
// example and against what rcsctl's reader refuses: an editor that checks a
// rule file with the schema agrees with validate.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ROOT } from './e2e/helpers.js';

const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'policy.schema.json'), 'utf8')) as object;
const check = new Ajv({ allErrors: true, strict: true, strictRequired: false }).compile(schema);

describe('schemas/policy.schema.json', () => {
  it('accepts the shipped example rules', () => {
    const doc = parse(readFileSync(join(ROOT, 'examples', 'policies', 'agency.yaml'), 'utf8')) as unknown;
    expect(check(doc), JSON.stringify(check.errors)).toBe(true);
  });

  it('refuses what the reader refuses: unknown keys, no check, a bad severity or check, an exception without its reason', () => {
    const base = { apiVersion: 'rcsctl/v1', kind: 'Policy' };
    const rule = { name: 'r', check: 'brand', expression: 'true', message: 'm' };
    expect(check({ ...base, rules: [rule] })).toBe(true);
    for (const bad of [{ ...rule, chekc: 'x' }, { name: 'r', expression: 'true', message: 'm' }, { ...rule, severity: 'fatal' }, { ...rule, check: 'file' }, { ...rule, exceptions: [{ brand: 'BR.demo000001' }] }, { name: 'r', check: 'brand', expression: 'true' }, { ...rule, name: 'Bad Name' }]) {
      expect(check({ ...base, rules: [bad] }), JSON.stringify(bad)).toBe(false);
    }
  });
});
