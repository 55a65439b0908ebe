// Secrets stay secret even when a manifest reaches for them: a credential's
// value anywhere in manifest content is refused (naming the field, never the
// value), and values from sensitive-looking variables never appear in any
// output or file: every byte of stdout, stderr and the saved plan is checked.

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { hashValue } from '../../src/util/stable-json.js';
import { admin, BRAND, cli, emulator, TOKEN, type CliRun } from './helpers.js';

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await emulator();
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-secrets-'));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await admin(emu, 'POST', 'reset');
});

function manifest(name: string, description: string, brandKey = false): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(
    path,
    `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${BRAND}\n${brandKey ? '  key: "${env:BRAND_KEY}"\n' : ''}autoReplies:\n  a:\n    name: Promo\n    messagebaseId: SCS00000\n    body: { description: "${description}" }\n`,
  );
  return path;
}

/** Every byte the runs printed, and every file they wrote (all but the manifests and token file given to them). */
function everything(runs: CliRun[]): string {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile() && !f.name.endsWith('.yaml') && f.name !== 'token.txt')
    .map((f) => readFileSync(join(f.parentPath, f.name), 'latin1'));
  return [...runs.flatMap((r) => [r.stdout, r.stderr]), ...files].join('\n');
}

const requests = async (): Promise<unknown[]> => ((await admin(emu, 'GET', 'requests')) as { requests: unknown[] }).requests;

describe('a credential in manifest content is refused', () => {
  const cases: [string, string, Record<string, string>, string[]][] = [
    ['the token', 'Use ${env:RCSCTL_TOKEN}', {}, []],
    ['the token, written out', `Use ${TOKEN}`, {}, []],
    ['the client secret', 'Use ${env:RCSCTL_CLIENT_SECRET}', { RCSCTL_CLIENT_SECRET: 'client-secret-value-123' }, []],
    ['a brand key for saved plans', 'Use ${env:RCSCTL_BRAND_KEY_BR_demo000001}', { RCSCTL_BRAND_KEY_BR_demo000001: 'BK.demo0000000001' }, []],
  ];
  it.each(cases)('%s: validate, plan and apply refuse it naming the field; nothing is sent or printed', async (_label, description, env, extra) => {
    const m = manifest('credential', description);
    await admin(emu, 'DELETE', 'requests');
    const runs = [await cli(['validate', m], { emu, env }), await cli(['plan', m], { emu, env }), await cli(['apply', m, '--yes', ...extra], { emu, env })];
    for (const r of runs) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/error RCS115: "autoReplies\.a\.body\.description" holds the value of (RCSCTL_TOKEN|RCSCTL_CLIENT_SECRET|RCSCTL_BRAND_KEY_BR_demo000001), a credential/);
    }
    const secret = env.RCSCTL_CLIENT_SECRET ?? env.RCSCTL_BRAND_KEY_BR_demo000001 ?? TOKEN;
    expect(everything(runs)).not.toContain(secret);
    expect(await requests()).toEqual([]);
  });

  it('the --token-file content', async () => {
    writeFileSync(join(dir, 'token.txt'), `${TOKEN}\n`);
    const m = manifest('token-file', `Use ${TOKEN}`);
    const r = await cli(['--token-file', join(dir, 'token.txt'), 'plan', m], { emu, env: { RCSCTL_TOKEN: undefined } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('holds the value of the --token-file content, a credential');
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    rmSync(join(dir, 'token.txt'));
  });

  it("the brand's own key anywhere but brand.key", async () => {
    const m = manifest('own-key', 'Key ${env:BRAND_KEY}', true);
    const r = await cli(['apply', m, '--yes'], { emu, env: { BRAND_KEY: 'BK.demo0000000001' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('holds the value of the brand key of BR.demo000001, a credential');
    expect(r.stdout + r.stderr).not.toContain('BK.demo0000000001');
  });
});

describe('values of sensitive variables', () => {
  const VALUE = 'promo-c0de-7f3a9';
  // The key saved plans are sealed with, as CI gives it (no cache directory here to hold this machine's key).
  const PLAN_KEY = 'test-plan-key-0123456789abcdef0123456789';
  const env = { PROMO_SECRET: VALUE, RCSCTL_PLAN_KEY: PLAN_KEY };

  it('show as (sensitive) in plan text, JSON and Markdown; the saved plan holds a hash; apply re-reads and checks it', async () => {
    const m = manifest('sensitive', 'Code: ${env:PROMO_SECRET}');
    const out = join(dir, 'plan.json');
    const text = await cli(['plan', m, '--out', out], { emu, env });
    const json = await cli(['plan', m, '--format', 'json'], { emu, env });
    const md = await cli(['plan', m, '--format', 'markdown', '--preview', join(dir, 'preview')], { emu, env });
    expect(readdirSync(join(dir, 'preview'), { recursive: true }).length).toBeGreaterThan(0);
    for (const r of [text, json, md]) {
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('(sensitive)');
    }
    expect(text.stdout).toContain('+ body.description: "Code: (sensitive)"');
    expect(JSON.parse(json.stdout)).toBeTypeOf('object');
    const saved = readFileSync(out, 'utf8');
    expect(saved).toMatch(/<sensitive:PROMO_SECRET:[0-9a-f]{8}:[0-9a-f]{64}>/);

    const changed = await cli(['apply', '--plan', out], { emu, env: { PROMO_SECRET: 'another-value-99', RCSCTL_PLAN_KEY: PLAN_KEY } });
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain('PROMO_SECRET differs from its value when the plan was made');
    const unset = await cli(['apply', '--plan', out], { emu });
    expect(unset.stderr).toContain('PROMO_SECRET is not set');
    expect(emu.store.brands.get(BRAND)?.autoReplies.size).toBe(0);

    const applied = await cli(['apply', '--plan', out], { emu, env });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    // The service gets the value: it is content, only kept out of output and files.
    expect([...(emu.store.brands.get(BRAND)?.autoReplies.values() ?? [])][0]?.body.description).toBe(`Code: ${VALUE}`);
    const again = await cli(['apply', m, '--yes'], { emu, env });
    expect(again.code).toBe(0);
    expect(everything([text, json, md, changed, unset, applied, again])).not.toContain(VALUE);
  });

  it('a long value holding a secret: views note the length and hash of the text as shown, so no view tests a guess', async () => {
    // A 6-digit PIN in a long description: the note after the cut must not be a function of the PIN.
    const long = `${'Door code for the back entrance. '.repeat(10)}PIN \${env:DOOR_PIN}, then push.`;
    const m = manifest('pin', long);
    const notes = async (pin: string): Promise<string[]> => {
      const found: string[] = [];
      for (const format of ['text', 'json', 'markdown']) {
        const r = await cli(['plan', m, '--format', format], { emu, env: { DOOR_PIN: pin, RCSCTL_SENSITIVE_VARS: '*PIN*' } });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).not.toContain(pin);
        found.push(...(r.stdout.match(/\(\d[\d,]* characters, sha256 [0-9a-f]{12}\)/g) ?? []));
      }
      return found;
    };
    const first = await notes('482915');
    expect(first.length).toBeGreaterThanOrEqual(3);
    // Another PIN, the same views: nothing in them depends on the PIN.
    expect(await notes('731046')).toEqual(first);
    const shown = long.replace('${env:DOOR_PIN}', '(sensitive)');
    expect(first[0]).toBe(`(${shown.length} characters, sha256 ${createHash('sha256').update(shown).digest('hex').slice(0, 12)})`);
  });

  it('a saved plan is no oracle: its seals are keyed by a key that stays on the machine (or in RCSCTL_PLAN_KEY), and apply elsewhere needs that key', async () => {
    const PIN = '482915';
    const pinEnv = (cache: string, extra: Record<string, string> = {}): Record<string, string> => ({ DOOR_PIN: PIN, RCSCTL_SENSITIVE_VARS: '*PIN*', RCSCTL_CACHE_DIR: join(dir, cache), ...extra });
    const m = manifest('pin-plan', 'Door code ${env:DOOR_PIN}');
    // The live auto-reply holds the PIN too, so the plan's snapshot and fingerprint of it are taken of a text holding it.
    expect((await cli(['apply', m, '--yes'], { emu, env: pinEnv('machine-a') })).code).toBe(0);
    const changed = manifest('pin-plan2', 'Door code ${env:DOOR_PIN}, then push');
    writeFileSync(m, readFileSync(changed, 'utf8'));
    const out = join(dir, 'pin-plan.json');
    const made = await cli(['plan', m, '--out', out], { emu, env: pinEnv('machine-a') });
    expect(made.code, made.stderr).toBe(0);
    const saved = readFileSync(out, 'utf8');
    expect(saved).not.toContain(PIN);

    // Every 6-digit PIN, hashed as an unkeyed seal would have it: none is in the file (it took 0.3 s before).
    const hexes = new Set(saved.match(/[0-9a-f]{12,64}/g) ?? []);
    const plan = JSON.parse(saved) as { brands: { snapshots: Record<string, unknown>; fingerprints: Record<string, string> }[] };
    const snapshot = JSON.stringify(plan.brands[0]?.snapshots);
    expect(snapshot).toContain('<sensitive:DOOR_PIN:');
    const found: string[] = [];
    for (let i = 0; i < 1_000_000; i++) {
      const guess = String(i).padStart(6, '0');
      const sha = createHash('sha256').update(guess).digest('hex');
      if (hexes.has(sha) || hexes.has(sha.slice(0, 12))) found.push(guess);
    }
    expect(found).toEqual([]);
    // The fingerprint of the live object holding it is not its plain hash either (which a guess would rebuild).
    const brand = plan.brands[0] as { snapshots: Record<string, unknown>; fingerprints: Record<string, string> };
    const holding = Object.keys(brand.snapshots).filter((a) => JSON.stringify(brand.snapshots[a]).includes('<sensitive:DOOR_PIN:'));
    expect(holding.length).toBeGreaterThan(0);
    for (const address of holding) {
      const guessed = JSON.parse(JSON.stringify(brand.snapshots[address]).replace(/<sensitive:DOOR_PIN:[^>]*>/g, PIN)) as unknown;
      expect(brand.fingerprints[address]).toMatch(/^[0-9a-f]{64}$/);
      expect(brand.fingerprints[address]).not.toBe(hashValue(guessed));
    }

    // This machine's key: in the cache directory, owner-only.
    const keyFile = join(dir, 'machine-a', 'seal.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    // Another machine (another cache directory, so another key): refused, naming RCSCTL_PLAN_KEY; nothing sent.
    const elsewhere = await cli(['apply', '--plan', out], { emu, env: pinEnv('machine-b') });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toMatch(/sealed with key [0-9a-f]{8}, and this run's key \(.*machine-b.*seal\.key\) is [0-9a-f]{8}: set RCSCTL_PLAN_KEY/);
    expect([...(emu.store.brands.get(BRAND)?.autoReplies.values() ?? [])][0]?.body.description).toBe(`Door code ${PIN}`);

    // The same machine: applied, the keyed fingerprint checked against the live object (not stale).
    const here = await cli(['apply', '--plan', out], { emu, env: pinEnv('machine-a') });
    expect(here.code, here.stderr).toBe(0);
    expect([...(emu.store.brands.get(BRAND)?.autoReplies.values() ?? [])][0]?.body.description).toBe(`Door code ${PIN}, then push`);

    // CI: plan and apply on different runners share RCSCTL_PLAN_KEY; a change in between is still caught as stale.
    const CI_KEY = 'a'.repeat(16) + '0123456789abcdef0123456789abcdef';
    writeFileSync(m, readFileSync(manifest('pin-plan3', 'Door code ${env:DOOR_PIN}, then pull'), 'utf8'));
    const ciOut = join(dir, 'pin-ci.json');
    expect((await cli(['plan', m, '--out', ciOut], { emu, env: pinEnv('runner-1', { RCSCTL_PLAN_KEY: CI_KEY }) })).code).toBe(0);
    const live = [...(emu.store.brands.get(BRAND)?.autoReplies.values() ?? [])][0];
    await admin(emu, 'POST', 'state', { kind: 'autoReply', brandId: BRAND, id: live?.autoReplyMsgId, approvalResult: '처리중' });
    const stale = await cli(['apply', '--plan', ciOut], { emu, env: pinEnv('runner-2', { RCSCTL_PLAN_KEY: CI_KEY }) });
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain('error[E_PLAN_STALE] the saved plan is stale for this brand');
    expect(stale.stdout).toContain('autoReply.a: state 등록완료 → 처리중');
    await admin(emu, 'POST', 'state', { kind: 'autoReply', brandId: BRAND, id: live?.autoReplyMsgId, approvalResult: '등록완료' });
    const ok = await cli(['apply', '--plan', ciOut], { emu, env: pinEnv('runner-2', { RCSCTL_PLAN_KEY: CI_KEY }) });
    expect(ok.code, ok.stderr).toBe(0);
    expect(everything([made, elsewhere, here, stale, ok])).not.toContain(PIN);
  }, 60_000);

  it('which variables are sensitive is configurable (RCSCTL_SENSITIVE_VARS)', async () => {
    const m = manifest('configured', 'Code: ${env:PROMO_CODE}');
    const plain = await cli(['plan', m], { emu, env: { PROMO_CODE: VALUE } });
    expect(plain.stdout).toContain(VALUE);
    const hidden = await cli(['plan', m], { emu, env: { PROMO_CODE: VALUE, RCSCTL_SENSITIVE_VARS: 'PROMO_*' } });
    expect(hidden.stdout).not.toContain(VALUE);
    expect(hidden.stdout).toContain('(sensitive)');
  });
});
