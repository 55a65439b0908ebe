// Every CI recipe in examples/ci/, run job by job on this machine against the
// emulator: each job's script as written, in a fresh clone of a temporary git
// repository of three brands (one per shard of 3), with the variables the CI
// service would set, `npx rcsctl` this checkout's CLI, and the comment APIs
// faked (gh on PATH; GitLab's notes API on 127.0.0.1, reached with curl).
// Each case's exit codes, job by job, must be the ones docs/ci.md's tables
// promise: clean, changes under review, drift on a schedule, one brand
// failing, one shard missing, a push to main, an apply that waited behind
// another, and an apply whose new plan holds a step nobody reviewed. A second
// pipeline edits the recipe's own marked comment.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeed, startEmulator, type RunningEmulator } from '../src/emulator/index.js';
import { withDeclaredBrands } from '../src/emulator/seed-brands.js';
import { shardOf } from '../src/plan/shard.js';
import { defaultSeedPath } from '../src/util/paths.js';
import { createClient } from '../src/api/index.js';
import { cli, ROOT, TOKEN } from './e2e/helpers.js';
import { GhComments, GitlabNotes, makeBin } from './ci-fakes.js';
import { readWorkflow, runWorkflow, type JobResult } from './ci-github.js';
import { readPipeline, runPipeline } from './ci-gitlab.js';

/** One brand per shard of 3, in shard order; the second is the one that fails or changes. */
const IDS = [1, 2, 3].map((s) => Array.from({ length: 60 }, (_, i) => `BR.cijob${String(i).padStart(5, '0')}`).find((id) => shardOf(id, 3) === s) as string);
const CHANGED = IDS[1] as string;
const CLIENT = { id: 'ci-client', secret: 'ci-secret' };
const NOTE_TOKEN = 'glpat-fake-note-token';
const MARKER = '<!-- rcsctl-plan -->';

const brandYaml = (id: string, description: string, messagebase = 'SCS00000') =>
  `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${id} }\nautoReplies:\n  hi: { name: Hi, messagebaseId: ${messagebase}, body: { description: "${description}" } }\n`;

/** A link shortener in a button of CHANGED's auto-reply: the change under review breaks two of the shipped policy rules. */
const SHORT_LINK = 'https://bit.ly/acme7';
const withShortLink = (id: string): string =>
  `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${id} }\nautoReplies:\n  hi:\n    name: Hi\n    messagebaseId: SCS00000\n    body: { description: "Hello again" }\n    buttons:\n      - suggestions:\n          - action:\n              displayText: Our shop\n              urlAction: { openUrl: { url: "${SHORT_LINK}" } }\n`;

/**
 * The shipped rules (examples/policies/agency.yaml), as an agency keeps them under brands/, with the
 * welcome auto-reply rule a warning (no brand here has one: every brand breaks it, and no job may fail for it);
 * `excepted`: both link rules lifted for CHANGED, with a reason.
 */
function policyRules(excepted: boolean): string {
  let text = readFileSync(join(ROOT, 'examples', 'policies', 'agency.yaml'), 'utf8');
  const welcome = "    check: brand\n    expression: \"'welcome' in brand.autoReplies\"\n";
  expect(text, 'the shipped rules have the welcome auto-reply rule').toContain(welcome);
  text = text.replace(welcome, `    severity: warning\n${welcome}`);
  expect(text.split('    check: value\n'), 'the shipped rules have two value rules (the domains, the shorteners)').toHaveLength(3);
  if (excepted) text = text.replaceAll('    check: value\n', `    exceptions:\n      - { brand: ${CHANGED}, reason: "the client's printed flyers carry this link until March" }\n    check: value\n`);
  return text;
}

let root: string;
let bin: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'rcsctl-ci-jobs-'));
  bin = makeBin(join(root, 'bin'));
});
// Every case leaves clones, artifacts and caches to remove: on a busy machine that takes a while.
afterAll(() => rmSync(root, { recursive: true, force: true }), 120_000);

let repos = 0;
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'ci', GIT_AUTHOR_EMAIL: 'ci@example.com', GIT_COMMITTER_NAME: 'ci', GIT_COMMITTER_EMAIL: 'ci@example.com' };

/**
 * A git repository of the three brands; `variant` changes CHANGED's description
 * or breaks its manifest (`broken-and-changed`: and changes the first brand's).
 */
function repo(variant: 'main' | 'changed' | 'changed-again' | 'broken' | 'broken-and-changed' | 'policy' | 'policy-excepted'): string {
  const dir = join(root, `repo-${++repos}`);
  if (variant.startsWith('policy')) {
    mkdirSync(join(dir, 'brands', 'policies'), { recursive: true });
    writeFileSync(join(dir, 'brands', 'policies', 'agency.yaml'), policyRules(variant === 'policy-excepted'));
  }
  for (const id of IDS) {
    mkdirSync(join(dir, 'brands', id), { recursive: true });
    let text = brandYaml(id, `Hello from ${id}`);
    if (id === CHANGED && variant.startsWith('policy')) text = withShortLink(id);
    else if (id === CHANGED && variant.startsWith('broken')) text = brandYaml(id, `Hello from ${id}`, '12');
    else if (id === CHANGED && variant.startsWith('changed')) text = brandYaml(id, variant === 'changed' ? 'Hello again' : 'Hello once more');
    else if (id === IDS[0] && variant === 'broken-and-changed') text = brandYaml(id, 'Hello from main');
    writeFileSync(join(dir, 'brands', id, 'brand.yaml'), text);
  }
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', dir], { env: GIT_ENV });
  execFileSync('git', ['-C', dir, 'add', '.'], { env: GIT_ENV });
  execFileSync('git', ['-C', dir, 'commit', '--quiet', '-m', variant], { env: GIT_ENV });
  return dir;
}

/** An emulator holding the three brands, with an API client for the CI's credentials; `converged`: live equals the main manifests. */
async function service(converged: boolean): Promise<RunningEmulator> {
  const { seed } = withDeclaredBrands(loadSeed(defaultSeedPath()), IDS.map((brandId) => ({ brandId })), TOKEN);
  const master = seed.accounts.find((a) => a.token === TOKEN);
  if (master === undefined) throw new Error('the seed has no master account');
  Object.assign(master, { clientId: CLIENT.id, clientSecret: CLIENT.secret });
  const emu = await startEmulator({ port: 0, seed });
  if (converged) {
    const r = await cli(['apply', join(repo('main'), 'brands'), '--yes'], { emu });
    expect(r.code, r.stderr).toBe(0);
  }
  return emu;
}

/** The exit-code table of `recipe` in docs/ci.md: case → job → the legs' codes (`—` not run). */
function documented(recipe: string): Map<string, Map<string, string>> {
  const doc = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');
  const at = doc.indexOf(`Exit codes of \`${recipe}\``);
  expect(at, `docs/ci.md has the exit codes of ${recipe}`).toBeGreaterThan(0);
  const lines = doc.slice(at).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const rows = lines.slice(start).filter((l, i, all) => all.slice(0, i + 1).every((x) => x.startsWith('|')));
  const cells = (l: string) => l.split('|').slice(1, -1).map((c) => c.trim().replace(/`/g, ''));
  const head = cells(rows[0] as string).slice(1);
  return new Map(rows.slice(2).map((r) => {
    const [name, ...codes] = cells(r);
    return [name as string, new Map(head.map((h, i) => [h, codes[i] as string]))];
  }));
}

/** What the table shows for `results`: per job, its legs' codes in order, `—` if none ran. */
function shown(results: readonly JobResult[], jobs: readonly string[]): Map<string, string> {
  return new Map(jobs.map((j) => {
    const legs = results.filter((r) => r.job === j);
    if (legs.every((r) => r.code === 'skipped')) return [j, '—'];
    return [j, legs.map((r) => (r.code === 'skipped' ? '—' : String(r.code))).join(' ')];
  }));
}

const logs = (results: readonly JobResult[]) => results.map((r) => `== ${r.leg}: ${r.code}\n${r.log}`).join('\n');

type Event = 'request' | 'schedule' | 'push';

interface Runner {
  /** Run the recipe for `event` on `repoDir` against `emu`; `lose`: a leg that never reports. */
  run(emu: RunningEmulator, repoDir: string, event: Event, opts?: { lose?: string; only?: string[]; prior?: JobResult[]; work?: string }): Promise<JobResult[]>;
  comments(): { body: string; author: string }[];
  calls(): { method: string }[];
  addForeign(body: string): void;
}

type RunOpts = Parameters<Runner['run']>[3] & {};

/** A lost leg, and the part of a run to do now (both runners take them alike). */
function partOfRun(opts: RunOpts): { lose?: string[]; only?: string[]; prior?: JobResult[] } {
  return {
    ...(opts.lose !== undefined ? { lose: [opts.lose] } : {}),
    ...(opts.only !== undefined ? { only: opts.only } : {}),
    ...(opts.prior !== undefined ? { prior: opts.prior } : {}),
  };
}

function github(file: string): Runner {
  const wf = readWorkflow(join(ROOT, 'examples', 'ci', file));
  const gh = new GhComments(join(root, `gh-${file}.json`));
  return {
    run: (emu, repoDir, event, opts = {}) =>
      runWorkflow(wf, {
        event: event === 'request' ? 'pull_request' : event,
        repo: repoDir,
        work: opts.work ?? mkdtempSync(join(root, 'gh-run-')),
        bin,
        vars: { RCSCTL_BASE_URL: emu.url },
        secrets: { RCSCTL_CLIENT_ID: CLIENT.id, RCSCTL_CLIENT_SECRET: CLIENT.secret },
        env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: root, FAKE_GH_STATE: gh.file },
        ...partOfRun(opts),
      }),
    comments: () => gh.comments(),
    calls: () => gh.calls(),
    addForeign: (body) => gh.add(body, 'github-actions[bot]'),
  };
}

function gitlab(file: string, notes: GitlabNotes): Runner {
  const doc = readPipeline(join(ROOT, 'examples', 'ci', file));
  return {
    run: (emu, repoDir, event, opts = {}) =>
      runPipeline(doc, {
        source: event === 'request' ? 'merge_request_event' : event,
        repo: repoDir,
        work: opts.work ?? mkdtempSync(join(root, 'gl-run-')),
        env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: root },
        variables: { RCSCTL_BASE_URL: emu.url, RCSCTL_CLIENT_ID: CLIENT.id, RCSCTL_CLIENT_SECRET: CLIENT.secret, RCSCTL_NOTE_TOKEN: NOTE_TOKEN, CI_API_V4_URL: notes.url },
        manual: ['apply'],
        ...partOfRun(opts),
      }),
    comments: () => notes.notes,
    calls: () => notes.calls,
    addForeign: (body) => notes.add(body, 'other_bot'),
  };
}

interface Recipe {
  file: string;
  jobs: string[];
  /** The jobs of a push to main, before and after the approval. */
  planJob: string;
  applyJob: string;
  sharded: boolean;
  /** The leg a lost runner takes away: the second shard's check. */
  lostLeg?: string;
  runner: (notes: GitlabNotes) => Runner;
}

const RECIPES: Recipe[] = [
  { file: 'github-actions.yml', jobs: ['plan-pr', 'plan-main', 'apply', 'drift'], planJob: 'plan-main', applyJob: 'apply', sharded: false, runner: () => github('github-actions.yml') },
  { file: 'github-actions-matrix.yml', jobs: ['check', 'report', 'plan-main', 'apply'], planJob: 'plan-main', applyJob: 'apply', sharded: true, lostLeg: 'check (2)', runner: () => github('github-actions-matrix.yml') },
  { file: 'gitlab-ci.yml', jobs: ['plan:merge-request', 'plan:main', 'apply', 'drift'], planJob: 'plan:main', applyJob: 'apply', sharded: false, runner: (notes) => gitlab('gitlab-ci.yml', notes) },
  { file: 'gitlab-ci-parallel.yml', jobs: ['plan:shard', 'report:merge', 'plan:main', 'apply'], planJob: 'plan:main', applyJob: 'apply', sharded: true, lostLeg: 'plan:shard 2/3', runner: (notes) => gitlab('gitlab-ci-parallel.yml', notes) },
];

// The four recipes run at once, each against its own emulator, comment store and
// repositories (nothing they touch is shared but the read-only bin directory);
// within a recipe the cases run in order, as its comment carries from one to the next.
for (const recipe of RECIPES) {
  describe.concurrent(`${recipe.file}, job by job`, () => {
    let emu: RunningEmulator;
    let runner: Runner;
    let table: Map<string, Map<string, string>>;
    // Per recipe: a merge request's notes, which the API hands out two a page.
    const notes = new GitlabNotes(NOTE_TOKEN, 2);
    beforeAll(async () => {
      await notes.start();
      emu = await service(true);
      runner = recipe.runner(notes);
      // A discussion before the first pipeline: the recipe's comment lands on a later page.
      for (const n of [1, 2, 3]) runner.addForeign(`review comment ${n}`);
      table = documented(recipe.file);
    });
    afterAll(async () => {
      await emu?.close();
      await notes.close();
    });

    const expectRow = (row: string, results: JobResult[]) => {
      const want = table.get(row);
      expect(want, `docs/ci.md has the row "${row}" for ${recipe.file}`).toBeDefined();
      expect(shown(results, recipe.jobs), `${row}\n${logs(results)}`).toEqual(want);
    };

    /** The recipe's own comment, as the last request left it. */
    const mine = () => runner.comments().find((c) => c.body.startsWith(MARKER))?.body ?? '';
    const cases: [string, () => Promise<JobResult[]>, (() => void)?][] = [
      ['clean', () => runner.run(emu, repo('main'), 'request')],
      ['changes under review', () => runner.run(emu, repo('changed'), 'request'), () => expect(mine()).toContain('Hello again')],
      ['drift on a schedule', () => runner.run(emu, repo('changed'), 'schedule')],
      // The comment still comes, and names the brand that failed.
      ['one brand failing', () => runner.run(emu, repo('broken'), 'request'), () => expect(mine()).toMatch(new RegExp(`${CHANGED}[^\\n]*fail|fail[^\\n]*${CHANGED}`, 'i'))],
    ];
    // A policy rule broken by the change (the shipped link rules; the welcome rule a warning): the comment names
    // each rule, its message, the value's file and line and the rule's; the error fails the job, the warning does not.
    const lineIn = (file: string, needle: string): number => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(needle)) + 1;
    const policyRepo = (variant: 'policy' | 'policy-excepted') => {
      const dir = repo(variant);
      const rules = join(dir, 'brands', 'policies', 'agency.yaml');
      return {
        dir,
        url: lineIn(join(dir, 'brands', CHANGED, 'brand.yaml'), SHORT_LINK),
        rule: (name: string) => lineIn(rules, `name: ${name}`),
      };
    };
    const subject = '/autoReplies/hi/buttons/0/suggestions/0/action/urlAction/openUrl/url';
    let broken: ReturnType<typeof policyRepo>;
    let excepted: ReturnType<typeof policyRepo>;
    const warned = (r: ReturnType<typeof policyRepo>) => {
      for (const id of IDS) expect(mine()).toContain(`- ⚠️ **policy \`welcome-auto-reply\`**: the brand has no \`welcome\` auto-reply (\`brands/${id}/brand.yaml:3\`; rule at \`brands/policies/agency.yaml:${r.rule('welcome-auto-reply')}\`)`);
    };
    cases.push([
      'a policy rule broken',
      () => runner.run(emu, (broken = policyRepo('policy')).dir, 'request'),
      () => {
        const body = mine();
        expect(body).toContain(`- ❌ **policy \`no-link-shorteners\`** \`${subject}\`: a link shortener hides where the link goes; link to the page itself (\`brands/${CHANGED}/brand.yaml:${broken.url}\`; rule at \`brands/policies/agency.yaml:${broken.rule('no-link-shorteners')}\`)`);
        expect(body).toContain(`- ❌ **policy \`allowed-url-domains\`** \`${subject}\`: a link outside the allowed domains (example.com): ${SHORT_LINK} (\`brands/${CHANGED}/brand.yaml:${broken.url}\`; rule at \`brands/policies/agency.yaml:${broken.rule('allowed-url-domains')}\`)`);
        expect(body).toContain('**Policy rules broken: nothing is applied for this brand.**');
        // The table alone says why the brand fails.
        expect(body).toContain(`| \`${CHANGED}\` (brands/${CHANGED}) | 0 | 1 | 0 | 0 | 0 | 0 | ❌ policy: allowed-url-domains, no-link-shorteners; ⚠️ policy: welcome-auto-reply |`);
        warned(broken);
      },
    ]);
    // The same change, with both link rules excepted for that brand (a reason given): only the warnings remain, and no job fails.
    cases.push([
      'a policy rule excepted',
      () => runner.run(emu, (excepted = policyRepo('policy-excepted')).dir, 'request'),
      () => {
        const body = mine();
        expect(body).toContain(SHORT_LINK);
        expect(body).not.toContain('❌ **policy');
        expect(body).not.toContain('❌ policy');
        expect(body).not.toContain('nothing is applied');
        expect(body).not.toContain('no-link-shorteners');
        expect(body).not.toContain('allowed-url-domains');
        warned(excepted);
      },
    ]);
    // The comment still comes, from the shards that reported, and says which one did not.
    if (recipe.sharded) cases.push(['one shard missing', () => runner.run(emu, repo('main'), 'request', { lose: recipe.lostLeg as string }), () => expect(mine()).toContain('shard 2/3 is missing')]);
    for (const [row, run, check] of cases) {
      it.sequential(row, async () => {
        expectRow(row, await run());
        check?.();
      }, 180_000);
    }

    it.sequential('a second pipeline edits the comment the recipe marked as its own, not another one', async () => {
      runner.addForeign('## Another workflow\nits own plan');
      const before = runner.calls().length;
      const had = runner.comments().some((c) => c.body.startsWith(MARKER));
      expectRow('clean', await runner.run(emu, repo('main'), 'request'));
      expectRow('changes under review', await runner.run(emu, repo('changed'), 'request'));
      const mine = runner.comments().filter((c) => c.body.startsWith(MARKER));
      expect(mine).toHaveLength(1);
      expect(mine[0]?.body).toContain('Hello again');
      expect(runner.comments().filter((c) => !c.body.startsWith(MARKER)).map((c) => c.body)).toEqual(['review comment 1', 'review comment 2', 'review comment 3', '## Another workflow\nits own plan']);
      const writes = runner.calls().slice(before).filter((c) => c.method !== 'GET').map((c) => c.method);
      // The first pipeline makes the comment unless an earlier case did; later ones edit it.
      const [post, edit] = recipe.file.startsWith('github') ? ['POST', 'PATCH'] : ['POST', 'PUT'];
      expect(writes).toEqual([had ? edit : post, edit]);
    }, 180_000);

    it.sequential('push to main, then an apply that waited behind another plans again', async () => {
      const fresh = await service(true);
      try {
        const first = repo('changed');
        const second = repo('changed-again');
        const w1 = mkdtempSync(join(root, 'push-1-'));
        const w2 = mkdtempSync(join(root, 'push-2-'));
        // Both pipelines plan before either applies; the first apply makes the second's reviewed plan stale.
        const p1 = await runner.run(fresh, first, 'push', { only: [recipe.planJob], work: w1 });
        const p2 = await runner.run(fresh, second, 'push', { only: [recipe.planJob], work: w2 });
        const a1 = await runner.run(fresh, first, 'push', { only: [recipe.applyJob], prior: p1, work: w1 });
        expectRow('push to main', a1);
        const a2 = await runner.run(fresh, second, 'push', { only: [recipe.applyJob], prior: p2, work: w2 });
        expectRow('apply queued behind another', a2);
        const after = await cli(['plan', join(second, 'brands'), '--detailed-exitcode'], { emu: fresh });
        expect(after.code, after.stdout).toBe(0);
      } finally {
        await fresh.close();
      }
    }, 240_000);

    it.sequential('push to main, then a step nobody reviewed: the apply refuses it and sends nothing for that brand', async () => {
      const fresh = await service(true);
      const client = createClient({ baseUrl: fresh.url, credentials: { token: TOKEN } });
      try {
        const pushed = repo('changed');
        const work = mkdtempSync(join(root, 'push-unreviewed-'));
        const planned = await runner.run(fresh, pushed, 'push', { only: [recipe.planJob], work });
        // After the review, someone deletes the third brand's auto-reply: the apply's new plan would create it again.
        const third = IDS[2] as string;
        let id: string | undefined;
        for await (const item of client.autoReplies.list({ id: third })) if (item.autoReplyMsgName === 'Hi') id = item.autoReplyMsgId;
        await client.autoReplies.delete({ id: third }, id as string);
        expectRow('a step nobody reviewed', await runner.run(fresh, pushed, 'push', { only: [recipe.applyJob], prior: planned, work }));
        // It was not created again.
        const after = await cli(['plan', join(pushed, 'brands'), '--brand', third, '--detailed-exitcode'], { emu: fresh });
        expect(after.code, after.stdout).toBe(2);
      } finally {
        await client.close();
        await fresh.close();
      }
    }, 240_000);

    it.sequential('push to main with one brand failing: the other brands are still applied', async () => {
      const fresh = await service(true);
      try {
        const pushed = repo('broken-and-changed');
        const work = mkdtempSync(join(root, 'push-broken-'));
        const planned = await runner.run(fresh, pushed, 'push', { only: [recipe.planJob], work });
        expectRow('one brand failing, on main', await runner.run(fresh, pushed, 'push', { only: [recipe.applyJob], prior: planned, work }));
        const first = await cli(['plan', join(pushed, 'brands'), '--brand', IDS[0] as string, '--detailed-exitcode'], { emu: fresh });
        expect(first.code, first.stdout).toBe(0);
      } finally {
        await fresh.close();
      }
    }, 240_000);
  });
}
