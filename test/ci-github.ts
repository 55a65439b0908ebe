// A GitHub Actions workflow run on this machine, as far as one can go without
// GitHub: the jobs of one event in order of `needs`, matrix legs expanded, job
// and step `if:` evaluated, `${{ … }}` filled in from the contexts the runner
// would give, each leg in a fresh clone of the repository, artifacts passed
// by upload-artifact and download-artifact, and every `run:` script run, as
// written, with bash. A checkout with a `path` clones the repository there at
// its `ref` (the pull request's base: `base`); actions/cache restores the
// newest entry of its key or restore-keys prefix from `cacheStore` and saves
// its paths there when the job ends (`!` paths left out); without a
// `cacheStore`, nothing is kept. Other actions (the workspace's checkout,
// setup-node, the JUnit report) do nothing here. A leg named in `lose` never
// reports, as a lost runner.

import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { parse } from 'yaml';
import { copyMatching, filesUnder, runScript } from './ci-fakes.js';
import { evaluate, interpolate, type Contexts } from './ci-expr.js';

/** One job leg's outcome: its exit code (that of the first failed step), `skipped`, or `lost`. */
export interface JobResult {
  job: string;
  leg: string;
  code: number | 'skipped' | 'lost';
  log: string;
  /** GitLab: whether later jobs count it as passed (allow_failure, a manual job not started). */
  ok?: boolean;
}

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}

interface Job {
  name?: string;
  if?: string;
  needs?: string | string[];
  strategy?: { matrix?: Record<string, unknown[]> };
  env?: Record<string, unknown>;
  steps: Step[];
}

/** A parsed workflow. */
export interface Workflow {
  on: Record<string, unknown>;
  env?: Record<string, unknown>;
  jobs: Record<string, Job>;
}

/** How to run: the event, the repository, where to work, and what the runner and the fakes provide. */
export interface GithubRunOptions {
  event: 'pull_request' | 'push' | 'schedule' | 'workflow_dispatch';
  repo: string;
  work: string;
  bin: string;
  vars: Record<string, string>;
  secrets: Record<string, string>;
  env: Record<string, string>;
  lose?: readonly string[];
  /** Run only these jobs, after `prior` (an earlier part of the same run, in the same `work`). */
  only?: readonly string[];
  prior?: readonly JobResult[];
  /** The pull request's base commit (github.event.pull_request.base.sha); default: the repository's main branch. */
  base?: string;
  /** Where actions/cache keeps its entries between runs; none kept without it. */
  cacheStore?: string;
  /** github.run_id: each run saves its caches under a key of its own. */
  runId?: number;
}

const withStatus = (expr: string): string => (/\b(always|success|failure|cancelled)\(\)/.test(expr) ? expr : `success() && (${expr})`);

/** Run every job of `workflow` for one event; one result per leg, in order. */
export async function runWorkflow(workflow: Workflow, o: GithubRunOptions): Promise<JobResult[]> {
  const results: JobResult[] = [...(o.prior ?? [])];
  const artifacts = join(o.work, 'artifacts');
  mkdirSync(artifacts, { recursive: true });
  const github = {
    event_name: o.event,
    repository: 'agency/brands',
    ref: o.event === 'pull_request' ? 'refs/pull/7/merge' : 'refs/heads/main',
    token: 'ghs_fake_token',
    run_id: String(o.runId ?? 1),
    run_attempt: '1',
    event: o.event === 'pull_request' ? { pull_request: { number: 7, base: { sha: o.base ?? execFileSync('git', ['-C', o.repo, 'rev-parse', 'main'], { encoding: 'utf8' }).trim() } } } : {},
  };
  for (const [id, job] of Object.entries(workflow.jobs)) {
    if (o.only !== undefined && !o.only.includes(id)) continue;
    const needs = typeof job.needs === 'string' ? [job.needs] : (job.needs ?? []);
    for (const n of needs) if (!results.some((r) => r.job === n)) throw new Error(`${id} needs ${n}, which comes later or not at all`);
    const needsOk = needs.every((n) => results.filter((r) => r.job === n).every((r) => r.code === 0));
    const matrix = job.strategy?.matrix ?? {};
    const keys = Object.keys(matrix);
    const legs: Record<string, unknown>[] = keys.length === 0 ? [{}] : (matrix[keys[0] as string] ?? []).map((v) => ({ [keys[0] as string]: v }));
    if (keys.length > 1) throw new Error(`${id}: this runner expands a matrix of one key`);
    // The legs of a matrix run at once, as on GitHub.
    const ran = legs.map((m): Promise<JobResult> => {
      const leg = keys.length === 0 ? id : `${id} (${Object.values(m).join(', ')})`;
      const ctx: Contexts = { github, matrix: m, vars: o.vars, secrets: o.secrets, needs: {}, steps: {} };
      const status = { failed: !needsOk };
      if (!evaluate(withStatus(job.if ?? 'true'), ctx, status)) return Promise.resolve({ job: id, leg, code: 'skipped', log: '' });
      if (o.lose?.includes(leg)) return Promise.resolve({ job: id, leg, code: 'lost', log: '' });
      return runLeg(workflow, job, leg, ctx, o, artifacts);
    });
    results.push(...(await Promise.all(ran)));
  }
  return results;
}

async function runLeg(workflow: Workflow, job: Job, leg: string, ctx: Contexts, o: GithubRunOptions, artifacts: string): Promise<JobResult> {
  const jobId = leg.replace(/\W+/g, '-');
  const ws = join(o.work, jobId, 'workspace');
  const tmp = join(o.work, jobId, 'runner');
  mkdirSync(tmp, { recursive: true });
  execFileSync('git', ['clone', '--quiet', o.repo, ws]);
  const summary = join(tmp, 'step-summary.md');
  writeFileSync(summary, '');
  const envOf = (map: Record<string, unknown> | undefined): Record<string, string> =>
    Object.fromEntries(Object.entries(map ?? {}).map(([k, v]) => [k, interpolate(String(v), ctx)]));
  let code = 0;
  let log = '';
  const status = { failed: false };
  /** The caches to save when the job ends, as actions/cache's post step does. */
  const saves: (() => void)[] = [];
  for (const [i, step] of job.steps.entries()) {
    if (!evaluate(withStatus(step.if ?? 'true'), ctx, status)) continue;
    const outputs: Record<string, string> = {};
    let stepCode = 0;
    if (step.run !== undefined) {
      const outFile = join(tmp, `output-${i}`);
      writeFileSync(outFile, '');
      const env = {
        ...o.env,
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_EVENT_NAME: o.event,
        GITHUB_REPOSITORY: 'agency/brands',
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_OUTPUT: outFile,
        RUNNER_TEMP: tmp,
        XDG_CACHE_HOME: join(tmp, 'cache'),
        ...envOf(workflow.env),
        ...envOf(job.env),
        ...envOf(step.env),
      };
      const r = await runScript(interpolate(step.run, ctx), ws, env);
      log += `--- ${step.name ?? step.run.split('\n')[0]}: exit ${r.code}\n${r.output}`;
      stepCode = r.code;
      for (const line of readFileSync(outFile, 'utf8').split('\n')) {
        const eq = line.indexOf('=');
        if (eq > 0) outputs[line.slice(0, eq)] = line.slice(eq + 1);
      }
    } else {
      stepCode = action(step, ctx, ws, artifacts, outputs, o, saves);
      log += `--- ${step.uses}: ${stepCode}\n`;
    }
    if (step.id !== undefined) (ctx.steps as Record<string, unknown>)[step.id] = { outputs };
    if (stepCode !== 0) {
      status.failed = true;
      if (code === 0) code = stepCode;
    }
  }
  for (const save of saves) save();
  return { job: leg.split(' ')[0] as string, leg, code, log };
}

/** The actions the recipes use; 0 or 1 as the step would end. */
function action(step: Step, ctx: Contexts, ws: string, artifacts: string, outputs: Record<string, string>, o: GithubRunOptions, saves: (() => void)[]): number {
  const uses = step.uses ?? '';
  const w = (k: string): string | undefined => (step.with?.[k] === undefined ? undefined : interpolate(String(step.with[k]), ctx));
  if (/^actions\/checkout@/.test(uses) && w('path') !== undefined) {
    const dir = join(ws, w('path') as string);
    execFileSync('git', ['clone', '--quiet', o.repo, dir]);
    const ref = w('ref') ?? '';
    if (ref !== '') execFileSync('git', ['-C', dir, 'checkout', '--quiet', '--detach', ref]);
    return 0;
  }
  if (/^actions\/cache@/.test(uses)) {
    if (o.cacheStore === undefined) return 0;
    const store = o.cacheStore;
    const lines = (w('path') ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
    const [paths, left] = [lines.filter((l) => !l.startsWith('!')), lines.filter((l) => l.startsWith('!')).map((l) => l.slice(1))];
    const key = w('key') as string;
    const prefixes = (w('restore-keys') ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
    const entries = existsSync(store) ? readdirSync(store).sort((a, b) => statSync(join(store, b)).mtimeMs - statSync(join(store, a)).mtimeMs) : [];
    const hit = entries.find((e) => e === key) ?? prefixes.map((p) => entries.find((e) => e.startsWith(p))).find((e) => e !== undefined);
    if (hit !== undefined) cpSync(join(store, hit), ws, { recursive: true });
    saves.push(() => {
      if (hit === key) return;
      for (const p of paths) if (existsSync(join(ws, p))) cpSync(join(ws, p), join(store, key, p), { recursive: true });
      for (const p of left) rmSync(join(store, key, p), { force: true, recursive: true });
    });
    return 0;
  }
  if (/^actions\/(checkout|setup-node)@/.test(uses) || /^mikepenz\/action-junit-report@/.test(uses)) return 0;
  if (/^actions\/upload-artifact@/.test(uses)) {
    const name = w('name') as string;
    const paths = (w('path') ?? '').split('\n').map((s) => s.trim()).filter(Boolean);
    const n = copyMatching(ws, paths, join(artifacts, name));
    outputs['artifact-url'] = `https://github.example/artifacts/${name}`;
    return n === 0 && w('if-no-files-found') === 'error' ? 1 : 0;
  }
  if (/^actions\/download-artifact@/.test(uses)) {
    const name = w('name');
    if (name !== undefined) return copyMatching(join(artifacts, name), ['*'], ws) === 0 ? 1 : 0;
    const pattern = new RegExp(`^${(w('pattern') ?? '*').replace(/\*/g, '.*')}$`);
    const names = [...new Set(filesUnder(artifacts).map((f) => f.split('/')[0] as string))].filter((n) => pattern.test(n));
    for (const n of names) copyMatching(join(artifacts, n), ['*'], join(ws, n));
    return 0;
  }
  throw new Error(`this runner does not know ${uses}`);
}

/** Read and parse a workflow file. */
export function readWorkflow(path: string): Workflow {
  return parse(readFileSync(path, 'utf8')) as Workflow;
}
