// One grammar across commands: -o/--out (alias --output) for what a command
// writes, --format with --json as its shorthand, global options accepted after
// the command and shown in its help, --brand repeatable, paths defaulting to .,
// --auto-approve as --yes, and suggestions for mistyped options.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { PLAN_FILE_VERSION } from '../../src/plan/types.js';
import { cli, emulator, EXAMPLE, ROOT } from './helpers.js';

const ROOT_FIXTURES = join(ROOT, 'test', 'fixtures', 'manifests');

let emu: RunningEmulator;
const dir = mkdtempSync(join(tmpdir(), 'rcsctl-grammar-'));
beforeAll(async () => {
  emu = await emulator();
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const COMMANDS = ['validate', 'plan', 'apply', 'drift', 'export', 'show', 'emulator', 'completion', 'preview', 'graph'];

describe('help', () => {
  it('every command shows the global options, and marks what is required', async () => {
    for (const c of COMMANDS) {
      const h = await cli([c, '--help'], { env: {} });
      expect(h.code, c).toBe(0);
      expect(h.stdout, c).toContain('Global Options:');
      expect(h.stdout, c).toContain('--sandbox');
      expect(h.stdout, c).toContain('--concurrency <n>');
    }
    expect((await cli(['export', '--help'], { env: {} })).stdout).toMatch(/--brand <id> +a brand to export \(repeat for several, each into its\s+own folder under --out; required unless --all or\s+--into\)/);
    expect((await cli(['show', '--help'], { env: {} })).stdout).toMatch(/Usage: rcsctl show \[options\] <plan-file>/);
  });

  it('suggests the option meant, for a Terraform hand too', async () => {
    const r = await cli(['plan', '--detailed-exit-code'], { env: {} });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('(Did you mean --detailed-exitcode?)');
  });
});

describe('-o/--out, --output and --format', () => {
  /** Run `argv` with each spelling of the output flag; every file must be the same, and stdout must name it. */
  async function sameFileEachWay(argv: string[], normalise: (s: string) => string = (s) => s): Promise<string> {
    const texts: string[] = [];
    for (const flag of ['-o', '--out', '--output']) {
      const file = join(dir, `${argv[0]}${flag}.out`);
      const r = await cli([...argv, flag, file], { emu });
      expect(r.stderr, `${argv.join(' ')} ${flag}`).toBe('');
      texts.push(normalise(readFileSync(file, 'utf8')));
    }
    expect(texts[1]).toBe(texts[0]);
    expect(texts[2]).toBe(texts[0]);
    return texts[0] as string;
  }
  const noDates = (s: string): string => s.replace(/"(createdAt|generatedAt)": "[^"]+"/g, '"$1": "<date>"').replace(/timestamp="[^"]+"/g, 'timestamp="<date>"');

  it('validate writes its report with each spelling, in every format', async () => {
    expect(JSON.parse(await sameFileEachWay(['validate', EXAMPLE, '--format', 'json'])).ok).toBe(true);
    expect(await sameFileEachWay(['validate', EXAMPLE, '--format', 'markdown'])).toContain('**Valid**');
    expect(await sameFileEachWay(['validate', EXAMPLE, '--format', 'junit'], noDates)).toMatch(/<testsuites name="rcsctl validate" tests="\d+" failures="0"/);
    expect(await sameFileEachWay(['validate', EXAMPLE])).toContain('BR.demo000001: valid (');
  });

  it('plan, drift and show do too', async () => {
    const plan = await sameFileEachWay(['plan', EXAMPLE], noDates);
    expect(JSON.parse(plan).version).toBe(PLAN_FILE_VERSION);
    expect(JSON.parse(await sameFileEachWay(['drift', EXAMPLE, '--format', 'json'], noDates)).brands).toHaveLength(1);
    writeFileSync(join(dir, 'saved.json'), plan);
    expect(await sameFileEachWay(['show', join(dir, 'saved.json'), '--format', 'markdown'])).toMatch(/^## rcsctl plan/);
  });

  it('export takes -o for its directory', async () => {
    const r = await cli(['export', '--brand', 'BR.demo000001', '-o', join(dir, 'exported')], { emu });
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'exported', 'brand.yaml'), 'utf8')).toContain('id: BR.demo000001');
  });

  it('--json is --format json wherever --format is', async () => {
    for (const argv of [['validate', EXAMPLE], ['plan', EXAMPLE], ['drift', EXAMPLE]]) {
      const a = await cli([...argv, '--json'], { emu });
      const b = await cli([...argv, '--format', 'json'], { emu });
      expect(noDates(a.stdout), argv[0]).toBe(noDates(b.stdout));
      expect(() => JSON.parse(a.stdout), argv[0]).not.toThrow();
    }
  });

  it('an unknown format is refused naming the formats of that command', async () => {
    expect((await cli(['validate', EXAMPLE, '--format', 'html'], { env: {} })).stderr).toContain('--format must be one of text, json, markdown, junit, not "html"');
    expect((await cli(['drift', EXAMPLE, '--format', 'html'], { env: {} })).stderr).toContain('--format must be one of text, json, markdown, junit, not "html"');
  });
});

describe('global options, brands and paths', () => {
  it('global options work before or after the command', async () => {
    for (const argv of [['--sandbox', 'plan', EXAMPLE], ['plan', '--sandbox', EXAMPLE], ['plan', EXAMPLE, '--sandbox', '--no-color', '--concurrency', '4']]) {
      const r = await cli(argv, { env: {} });
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.stdout, argv.join(' ')).toContain('Brand BR.demo000001');
    }
  });

  it('a repeated --brand accumulates', async () => {
    const two = join(dir, 'two');
    mkdirSync(two, { recursive: true });
    for (const id of ['BR.grammarA01', 'BR.grammarB01', 'BR.grammarC01']) {
      writeFileSync(join(two, `${id}.yaml`), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${id} }\n`);
    }
    const r = await cli(['--sandbox', 'plan', two, '--brand', 'BR.grammarA01', '--brand', 'BR.grammarC01'], { env: {} });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Brand BR.grammarA01');
    expect(r.stdout).toContain('Brand BR.grammarC01');
    expect(r.stdout).not.toContain('BR.grammarB01');
    const v = await cli(['validate', two, '--brand', 'BR.grammarB01', '--brand', 'BR.nope000001'], { env: {} });
    expect(v.code).toBe(1);
    expect(v.stderr).toContain('no manifest declares brand BR.nope000001');
  });

  it('paths default to the current directory', async () => {
    const r = await cli(['validate'], { cwd: EXAMPLE, env: {} });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('BR.demo000001: valid (');
  });

  it('a directory without manifests is named without a made-up position', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty, { recursive: true });
    const r = await cli(['validate', empty], { env: {} });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/empty: error RCS108: no \*\.yaml or \*\.yml manifest under/);
    expect(r.stderr).not.toMatch(/empty:\d+:\d+/);
  });

  it('--auto-approve is --yes', async () => {
    const fresh = await emulator();
    try {
      const r = await cli(['apply', EXAMPLE, '--auto-approve', '--allow-review'], { emu: fresh });
      expect(r.stderr).not.toContain('refusing to apply without confirmation');
      expect(r.code).toBe(0);
    } finally {
      await fresh.close();
    }
  });
});

describe('--verbose', () => {
  it('shows follow-on YAML errors that validate otherwise folds', async () => {
    const file = join(ROOT_FIXTURES, '101-tab-indent.yaml');
    const short = await cli(['validate', file], { env: {} });
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('3 follow-on errors suppressed');
    const all = await cli(['validate', file, '--verbose'], { env: {} });
    expect(all.stderr.match(/error RCS101/g)).toHaveLength(4);
  });
});

describe('apply --format json', () => {
  it('prints every step outcome and the ids learnt on stdout, the human view on stderr', async () => {
    const fresh = await emulator();
    try {
      const r = await cli(['apply', EXAMPLE, '--yes', '--allow-review', '--format', 'json'], { emu: fresh });
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout) as {
        outcome: string;
        exitCode: number;
        brands: { brandId: string; steps: { address: string; op: string; status: string; liveId?: string }[]; ids: Record<string, string>; unconverged: unknown[] }[];
      };
      expect(doc.outcome).toBe('applied');
      expect(doc.exitCode).toBe(0);
      const brand = doc.brands[0];
      expect(brand?.brandId).toBe('BR.demo000001');
      expect(brand?.steps.every((s) => s.status === 'done')).toBe(true);
      const hours = brand?.steps.find((s) => s.address === 'autoReply.hours' && s.op === 'create');
      expect(hours?.liveId).toMatch(/^ARM/);
      expect(brand?.ids['autoReply:hours']).toBe(hours?.liveId);
      expect(brand?.unconverged).toEqual([]);
      expect(r.stderr).toContain('Apply complete: the live service matches the manifests.');

      const again = await cli(['apply', EXAMPLE, '--yes', '--json'], { emu: fresh });
      expect(JSON.parse(again.stdout)).toMatchObject({ outcome: 'nothing-to-do', exitCode: 0, brands: [] });

      const refused = await cli(['apply', join(dir, 'nowhere'), '--yes', '--json'], { emu: fresh });
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout)).toMatchObject({ outcome: 'error', exitCode: 1, error: { code: 'E_MANIFEST' } });
    } finally {
      await fresh.close();
    }
  });
});
