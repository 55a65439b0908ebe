// The planner's case corpus (decK-style numbered folders). Each
// folder under test/plan-cases/ holds the manifests (`manifest.yaml`, or a
// `manifests/` directory), `seed.yaml` (the live state before) and `plan.txt`
// (the expected plan text, compared in full after masking volatile ids, dates
// and the port). Optional files: `args` (extra CLI arguments, one per line),
// `exit-code` (expected exit code, default 0), `token` (default the master
// token of the example seed).
//
// Every case runs `rcsctl plan` in-process against an emulator on port 0,
// three times: text (golden), --json (valid against schemas/plan.schema.json)
// and --out (valid, holding no token); then `apply` and a plan again, which
// must hold nothing but the blocked steps. UPDATE_GOLDEN=1 rewrites plan.txt and
// exit-code; read every rewritten file before committing it.
// An optional `env` file (NAME=value lines) adds environment variables, such
// as a brand key; none of their values may appear in any output.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handledPairs } from '../src/apply/handlers.js';
import { main } from '../src/cli/main.js';
import { kindOptions } from '../src/kinds/index.js';
import { startEmulator, type RunningEmulator } from '../src/emulator/index.js';
import { withContract } from './contract-recorder.js';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const CASES = join(ROOT, 'test', 'plan-cases');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const DEFAULT_TOKEN = 'emulator-master-token';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** Replace what changes from run to run (ids the emulator makes up, dates, the port). */
export function mask(text: string): string {
  return text
    .replace(/\b(ARM|ARF|PM)\d{12}\b/g, '$1<id>')
    .replace(/\b(BLG-[A-Za-z0-9.]+-)[a-z]{4}\b/g, '$1<id>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)?/g, '<date>')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>');
}

interface Case {
  name: string;
  dir: string;
  paths: string[];
  args: string[];
  exitCode: number;
  token: string;
  env: Record<string, string>;
}

function readCase(name: string): Case {
  const dir = join(CASES, name);
  const opt = (file: string): string | undefined => (existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8').trim() : undefined);
  const args = (opt('args') ?? '').split('\n').map((s) => s.trim()).filter((s) => s !== '');
  return {
    name,
    dir,
    paths: existsSync(join(dir, 'manifests')) ? ['manifests'] : ['manifest.yaml'],
    args,
    exitCode: Number(opt('exit-code') ?? '0'),
    token: opt('token') ?? DEFAULT_TOKEN,
    env: Object.fromEntries(
      (opt('env') ?? '')
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')).trim(), l.slice(l.indexOf('=') + 1).trim()]),
    ),
  };
}

const caseNames = readdirSync(CASES, { withFileTypes: true })
  .filter((e) => e.isDirectory() && /^\d{3}-/.test(e.name))
  .map((e) => e.name)
  .sort();

const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'plan.schema.json'), 'utf8')) as object;
const validatePlan = new Ajv({ allErrors: true, strict: false }).compile(schema);

async function run(c: Case, emu: RunningEmulator, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Capture();
  const stderr = new Capture();
  const env = { ...c.env, RCSCTL_TOKEN: c.token, NO_COLOR: '1' };
  const code = await main([...argv, '--base-url', emu.url], { stdout, stderr, env, cwd: c.dir });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

function plan(c: Case, emu: RunningEmulator, extra: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(c, emu, ['plan', ...c.paths, ...c.args, ...extra]);
}

/** Every (kind, operation) the cases' plans could send (not blocked), for the handler check after the last case. */
const planned = new Set<string>();

describe('plan cases', () => {
  let emu: RunningEmulator | undefined;
  const tmp = mkdtempSync(join(tmpdir(), 'rcsctl-plan-cases-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  beforeEach(() => {
    emu = undefined;
  });
  afterEach(async () => {
    await emu?.close();
  });

  it('has at least 25 numbered cases, each complete', () => {
    expect(caseNames.length).toBeGreaterThanOrEqual(25);
    for (const name of caseNames) {
      const c = readCase(name);
      expect(existsSync(join(c.dir, 'seed.yaml')), `${name}/seed.yaml`).toBe(true);
      expect(existsSync(join(c.dir, c.paths[0] as string)), `${name}/${c.paths[0]}`).toBe(true);
      if (!UPDATE) expect(existsSync(join(c.dir, 'plan.txt')), `${name}/plan.txt`).toBe(true);
    }
  });

  it('colours the markers on a terminal, and not with NO_COLOR', async () => {
    const c = readCase(caseNames.find((n) => n.startsWith('012-')) as string);
    emu = await startEmulator({ seed: join(c.dir, 'seed.yaml'), port: 0 });
    const run = async (env: Record<string, string>): Promise<string> => {
      const stdout = Object.assign(new Capture(), { isTTY: true });
      const code = await main(['plan', ...c.paths, '--base-url', emu!.url], { stdout, stderr: new Capture(), env: { RCSCTL_TOKEN: c.token, ...env }, cwd: c.dir });
      expect(code).toBe(0);
      return stdout.text;
    };
    const coloured = await run({});
    expect(coloured).toMatch(/\u001b\[\d+m⚑/);
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(readFileSync(join(c.dir, 'plan.txt'), 'utf8'));
    expect(await run({ NO_COLOR: '1' })).not.toMatch(/\u001b\[/);
  });

  for (const name of caseNames) {
    it(name, async () => {
      const c = readCase(name);
      // Every request of plan and apply, and every answer, is checked against the contract on close.
      const contract = withContract({ seed: join(c.dir, 'seed.yaml'), port: 0 });
      emu = contract.adopt(await startEmulator(contract.opts));

      const text = await plan(c, emu, []);
      const got = mask(text.stdout) + (text.stderr === '' ? '' : `--- stderr ---\n${mask(text.stderr)}`);
      if (UPDATE) {
        writeFileSync(join(c.dir, 'plan.txt'), got);
        if (text.code !== 0) writeFileSync(join(c.dir, 'exit-code'), `${text.code}\n`);
        else rmSync(join(c.dir, 'exit-code'), { force: true });
      } else {
        expect(got).toBe(readFileSync(join(c.dir, 'plan.txt'), 'utf8'));
        expect(text.code).toBe(c.exitCode);
      }

      // --json: the same plan, valid against the schema.
      const json = await plan(c, emu, ['--json']);
      expect(json.code).toBe(text.code);
      if (json.stdout !== '') {
        const parsed = JSON.parse(json.stdout) as { brands: { brandId: string }[] };
        expect(validatePlan(parsed), JSON.stringify(validatePlan.errors)).toBe(true);
      }

      // --out: a valid plan file that holds no secret.
      const out = join(tmp, `${name}.json`);
      const saved = await plan(c, emu, ['--out', out]);
      expect(saved.code).toBe(text.code);
      if (existsSync(out)) {
        const raw = readFileSync(out, 'utf8');
        for (const secret of [c.token, ...Object.values(c.env)]) expect(raw).not.toContain(secret);
        const file = JSON.parse(raw) as { brands: { steps: { address: string; kind: string; op: string; liveId?: string; gate: { type: string } }[]; fingerprints: Record<string, string> }[] };
        for (const b of file.brands) for (const st of b.steps) if (st.gate.type !== 'blocked') planned.add(`${st.kind}:${st.op}`);
        expect(validatePlan(file), JSON.stringify(validatePlan.errors)).toBe(true);
        // Every live object a step touches has its fingerprint, for the staleness check.
        for (const b of file.brands) for (const st of b.steps) if (st.liveId !== undefined && st.op !== 'link') expect(b.fingerprints[st.address], `${name} ${st.address}`).toMatch(/^[0-9a-f]{64}$/);
      }
      for (const r of [text, json, saved]) for (const secret of [c.token, ...Object.values(c.env)]) expect(r.stdout + r.stderr).not.toContain(secret);

      // A plan right after an apply is empty, but for the steps that were blocked.
      if (text.code !== 1) {
        const brandArgs = c.args.includes('--brand') ? ['--brand', c.args[c.args.indexOf('--brand') + 1] as string] : [];
        // Plan choices that apply takes as well: --cancel-review, and the kinds' own options (--allow-delegate).
        const choices = c.args.filter((a) => a === '--cancel-review' || kindOptions().some((o) => a === `--${o.flag}`));
        const applied = await run(c, emu, ['apply', ...c.paths, '--yes', '--allow-delete', '--allow-review', ...brandArgs, ...choices]);
        expect([0, 3], applied.stdout + applied.stderr).toContain(applied.code);
        const again = await plan(c, emu, ['--json']);
        const left = (JSON.parse(again.stdout) as { brands: { steps: { id: string; gate: { type: string; set?: true } }[] }[] }).brands.flatMap((b) => b.steps);
        // A step refused for want of a kind's option (a delegation without --allow-delegate) stays, as a blocked one does.
        const refused = (g: { type: string; set?: true }): boolean => g.type === 'option' && g.set !== true;
        expect(left.filter((st) => st.gate.type !== 'blocked' && !refused(st.gate)).map((st) => st.id), `${name}: plan after apply`).toEqual([]);
      }
    });
  }

  // The (kind, operation) pairs come from what the planner produced above, not from a list; a
  // blocked step (an agency file update) is never sent, so it needs no handler.
  it('has a handler for every (kind, operation) the cases plan, and plans every handler somewhere', () => {
    const handled = new Set(handledPairs());
    expect([...planned].filter((p) => !handled.has(p)).sort(), 'planned without a handler').toEqual([]);
    expect([...handled].filter((p) => !planned.has(p)).sort(), 'handlers no case plans').toEqual([]);
  });
});
