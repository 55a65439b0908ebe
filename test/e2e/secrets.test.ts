// Secrets stay secret even when a manifest reaches for them: a credential's
// value anywhere in manifest content is refused (naming the field, never the
// value), and values from sensitive-looking variables never appear in any
// output or file: every byte of stdout, stderr and the saved plan is checked.

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
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
  const env = { PROMO_SECRET: VALUE };

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
    expect(saved).toMatch(/<sensitive:PROMO_SECRET:[0-9a-f]{64}>/);

    const changed = await cli(['apply', '--plan', out], { emu, env: { PROMO_SECRET: 'another-value-99' } });
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

  it('which variables are sensitive is configurable (RCSCTL_SENSITIVE_VARS)', async () => {
    const m = manifest('configured', 'Code: ${env:PROMO_CODE}');
    const plain = await cli(['plan', m], { emu, env: { PROMO_CODE: VALUE } });
    expect(plain.stdout).toContain(VALUE);
    const hidden = await cli(['plan', m], { emu, env: { PROMO_CODE: VALUE, RCSCTL_SENSITIVE_VARS: 'PROMO_*' } });
    expect(hidden.stdout).not.toContain(VALUE);
    expect(hidden.stdout).toContain('(sensitive)');
  });
});
