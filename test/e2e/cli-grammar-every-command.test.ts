// One grammar, checked command by command (issue 15's "Done when"): every
// command and subcommand rcsctl has spells what it writes `-o, --out`, offers
// `--json` wherever `--format` takes json, shows the same global options in its
// help, and takes the global options before or after its name with the same
// result. The commands come from `rcsctl --help`, so a new one is checked too.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, EXAMPLE } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rcsctl-grammar-all-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The command names `help` lists (subcommands as `report merge`). */
async function allCommands(): Promise<string[][]> {
  const top = (await cli(['--help'], { env: {} })).stdout;
  const names = [...top.slice(top.indexOf('Commands:')).matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1] as string).filter((n) => n !== 'help');
  const out: string[][] = [];
  for (const name of names) {
    const help = (await cli([name, '--help'], { env: {} })).stdout;
    const subs = help.includes('Commands:') ? [...help.slice(help.indexOf('Commands:')).matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1] as string).filter((n) => n !== 'help') : [];
    if (subs.length === 0) out.push([name]);
    else for (const s of subs) out.push([name, s]);
  }
  return out;
}

/** A section of a help text: the lines from `heading` to the next heading. */
function section(help: string, heading: string): string {
  const at = help.indexOf(`${heading}:\n`);
  if (at === -1) return '';
  const rest = help.slice(at + heading.length + 2);
  const next = rest.search(/^\S.*:\n/m);
  return next === -1 ? rest : rest.slice(0, next);
}

describe('every command, the same grammar', () => {
  it('help: -o/--out for what it writes, --json beside a --format that takes json, the same global options', async () => {
    const commands = await allCommands();
    expect(commands.map((c) => c.join(' '))).toEqual(expect.arrayContaining(['validate', 'plan', 'apply', 'drift', 'export', 'show', 'preview', 'graph', 'brands', 'doctor', 'completion', 'emulator', 'report merge']));
    let globals: string | undefined;
    for (const c of commands) {
      const help = (await cli([...c, '--help'], { env: {} })).stdout;
      const name = c.join(' ');
      const options = section(help, 'Options');
      // What a command writes is -o/--out, never another spelling (--output stays a hidden alias).
      if (/^ {2}(-o, )?--out(put)?\b/m.test(options)) expect(options, name).toMatch(/^ {2}-o, --out <(file|dir)>/m);
      expect(options, name).not.toMatch(/^ {2}--output\b/m);
      // --format that offers json comes with --json.
      const format = /^ {2}--format <format>[\s\S]*?(?=^ {2}-)/m.exec(options)?.[0] ?? '';
      if (/json/.test(format)) expect(options, name).toMatch(/^ {2}--json +the same as --format json/m);
      // The global options, the same under every command (commander aligns the columns per command).
      const g = [...section(help, 'Global Options').matchAll(/^ {2}((?:-\w, )?--[\w-]+(?: <\w+>)?)/gm)].map((m) => m[1]).join(' ');
      expect(g, name).toContain('--sandbox');
      globals ??= g;
      expect(g, name).toBe(globals);
    }
  });

  /** Runnable forms, in the sandbox; `{dir}` is a fresh directory per run. */
  const RUNS: [string, string[]][] = [
    ['validate', ['validate', EXAMPLE]],
    ['plan', ['plan', EXAMPLE]],
    ['apply', ['apply', EXAMPLE, '--yes', '--allow-review', '--format', 'json']],
    ['drift', ['drift', EXAMPLE, '--format', 'json']],
    ['brands', ['brands', EXAMPLE, '--json']],
    ['graph', ['graph', EXAMPLE, '--format', 'dot']],
    ['doctor', ['doctor', '--brand', 'BR.demo000001', '--json']],
    ['export', ['export', '--brand', 'BR.demo000001', '-o', '{dir}']],
    ['preview', ['preview', EXAMPLE, '-o', '{dir}']],
    ['completion', ['completion', 'bash']],
  ];
  const GLOBALS = ['--sandbox', '--no-color', '--concurrency', '4'];
  /** What changes from run to run: dates, made-up ids, durations, fresh directories. */
  const normalise = (s: string): string =>
    s
      .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}(:?\d{2})?)?/g, '<date>')
      .replace(/\b(ARM|ARF|PM)\d{12}\b/g, '$1<id>')
      .replace(/\b(BLG-[A-Za-z0-9.]+-)[a-z]{4}\b/g, '$1<id>')
      .replace(/\d+ ?ms\b/g, '<ms>')
      .replace(/rcsctl-grammar-all-[^/\s"]+\/run\d+/g, '<dir>')
      .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>');

  it.each(RUNS)('%s takes the global options before or after its name, alike', async (_name, argv) => {
    let n = 0;
    const withDir = (a: string[]): string[] => {
      n++;
      return a.map((w) => (w === '{dir}' ? join(dir, `run${n}`) : w));
    };
    const before = await cli(withDir([...GLOBALS, ...argv]), { env: {} });
    const after = await cli(withDir([...argv, ...GLOBALS]), { env: {} });
    expect(before.code, before.stderr).toBe(after.code);
    expect([0, 2, 3]).toContain(before.code);
    // Steps run concurrently and finish in any order: compare the lines as a set.
    const lines = (s: string): string[] => normalise(s).split('\n').sort();
    expect(lines(after.stdout)).toEqual(lines(before.stdout));
    expect(lines(after.stderr)).toEqual(lines(before.stderr));
  });

  it('-o, --out and --output write the same file for graph and report merge; --json is --format json for brands, doctor and apply', async () => {
    const texts: string[] = [];
    for (const flag of ['-o', '--out', '--output']) {
      const file = join(dir, `graph${flag}.mmd`);
      const r = await cli(['graph', EXAMPLE, flag, file], { env: {} });
      expect(r.code, r.stderr).toBe(0);
      texts.push(readFileSync(file, 'utf8'));
    }
    expect(new Set(texts).size).toBe(1);
    expect(texts[0]).toMatch(/^(flowchart|graph) /);

    const report = join(dir, 'drift.json');
    expect((await cli(['--sandbox', 'drift', EXAMPLE, '-o', report, '--format', 'json'], { env: {} })).code).toBe(2);
    const merged: string[] = [];
    for (const flag of ['-o', '--out', '--output']) {
      const file = join(dir, `merged${flag}.json`);
      const r = await cli(['report', 'merge', report, flag, file, '--format', 'json'], { env: {} });
      // The merged drift report keeps drift's exit code: 2, differences found.
      expect(r.code, r.stderr).toBe(2);
      merged.push(readFileSync(file, 'utf8').replace(/"generatedAt": "[^"]+"/g, ''));
    }
    expect(new Set(merged).size).toBe(1);

    for (const argv of [['brands', EXAMPLE], ['--sandbox', 'doctor', '--brand', 'BR.demo000001']]) {
      const a = await cli([...argv, '--json'], { env: {} });
      const b = await cli([...argv, '--format', 'json'], { env: {} });
      expect(a.code).toBe(b.code);
      expect(normalise(a.stdout)).toBe(normalise(b.stdout));
      expect(() => JSON.parse(a.stdout) as unknown).not.toThrow();
    }
    const a = await cli(['--sandbox', 'apply', EXAMPLE, '--yes', '--allow-review', '--json'], { env: {} });
    const b = await cli(['--sandbox', 'apply', EXAMPLE, '--yes', '--allow-review', '--format', 'json'], { env: {} });
    expect(a.code).toBe(b.code);
    expect(normalise(a.stdout)).toBe(normalise(b.stdout));
  });
});
