// Nothing hostile reaches a terminal or the service: escape sequences from a
// manifest or from the service are printed escaped, a binary file gives one
// diagnostic, and validate and apply reach the same verdict on every input.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, BRAND, cli, emulator } from './helpers.js';

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await emulator();
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-hostile-'));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J\u001b[H';

function write(name: string, text: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** No control character but tab and newline, and no escape sequence at all (colour is off when not a terminal). */
function expectClean(text: string): void {
  // eslint-disable-next-line no-control-regex
  expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
}

describe('escape sequences are printed escaped', () => {
  it('in a plan: names and values from the manifest', async () => {
    const m = write('evil-plan.yaml', `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${BRAND} }\nautoReplies:\n  evil:\n    name: "Evil ${TITLE.replace('\u001b', '\\e').replace('\u0007', '\\a')}"\n    messagebaseId: SCS00000\n    body: { description: "Hi ${CLEAR.replace(/\u001b/g, '\\e')} \\u202e there" }\n`);
    const plan = await cli(['plan', m], { emu });
    expect(plan.code).toBe(0);
    expectClean(plan.stdout + plan.stderr);
    expect(plan.stdout).toContain('\\x1b]0;pwned\\x07');
  });

  it('in diagnostics: a hostile key in the message and the source excerpt', async () => {
    const m = write('evil-key.yaml', `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${BRAND} }\n"x${CLEAR}": 1\n`);
    const r = await cli(['validate', m]);
    expect(r.code).toBe(1);
    expectClean(r.stdout + r.stderr);
    expect(r.stderr).toContain('unknown key "x\\x1b[2J\\x1b[H"');
  });

  it('in a plan: names the service sends back', async () => {
    const m = write('fine.yaml', `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${BRAND} }\nautoReplies:\n  a:\n    name: A\n    messagebaseId: SCS00000\n    body: { description: x }\n`);
    expect((await cli(['apply', m, '--yes'], { emu })).code).toBe(0);
    // Someone named an auto-reply with escape sequences in the console.
    const brand = emu.store.brands.get(BRAND);
    const stored = [...(brand?.autoReplies.values() ?? [])][0];
    if (brand === undefined || stored === undefined) throw new Error('no auto-reply');
    brand.autoReplies.set('ARM777777777777', { ...structuredClone(stored), autoReplyMsgId: 'ARM777777777777', autoReplyMsgName: `Other ${TITLE}${CLEAR}` });
    const r = await cli(['plan', m], { emu });
    expect(r.code).toBe(0);
    expectClean(r.stdout + r.stderr);
    expect(r.stdout).toContain('"Other \\x1b]0;pwned\\x07\\x1b[2J\\x1b[H"');
    await admin(emu, 'POST', 'reset');
  });

  it('a 200 KB binary file gives one short diagnostic, not hundreds of KB', async () => {
    const m = write('binary.yaml', Buffer.concat([Buffer.from('apiVersion: rcsctl/v1\n'), randomBytes(200 * 1024)]));
    const r = await cli(['validate', m]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/binary\.yaml:\d+:\d+: error RCS1(09|10):/);
    expect(r.stderr.length).toBeLessThan(1024);
    expectClean(r.stderr);
  });

  it('a long line is excerpted around the column, and only the first 20 diagnostics get an excerpt', async () => {
    const keys = Array.from({ length: 30 }, (_, i) => `${'k'.repeat(300)}${i}: 1`).join('\n');
    const m = write('wide.yaml', `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${BRAND} }\n${keys}\n`);
    const r = await cli(['validate', m]);
    const excerpts = r.stderr.split('\n').filter((l) => /^\s+\d+ \| /.test(l));
    expect(excerpts).toHaveLength(20);
    for (const l of excerpts) expect(l.length).toBeLessThan(120);
  });
});

describe('validate and apply reach the same verdict', () => {
  const cases: [string, string, string][] = [
    ['empty file', 'empty.yaml', ''],
    ['comments only', 'comments.yaml', '# nothing here\n'],
    ['deep nesting', 'deep.yaml', `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${BRAND} }\nautoReplies: ${'['.repeat(5000)}${']'.repeat(5000)}\n`],
  ];
  it.each(cases)('%s: both refuse, and apply sends nothing', async (_label, file, text) => {
    const m = write(file, text);
    await admin(emu, 'DELETE', 'requests');
    const v = await cli(['validate', m]);
    const a = await cli(['apply', m, '--yes'], { emu });
    expect(v.code).toBe(1);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain('nothing was sent');
    expect(((await admin(emu, 'GET', 'requests')) as { requests: unknown[] }).requests).toEqual([]);
  });
});
