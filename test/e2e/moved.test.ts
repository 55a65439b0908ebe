// `moved:` end to end: validate refuses wrong declarations with file, line and
// column; apply of a declared rename keeps the live id and the links to it; the
// rename suggestion shows in the text, Markdown and JSON plans.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, BRAND, cli, emulator } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rcsctl-moved-'));
let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator();
});
afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

const HEAD = `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${BRAND} }\n`;
const replies = (oldName: string, handle: string): string =>
  [
    'autoReplies:',
    `  ${handle}:`,
    `    name: ${oldName}`,
    '    messagebaseId: SCS00000',
    '    body: { description: "Mon-Fri 9-18" }',
    '  menu:',
    '    name: Menu for moves',
    '    messagebaseId: SCS00000',
    '    body: { description: "Pick one" }',
    `    chipList: [{ reply: { displayText: Hours, autoReply: ${handle} } }]`,
    '',
  ].join('\n');

/** Every auto-reply in the emulator's store (objects with an autoReplyMsgId). */
async function liveReplies(): Promise<{ autoReplyMsgId: string; autoReplyMsgName: string }[]> {
  const out: { autoReplyMsgId: string; autoReplyMsgName: string }[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.autoReplyMsgId === 'string' && typeof o.autoReplyMsgName === 'string') out.push(o as never);
      else Object.values(o).forEach(walk);
    }
  };
  walk(await admin(emu, 'GET', 'store'));
  return out;
}

describe('moved declarations', () => {
  it('refuses a move to nothing, twice, chained, cyclic, from a declared handle or of no kind, at file:line:col', async () => {
    writeFileSync(
      join(dir, 'bad.yaml'),
      HEAD +
        [
          'moved:',
          '  - { from: autoReply.ARM1, to: autoReply.nowhere }',
          '  - { from: autoReply.ARM2, to: autoReply.hours }',
          '  - { from: autoReply.ARM2, to: autoReply.menu }',
          '  - { from: autoReply.a, to: autoReply.b }',
          '  - { from: autoReply.b, to: autoReply.a }',
          '  - { from: autoReply.menu, to: autoReply.hours2 }',
          '  - { from: gadget.x, to: autoReply.hours }',
          '  - { from: autoReply.ARM3, to: logo.hours }',
          'autoReplies:',
          '  hours: { name: Hours, messagebaseId: SCS00000, body: { description: "x" } }',
          '  hours2: { name: Hours2, messagebaseId: SCS00000, body: { description: "x" } }',
          '  menu: { name: Menu, messagebaseId: SCS00000, body: { description: "x" } }',
          '',
        ].join('\n'),
    );
    const run = await cli(['validate', 'bad.yaml', '--format', 'json'], { cwd: dir });
    expect(run.code).toBe(1);
    const found = (JSON.parse(run.stdout) as { diagnostics: { code: string; file: string; line: number; col: number }[] }).diagnostics
      .filter((d) => /^RCS54[0-4]$/.test(d.code))
      .map((d) => `${d.code} ${d.file}:${d.line}:${d.col}`);
    expect(found.sort()).toEqual(
      [
        'RCS541 bad.yaml:5:29', // to nowhere
        'RCS542 bad.yaml:7:7', // ARM2 moved twice
        'RCS543 bad.yaml:8:26', // a → b → a
        'RCS543 bad.yaml:9:26',
        'RCS544 bad.yaml:10:7', // menu is still declared
        'RCS540 bad.yaml:11:7', // gadget is no kind
        'RCS540 bad.yaml:12:29', // autoReply to logo
      ].sort(),
    );
  });

  it('applies a declared rename as an update: the live id and the link to it are kept, and a re-plan is empty', async () => {
    writeFileSync(join(dir, 'm.yaml'), HEAD + replies('Hours for moves', 'hours'));
    expect((await cli(['apply', 'm.yaml', '--yes'], { cwd: dir, emu })).code).toBe(0);
    const oldId = (await liveReplies()).find((a) => a.autoReplyMsgName === 'Hours for moves')!.autoReplyMsgId;

    // Renamed without a move: the plan suggests the declaration (text, Markdown, JSON).
    writeFileSync(join(dir, 'm.yaml'), HEAD + 'prune: [autoReplies]\n' + replies('Opening times for moves', 'opening'));
    const text = await cli(['plan', 'm.yaml'], { cwd: dir, emu });
    expect(text.stdout).toContain(`- { from: autoReply.${oldId}, to: autoReply.opening }  # "Hours for moves" → "Opening times for moves"`);
    const md = await cli(['plan', 'm.yaml', '--format', 'markdown'], { cwd: dir, emu });
    expect(md.stdout).toContain('**Looks like a rename:**');
    expect(md.stdout).toContain(`  - { from: autoReply.${oldId}, to: autoReply.opening }`);
    const json = JSON.parse((await cli(['plan', 'm.yaml', '--format', 'json'], { cwd: dir, emu })).stdout) as { brands: { renames?: unknown }[] };
    expect(json.brands[0]!.renames).toEqual([{ from: `autoReply.${oldId}`, to: 'autoReply.opening', fromName: 'Hours for moves', toName: 'Opening times for moves' }]);

    // With the move: one update, the id kept.
    writeFileSync(join(dir, 'm.yaml'), HEAD + `prune: [autoReplies]\nmoved:\n  - { from: autoReply.${oldId}, to: autoReply.opening }\n` + replies('Opening times for moves', 'opening'));
    const plan = await cli(['plan', 'm.yaml'], { cwd: dir, emu });
    expect(plan.stdout).toContain(`moved from autoReply.${oldId}`);
    expect(plan.stdout).toMatch(/Plan: 0 to create, 1 to update, 0 to delete/);
    const apply = await cli(['apply', 'm.yaml', '--yes', '--allow-delete'], { cwd: dir, emu });
    expect(apply.code).toBe(0);
    const after = await liveReplies();
    expect(after.find((a) => a.autoReplyMsgId === oldId)?.autoReplyMsgName).toBe('Opening times for moves');
    const menu = after.find((a) => a.autoReplyMsgName === 'Menu for moves')!;
    expect(JSON.stringify(menu)).toContain(oldId);
    // Done: the declaration is ignored.
    const again = await cli(['plan', 'm.yaml'], { cwd: dir, emu });
    expect(again.stdout).toContain('No changes');
  });

  it('takes a handle a base gives the brand as a move\'s to', async () => {
    const root = join(dir, 'fleet');
    mkdirSync(join(root, 'bases', 'greet'), { recursive: true });
    mkdirSync(join(root, 'brands', 'one'), { recursive: true });
    writeFileSync(
      join(root, 'bases', 'greet', 'base.yaml'),
      'apiVersion: rcsctl/v1\nkind: Base\nautoReplies:\n  greet: { name: Greeting from the base, messagebaseId: SCS00000, body: { description: "Hello from the base" } }\n',
    );
    const brandFile = join(root, 'brands', 'one', 'brand.yaml');
    // First the brand's own auto-reply, applied: the live object the move will keep.
    writeFileSync(brandFile, HEAD + 'autoReplies:\n  hello: { name: Old greeting, messagebaseId: SCS00000, body: { description: "Hello from the base" } }\n');
    expect((await cli(['apply', 'fleet/brands/one', '--yes'], { cwd: dir, emu })).code).toBe(0);
    const oldId = (await liveReplies()).find((a) => a.autoReplyMsgName === 'Old greeting')!.autoReplyMsgId;
    const withBase = (to: string): string => HEAD + `bases:\n  - base: ../../bases/greet\nmoved:\n  - { from: autoReply.${oldId}, to: ${to} }\n`;
    writeFileSync(brandFile, withBase('autoReply.nope'));
    const bad = await cli(['validate', 'fleet/brands/one'], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stdout + bad.stderr).toMatch(/fleet\/brands\/one\/brand\.yaml:7:\d+.*RCS541/);
    writeFileSync(brandFile, withBase('autoReply.greet'));
    const ok = await cli(['validate', 'fleet/brands/one'], { cwd: dir });
    expect(ok.stdout + ok.stderr).not.toContain('RCS54');
    const plan = await cli(['plan', 'fleet/brands/one'], { cwd: dir, emu });
    expect(plan.stdout).toContain(`~ autoReply.greet "Greeting from the base" (${oldId})  will be updated`);
    expect(plan.stdout).toContain(`moved from autoReply.${oldId}`);
  });
});
