// validate (offline) and plan/apply (online) reach the same verdict on an
// auto-reply's messagebaseId: both pass a common messagebase rcsctl knows, both
// refuse any other id, even one this service lists that rcsctl does not know
// (its body fields and the id it is stored under are unknown; docs/decisions.md).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator, Seed } from '../../src/emulator/index.js';
import { admin, BRAND, cli, emulator, ROOT } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rcsctl-verdict-mb-'));
let emu: RunningEmulator;
beforeAll(async () => {
  // The example seed, plus a common messagebase of the service's that rcsctl does not know.
  const seed = parse(readFileSync(join(ROOT, 'examples', 'emulator-seed.yaml'), 'utf8')) as Seed;
  seed.messagebases = [...(seed.messagebases ?? []), { messagebaseId: 'SCX00001', tmpltName: 'A newer bubble', messagebaseformId: 'SX000001', productCode: 'chat', type: 'SCL', typeName: '말풍선', bodyFields: ['description'], mediaFields: [] }];
  emu = await emulator(seed);
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

function manifest(id: string): string {
  const path = join(dir, `${id}.yaml`);
  writeFileSync(path, `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${BRAND} }\nautoReplies:\n  a:\n    name: Verdict ${id}\n    messagebaseId: ${id}\n    body: { description: x }\n`);
  return path;
}

describe('validate and plan agree on a messagebaseId', () => {
  const cases: [string, string, 'pass' | 'fail'][] = [
    ['a common messagebase rcsctl knows', 'SCS00000', 'pass'],
    ['one the service stores under another id (long bubble)', 'SCL00000', 'pass'],
    ['a slider', 'CCwMhM0300', 'pass'],
    ['a typo of a known one', 'SCS0000', 'fail'],
    ['an id nobody lists', 'SCX99999', 'fail'],
    ['an id this service lists that rcsctl does not know', 'SCX00001', 'fail'],
  ];
  it.each(cases)('%s (%s): both %s', async (_label, id, verdict) => {
    const m = manifest(id);
    const v = await cli(['validate', m], { cwd: dir });
    const p = await cli(['plan', m], { emu, cwd: dir });
    expect({ validate: v.code, plan: p.code }, v.stderr + p.stdout + p.stderr).toEqual(verdict === 'pass' ? { validate: 0, plan: 0 } : { validate: 1, plan: 1 });
    if (verdict === 'fail') {
      expect(v.stderr).toContain(`error RCS502: "${id}" is not a common messagebase an auto-reply can use`);
      expect(p.stdout).toContain('RCS502');
      // apply refuses it too, and sends nothing.
      await admin(emu, 'DELETE', 'requests');
      const a = await cli(['apply', m, '--yes'], { emu, cwd: dir });
      expect(a.code).toBe(1);
      const sent = ((await admin(emu, 'GET', 'requests')) as { requests: { method: string }[] }).requests.filter((q) => q.method !== 'GET');
      expect(sent).toEqual([]);
    }
  });
});
