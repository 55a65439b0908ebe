// A new room's plan shows what registration will do: the fields the manifest
// leaves out as the service's defaults, marked `(default)`, and the certificate
// upload as its own line of the create, alike in text, JSON (valid against the
// plan schema), Markdown and `show` of a saved plan; apply registers the room
// with those values and sends the certificate.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, cli, emulator, ROOT } from './helpers.js';

const CASE = join(ROOT, 'test', 'plan-cases', '070-new-room-creation-defaults');
const ROOM = '0233334444';
const tmp = mkdtempSync(join(tmpdir(), 'rcsctl-new-room-'));
let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator(join(CASE, 'seed.yaml'));
});
afterAll(async () => {
  await emu.close();
  rmSync(tmp, { recursive: true, force: true });
});

const UPLOAD = /\+ upload subscription certificate subscription-[0-9a-f]{12}\.pdf \(138 B\)/;

describe('a new room in the plan', () => {
  it('text: defaults marked, the certificate upload on its own line', async () => {
    const r = await cli(['plan', 'manifest.yaml'], { emu, cwd: CASE });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(UPLOAD);
    expect(r.stdout).toContain('+ display: "01" (default)');
    expect(r.stdout).toContain(`+ subNum: "${ROOM}" (default)`);
    // Set in the manifest: no marker.
    expect(r.stdout).toMatch(/\+ inputField: 0\n/);
    expect(r.stdout).toMatch(/\+ subTitle: "Coffee Co Kiosk"\n/);
  });

  it('JSON: the changes carry default, the file says what it is sent as; valid against the schema', async () => {
    const r = await cli(['plan', 'manifest.yaml', '--format', 'json'], { emu, cwd: CASE });
    const plan = JSON.parse(r.stdout) as { brands: { steps: { address: string; changes: { path: string; default?: boolean }[]; file?: { sentAs?: string; fileName: string } }[] }[] };
    const validate = new Ajv({ strict: false }).compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'plan.schema.json'), 'utf8')) as object);
    expect(validate(plan), JSON.stringify(validate.errors)).toBe(true);
    const step = plan.brands[0]?.steps.find((s) => s.address === `chatbot.${ROOM}`);
    expect(step?.changes.filter((c) => c.default === true).map((c) => c.path)).toEqual(['subNum', 'display', 'rcsReply', 'saftyStatusYn']);
    expect(step?.file?.sentAs).toBe('subscription certificate');
  });

  it('Markdown and show of a saved plan say the same', async () => {
    const md = await cli(['plan', 'manifest.yaml', '--format', 'markdown'], { emu, cwd: CASE });
    expect(md.stdout).toMatch(UPLOAD);
    expect(md.stdout).toContain('+ rcsReply: "1" (default)');
    const out = join(tmp, 'plan.json');
    expect((await cli(['plan', 'manifest.yaml', '-o', out], { emu, cwd: CASE })).code).toBe(0);
    const shown = await cli(['show', out], { cwd: CASE });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(UPLOAD);
    expect(shown.stdout).toContain('+ saftyStatusYn: "Y" (default)');
  });

  it('apply registers the room with those values, sending the certificate; the next plan is empty', async () => {
    const out = join(tmp, 'plan.json');
    const r = await cli(['apply', '--plan', out], { emu, cwd: CASE });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const room = emu.store.brands.get(BRAND)?.chatbots.get(ROOM);
    expect(room).toMatchObject({ subTitle: 'Coffee Co Kiosk', subNum: ROOM, display: '01', inputField: 0, rcsReply: '1', saftyStatusYn: 'Y', approvalResult: '승인대기' });
    const again = await cli(['plan', 'manifest.yaml', '--detailed-exitcode'], { emu, cwd: CASE });
    expect(again.code, again.stdout).toBe(0);
  });

  it('without a certificate: validate notes it (RCS514) at the room, plan fails naming the file and line, in text and Markdown, and plan and drift do not repeat the note', async () => {
    const NO_CERT = join(ROOT, 'test', 'plan-cases', '022-new-room-without-certificate-error');
    const v = await cli(['validate', 'manifest.yaml', '--strict'], { cwd: NO_CERT });
    expect(v.code).toBe(0);
    expect(v.stderr).toContain('manifest.yaml:5:3: note RCS514: room 0211112222 declares no certificate; if it is not registered yet, registering it will need one (plan checks the live list)');
    const other = await emulator(join(NO_CERT, 'seed.yaml'));
    try {
      const p = await cli(['plan', 'manifest.yaml'], { emu: other, cwd: NO_CERT });
      expect(p.code).toBe(1);
      expect(p.stdout).toContain('error[E_PLAN_ROOM_CERTIFICATE] manifest.yaml:5: room 0211112222 does not exist; registering it needs');
      // Plan read the live list: the note is settled, and only the plan's error says it.
      expect(p.stdout + p.stderr).not.toContain('RCS514');
      const d = await cli(['drift', 'manifest.yaml'], { emu: other, cwd: NO_CERT });
      expect(d.stdout).toContain('manifest.yaml:5');
      expect(d.stdout + d.stderr).not.toContain('RCS514');
      const md = await cli(['plan', 'manifest.yaml', '--format', 'markdown'], { emu: other, cwd: NO_CERT });
      expect(md.stdout).toContain('**E_PLAN_ROOM_CERTIFICATE**: manifest.yaml:5: room 0211112222 does not exist');
    } finally {
      await other.close();
    }
  });
});
