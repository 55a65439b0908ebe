// A GitLab CI pipeline run on this machine, as far as one can go without
// GitLab: the jobs that `rules:` put in the pipeline for its source, stage by
// stage (or after their `needs`), `parallel:` and `parallel: matrix:` legs
// expanded, `when:` (on_success, always, manual) and `allow_failure:`
// honoured, artifacts passed on (`when: always` uploads after a failure too),
// and `before_script:` with `script:`, then `after_script:`, run, as written,
// with bash in a fresh clone of the repository. `cache:` (the job's, else the
// default's) is restored from `cacheStore` before the scripts and saved there
// after them, by its key with the job's variables filled in; without a
// `cacheStore`, nothing is kept. A leg named in `lose` never reports.

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { copyMatching, runScript } from './ci-fakes.js';
import { evaluate } from './ci-expr.js';
import type { JobResult } from './ci-github.js';

interface Rule {
  if?: string;
  when?: string;
}

interface GitlabJob {
  stage?: string;
  rules?: Rule[];
  needs?: string[];
  parallel?: number | { matrix: Record<string, string[]>[] };
  script: string[];
  before_script?: string[];
  after_script?: string[];
  cache?: { key: string; paths: string[] };
  variables?: Record<string, string>;
  allow_failure?: boolean;
  artifacts?: { when?: string; paths?: string[] };
}

const RESERVED = new Set(['default', 'variables', 'stages', 'include', 'workflow', 'image', 'services', 'cache', 'before_script', 'after_script']);

/** How to run: the pipeline source, the repository, where to work, the CI/CD variables, and manual jobs to start. */
export interface GitlabRunOptions {
  source: 'merge_request_event' | 'push' | 'schedule' | 'web';
  repo: string;
  work: string;
  /** PATH and the like: what the image provides. */
  env: Record<string, string>;
  /** The project's CI/CD variables. */
  variables: Record<string, string>;
  manual?: readonly string[];
  lose?: readonly string[];
  /** Run only these jobs, after `prior` (an earlier part of the same pipeline, in the same `work`). */
  only?: readonly string[];
  prior?: readonly JobResult[];
  /** Where `cache:` keeps its entries between pipelines; none kept without it. */
  cacheStore?: string;
}

/** Run the pipeline `doc` for one source; one result per leg, stage by stage. `manual` is the code of a manual job not started. */
export async function runPipeline(doc: Record<string, unknown>, o: GitlabRunOptions): Promise<JobResult[]> {
  const stages = (doc.stages as string[] | undefined) ?? ['build', 'test', 'deploy'];
  const jobs = Object.entries(doc).filter(([k]) => !RESERVED.has(k) && !k.startsWith('.')) as [string, GitlabJob][];
  const predefined: Record<string, string> = {
    CI: 'true',
    GITLAB_CI: 'true',
    CI_PIPELINE_SOURCE: o.source,
    CI_DEFAULT_BRANCH: 'main',
    CI_PROJECT_ID: '42',
    CI_JOB_URL: 'https://gitlab.example/agency/brands/-/jobs/1',
    ...(o.source === 'merge_request_event' ? { CI_MERGE_REQUEST_IID: '7', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main' } : { CI_COMMIT_BRANCH: 'main' }),
  };
  const globals = { ...predefined, ...((doc.variables as Record<string, string>) ?? {}), ...o.variables };
  const artifacts = join(o.work, 'artifacts');
  const ordered = stages.flatMap((s, n) => jobs.filter(([, j]) => (j.stage ?? 'test') === s).map(([id, j]) => [id, j, n] as const));
  if (ordered.length !== jobs.length) throw new Error('a job has a stage the pipeline does not list');
  const stageOf = (job: string): number => ordered.find(([id]) => id === job)?.[2] ?? -1;
  const results: (JobResult & { stage: number; ok: boolean })[] = (o.prior ?? []).map((r) => ({ ...r, stage: stageOf(r.job), ok: r.ok ?? r.code === 0 }));
  for (const [id, job, stage] of ordered) {
    if (o.only !== undefined && !o.only.includes(id)) continue;
    const rule = (job.rules ?? [{}]).find((r) => r.if === undefined || evaluate(r.if, { env: globals }));
    const legs = expand(job);
    if (rule === undefined) {
      for (const l of legs) results.push({ job: id, leg: l.name(id), code: 'skipped', log: '', stage, ok: true });
      continue;
    }
    const before = job.needs !== undefined ? results.filter((r) => job.needs?.includes(r.job)) : results.filter((r) => r.stage < stage);
    for (const n of job.needs ?? []) if (!results.some((r) => r.job === n)) throw new Error(`${id} needs ${n}, which is not before it`);
    const upstreamOk = before.every((r) => r.ok);
    const when = rule.when ?? 'on_success';
    // The legs of a parallel job run at once, as on GitLab.
    const ran = legs.map(async (l): Promise<(typeof results)[number]> => {
      const leg = l.name(id);
      if ((when !== 'always' && !upstreamOk) || (when === 'manual' && !(o.manual ?? []).includes(id))) {
        return { job: id, leg, code: 'skipped', log: '', stage, ok: when === 'manual' };
      }
      if (o.lose?.includes(leg)) return { job: id, leg, code: 'lost', log: '', stage, ok: job.allow_failure === true };
      const dir = join(o.work, leg.replace(/\W+/g, '-'));
      execFileSync('git', ['clone', '--quiet', o.repo, dir]);
      for (const b of before) copyMatching(join(artifacts, b.leg.replace(/\W+/g, '-')), ['*'], dir);
      const vars = { ...globals, ...(job.variables ?? {}), ...l.vars };
      const defaults = (doc.default as Pick<GitlabJob, 'before_script' | 'after_script' | 'cache'> | undefined) ?? {};
      const script = [...(job.before_script ?? defaults.before_script ?? []), ...job.script].join('\n');
      const env = { ...o.env, ...vars, XDG_CACHE_HOME: join(dir, '.runner-cache') };
      const cache = job.cache ?? defaults.cache;
      const key = cache === undefined || o.cacheStore === undefined ? undefined : join(o.cacheStore, cache.key.replace(/\$(\w+)/g, (_, n: string) => env[n as keyof typeof env] ?? ''));
      if (key !== undefined && existsSync(key)) cpSync(key, dir, { recursive: true });
      const r = await runScript(script, dir, env);
      const after = job.after_script ?? defaults.after_script;
      if (after !== undefined) r.output += (await runScript(after.join('\n'), dir, env)).output;
      if (key !== undefined) {
        // A saved cache replaces the key's entry whole.
        rmSync(key, { recursive: true, force: true });
        for (const p of cache?.paths ?? []) if (existsSync(join(dir, p))) cpSync(join(dir, p), join(key, p), { recursive: true });
      }
      if (r.code === 0 || job.artifacts?.when === 'always') copyMatching(dir, job.artifacts?.paths ?? [], join(artifacts, leg.replace(/\W+/g, '-')));
      return { job: id, leg, code: r.code, log: r.output, stage, ok: r.code === 0 || job.allow_failure === true };
    });
    results.push(...(await Promise.all(ran)));
  }
  return results.map(({ job, leg, code, log, ok }) => ({ job, leg, code, log, ok }));
}

function expand(job: GitlabJob): { name: (id: string) => string; vars: Record<string, string> }[] {
  const p = job.parallel;
  if (p === undefined) return [{ name: (id) => id, vars: {} }];
  if (typeof p === 'number') {
    return Array.from({ length: p }, (_, i) => ({ name: (id: string) => `${id} ${i + 1}/${p}`, vars: { CI_NODE_INDEX: String(i + 1), CI_NODE_TOTAL: String(p) } }));
  }
  return p.matrix.flatMap((m) => {
    const [k, values] = Object.entries(m)[0] as [string, string[]];
    return values.map((v) => ({ name: (id: string) => `${id}: [${v}]`, vars: { [k]: v } }));
  });
}

/** Read and parse a pipeline file. */
export function readPipeline(path: string): Record<string, unknown> {
  return parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}
