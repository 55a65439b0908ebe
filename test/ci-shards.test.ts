// The sharded CI recipes (examples/ci/github-actions-matrix.yml,
// examples/ci/gitlab-ci-parallel.yml) and the composite action (action.yml)
// are checked like the other recipes: every rcsctl command line goes through
// the real parser. The action's script is run with bash, inputs in its
// environment, and the argv it builds is parsed the same way.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE, ROOT } from './e2e/helpers.js';
import { acceptedIn, invocations, scripts } from './ci-shell.js';

const SCRIPT_KEYS = ['run', 'script'];

/** The shard variables of both CI systems, as a first job sees them. */
function shardValues(text: string): string {
  return text
    .replace(/\$\{\{\s*matrix\.shard\s*\}\}/g, '1')
    .replace(/\$CI_NODE_INDEX|\$SHARD\b/g, '1')
    .replace(/\$CI_NODE_TOTAL/g, '3');
}

let cwd: string;
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'rcsctl-ci-shards-'));
  cpSync(EXAMPLE, join(cwd, 'brands'), { recursive: true });
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** The real CLI accepts `argv`: it succeeds, stops at connecting, or (report merge) at reading a file not made here. */
const accepted = (argv: string[]) => acceptedIn(cwd, argv, { missingReports: true });

const read = (name: string): string => readFileSync(join(ROOT, name), 'utf8');

describe('sharded CI recipes', () => {
  for (const file of ['examples/ci/github-actions-matrix.yml', 'examples/ci/gitlab-ci-parallel.yml']) {
    it(`${file}: shards every plan, drift and apply, merges the reports, and every command line is valid`, async () => {
      const doc = parse(read(file)) as Record<string, unknown>;
      const calls = scripts(doc, SCRIPT_KEYS).flatMap((s) => invocations(shardValues(s)));
      const commands = new Set(calls.map((a) => a[0]));
      for (const c of ['validate', 'plan', 'apply', 'drift', 'report']) expect(commands, `${file} runs rcsctl ${c}`).toContain(c);
      // Validate too runs per shard: one brand's bad manifest fails its own shard, never all of them.
      for (const a of calls.filter((x) => x[0] === 'plan' || x[0] === 'drift' || x[0] === 'validate')) expect(a, a.join(' ')).toContain('--shard');
      // The verdict comes from a strict merge; the comment from one that shows what arrived.
      const merges = calls.filter((a) => a[0] === 'report' && a[1] === 'merge');
      expect(merges.some((a) => a.includes('--detailed-exitcode') && !a.includes('--allow-partial'))).toBe(true);
      expect(merges.some((a) => a.includes('--allow-partial') && a.join(' ').includes('--format markdown'))).toBe(true);
      expect(calls.filter((a) => a[0] === 'apply').every((a) => a.includes('--plan'))).toBe(true);
      expect(calls.some((a) => a[0] === 'report' && a[1] === 'merge' && a.join(' ').includes('--format junit'))).toBe(true);
      expect(calls.some((a) => a[0] === 'report' && a[1] === 'merge' && a.join(' ').includes('--format markdown'))).toBe(true);
      // One apply per shard at a time across pipelines.
      const apply = (doc.jobs as Record<string, Record<string, unknown>> | undefined)?.apply ?? (doc.apply as Record<string, unknown>);
      const group = file.includes('github') ? (apply.concurrency as { group: string }).group : (apply.resource_group as string);
      expect(group).toMatch(file.includes('github') ? /\$\{\{ matrix\.shard \}\}/ : /\$SHARD/);
      for (const argv of calls) {
        const r = await accepted(argv);
        expect(r.ok, `rcsctl ${argv.join(' ')}\n${r.why}`).toBe(true);
      }
    });
  }
});

describe('the composite action (action.yml)', () => {
  const action = parse(read('action.yml')) as { inputs: Record<string, { default?: string }>; runs: { using: string; steps: { id?: string; run?: string; uses?: string; env?: Record<string, string> }[] } };
  const step = action.runs.steps.find((s) => s.id === 'run');

  /** Run the action's script with `inputs` (defaults filled in); returns the argv it gave rcsctl, its exit code and output. */
  function runAction(inputs: Record<string, string>, rcsctlExit = 0): { argv: string[] | undefined; code: number; stdout: string; output: string } {
    const dir = mkdtempSync(join(tmpdir(), 'rcsctl-action-'));
    try {
      mkdirSync(join(dir, 'bin'));
      // A stand-in rcsctl that records its argv.
      writeFileSync(join(dir, 'bin', 'rcsctl.js'), `require('node:fs').writeFileSync(${JSON.stringify(join(dir, 'argv.json'))}, JSON.stringify(process.argv.slice(2))); process.exit(${rcsctlExit});\n`);
      writeFileSync(join(dir, 'package.json'), '{"type":"commonjs"}');
      chmodSync(join(dir, 'bin', 'rcsctl.js'), 0o755);
      const env: Record<string, string> = { PATH: process.env.PATH ?? '', GITHUB_ACTION_PATH: dir, GITHUB_OUTPUT: join(dir, 'out') };
      for (const [name, expr] of Object.entries(step?.env ?? {})) {
        const input = /inputs\.([\w-]+)/.exec(expr)?.[1] as string;
        env[name] = inputs[input] ?? action.inputs[input]?.default ?? '';
      }
      const r = spawnSync('bash', ['-e', '-c', step?.run ?? ''], { env, encoding: 'utf8' });
      let argv: string[] | undefined;
      try {
        argv = JSON.parse(readFileSync(join(dir, 'argv.json'), 'utf8')) as string[];
      } catch {
        argv = undefined;
      }
      let output = '';
      try {
        output = readFileSync(join(dir, 'out'), 'utf8');
      } catch {
        output = '';
      }
      return { argv, code: r.status ?? -1, stdout: r.stdout, output };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('caches npm\'s downloads under a key made from rcsctl\'s lockfile', () => {
    const keyStep = action.runs.steps.find((s) => s.id === 'npm-cache');
    const dir = mkdtempSync(join(tmpdir(), 'rcsctl-action-cache-'));
    try {
      const out = join(dir, 'out');
      const r = spawnSync('bash', ['-e', '-c', keyStep?.run ?? 'exit 1'], { env: { PATH: process.env.PATH ?? '', GITHUB_ACTION_PATH: ROOT, RUNNER_OS: 'Linux', GITHUB_OUTPUT: out, HOME: dir }, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const lock = createHash('sha256').update(readFileSync(join(ROOT, 'package-lock.json'))).digest('hex').slice(0, 32);
      expect(readFileSync(out, 'utf8')).toMatch(new RegExp(`^key=rcsctl-npm-Linux-${lock}\ndir=/.+\n$`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const steps = action.runs.steps as { uses?: string; with?: Record<string, string>; run?: string }[];
    const cache = steps.findIndex((s) => s.uses?.startsWith('actions/cache@') === true);
    const install = steps.findIndex((s) => s.run?.includes('npm ci') === true);
    expect(steps[cache]?.with).toEqual({ path: '${{ steps.npm-cache.outputs.dir }}', key: '${{ steps.npm-cache.outputs.key }}' });
    expect(cache).toBeLessThan(install);
    expect(steps[install]?.run).toContain('npm ci --prefer-offline');
  });

  it('is a composite action whose inputs reach the script only through its environment', () => {
    expect(action.runs.using).toBe('composite');
    expect(step?.run).not.toMatch(/\$\{\{/);
  });

  it('builds valid rcsctl command lines from its inputs', async () => {
    const cases: [Record<string, string>, string[]][] = [
      [{ command: 'plan', format: 'markdown', shard: '2/3', args: '--detailed-exitcode' }, ['plan', 'brands', '--format', 'markdown', '--shard', '2/3', '--detailed-exitcode']],
      [{ command: 'drift', format: 'junit', output: 'drift.xml' }, ['drift', 'brands', '--format', 'junit', '--output', 'drift.xml']],
      [{ command: 'apply', 'plan-file': 'plan.json' }, ['apply', '--plan', 'plan.json', '--yes']],
      [{ command: 'apply', yes: 'true', paths: 'brands', args: '--allow-review' }, ['apply', 'brands', '--yes', '--allow-review']],
      [{ command: 'validate' }, ['validate', 'brands']],
    ];
    for (const [inputs, expected] of cases) {
      const r = runAction(inputs);
      expect(r.code, r.stdout).toBe(0);
      expect(r.argv).toEqual(expected);
      expect(r.output).toBe('exit-code=0\n');
      const ok = await accepted(expected);
      expect(ok.ok, `rcsctl ${expected.join(' ')}\n${ok.why}`).toBe(true);
    }
  });

  it('passes 2 (changes, drift) on as an output, fails the step on 1, and refuses an unknown command', () => {
    expect(runAction({ command: 'drift' }, 2)).toMatchObject({ code: 0, output: 'exit-code=2\n' });
    expect(runAction({ command: 'plan' }, 1)).toMatchObject({ code: 1, output: 'exit-code=1\n' });
    const bad = runAction({ command: 'destroy' });
    expect(bad.code).toBe(1);
    expect(bad.argv).toBeUndefined();
    expect(bad.stdout).toContain('::error::rcsctl action: command must be validate, plan, drift or apply');
  });
});
