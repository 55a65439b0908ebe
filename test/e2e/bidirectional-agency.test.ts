// An agency's access while a bidirectional room names it, end to end through
// the CLI against the emulator over HTTP: the service refuses to remove it
// (64393), so the plan shows the removal blocked with the reason and apply
// never sends it, while removing another agency's access goes on; once the
// room is removed, the next plan removes the access.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, cli, emulator, ROOT } from './helpers.js';

const CASE = join(ROOT, 'test', 'plan-cases', '056-bidirectional-agency-removal-blocked');

let emu: RunningEmulator;
let tmp: string;

beforeEach(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'rcsctl-bidi-agency-'));
  cpSync(CASE, join(tmp, 'brand'), { recursive: true });
  emu = await emulator(join(CASE, 'seed.yaml'));
});
afterEach(async () => {
  await emu.close();
  rmSync(tmp, { recursive: true, force: true });
});

const manifest = (): string => join(tmp, 'brand', 'manifest.yaml');
const hasAccess = (account: string): boolean => emu.store.accounts.get(account)?.brands.has(BRAND) === true;

describe("an agency's access while a bidirectional room names it", () => {
  it('is blocked in the plan and never sent by apply; removed by the plan after the room is gone', async () => {
    const plan = await cli(['plan', manifest()], { emu });
    expect(plan.stdout).toContain('! privilege.relay-one "relay-one (agency)"  access will be removed\n      blocked (bidirectional agency): relay-one is the agency of bidirectional room bot-coffee');
    const applied = await cli(['apply', manifest(), '--yes', '--allow-delete'], { emu });
    expect(applied.stdout + applied.stderr).not.toContain('Unable to delete agency privilege');
    expect(applied.stdout).toContain('✓ privilege.relay-three: access removed');
    // 3: applied, with a step left blocked.
    expect(applied.code, applied.stdout + applied.stderr).toBe(3);
    expect(hasAccess('relay-three')).toBe(false);
    expect(hasAccess('relay-one')).toBe(true);

    // The room removed in the same plan: the access waits for it (blocked), and goes on the next plan.
    writeFileSync(manifest(), readFileSync(manifest(), 'utf8').replace('prune: [privileges]', 'prune: [privileges, bidirectionalRooms]').replace(/bidirectionalRooms:\n[\s\S]*$/, ''));
    const both = await cli(['apply', manifest(), '--yes', '--allow-delete'], { emu });
    expect(both.code, both.stdout + both.stderr).toBe(3);
    expect(both.stdout).toContain('blocked (bidirectional agency)');
    expect(emu.store.brands.get(BRAND)?.chatbots.has('bot-coffee')).toBe(false);
    expect(hasAccess('relay-one')).toBe(true);
    const next = await cli(['apply', manifest(), '--yes', '--allow-delete'], { emu });
    expect(next.code, next.stdout + next.stderr).toBe(0);
    expect(next.stdout).toContain('✓ privilege.relay-one: access removed');
    expect(hasAccess('relay-one')).toBe(false);
    expect((await cli(['plan', manifest(), '--detailed-exitcode'], { emu })).code).toBe(0);
  });
});
