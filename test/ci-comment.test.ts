// The pull-request comment of every CI recipe in examples/ci/ fits (issue 38):
// each recipe run job by job, as test/ci-jobs.test.ts runs them, on a
// 40-brand repository, with the comment APIs faked. A change to every brand
// (12 auto-replies each, every description rewritten) is far more than
// GitHub's 65,536 characters in full: the posted comment stays within that,
// is well-formed Markdown (every <details> and fence closed), and says what
// it left out and where the full report is. A clean request's comment is a
// few lines, not a table of 40 brands of zeros.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeed, startEmulator, type RunningEmulator } from '../src/emulator/index.js';
import { withDeclaredBrands } from '../src/emulator/seed-brands.js';
import { defaultSeedPath } from '../src/util/paths.js';
import { admin, cli, ROOT, TOKEN } from './e2e/helpers.js';
import { filesUnder, GhComments, GitlabNotes, makeBin } from './ci-fakes.js';
import { readWorkflow, runWorkflow } from './ci-github.js';
import { readPipeline, runPipeline } from './ci-gitlab.js';

const IDS = Array.from({ length: 40 }, (_, i) => `BR.cicmt${String(i).padStart(5, '0')}`);
const REPLIES = 12;
const CLIENT = { id: 'ci-client', secret: 'ci-secret' };
const NOTE_TOKEN = 'glpat-fake-note-token';
const MARKER = '<!-- rcsctl-plan -->';
const GITHUB_LIMIT = 65_536;
/** The brand a colleague edits in the console while the request is open. */
const EDITED = IDS[39] as string;
/** The brand whose change puts a link shortener in a reply, against the repository's policy rule: its block is one the budget would cut, ordered by id. */
const SHORTENED = IDS[33] as string;
const SHORT_LINK = 'https://bit.ly/acme7';

/** The shipped rule against link shorteners (examples/policies/agency.yaml), alone: the repository's policy. */
function shortenerRule(): string {
  const shipped = readFileSync(join(ROOT, 'examples', 'policies', 'agency.yaml'), 'utf8');
  const rule = /^ {2}- name: no-link-shorteners\n(?: {4}.*\n)+/m.exec(shipped)?.[0];
  if (rule === undefined) throw new Error('the shipped rules have no no-link-shorteners rule');
  return `apiVersion: rcsctl/v1\nkind: Policy\nrules:\n${rule}`;
}

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'ci', GIT_AUTHOR_EMAIL: 'ci@example.com', GIT_COMMITTER_NAME: 'ci', GIT_COMMITTER_EMAIL: 'ci@example.com' };

const root = mkdtempSync(join(tmpdir(), 'rcsctl-ci-comment-'));
let bin: string;
let repos = 0;

/** Write the 40 brands' manifests under `dir`/brands; `text` is every auto-reply's description, with its brand's id in it unless `shared` (the same text in every brand, as a shared base gives). */
function writeBrands(dir: string, text: string, ids: readonly string[] = IDS, shared = false): void {
  for (const id of ids) {
    mkdirSync(join(dir, 'brands', id), { recursive: true });
    const replies = Array.from({ length: REPLIES }, (_, i) => `  r${i}: { name: "Reply ${i}", messagebaseId: SCS00000, body: { description: "${text} (${shared ? '' : `${id}, `}reply ${i})" } }`);
    writeFileSync(join(dir, 'brands', id, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${id} }\nautoReplies:\n${replies.join('\n')}\n`);
  }
}

/** A git repository of the 40 brands as main holds them; with `text`, the request's branch (checked out) sets every description to it; `shared`: the same texts in every brand. */
function repo(text = MAIN, shared = false): string {
  const dir = join(root, `repo-${++repos}`);
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { env: GIT_ENV });
  writeBrands(dir, MAIN, IDS, shared);
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', dir], { env: GIT_ENV });
  git('add', '.');
  git('commit', '--quiet', '-m', 'main');
  git('checkout', '--quiet', '-b', 'request');
  if (text !== MAIN) {
    writeBrands(dir, text, IDS, shared);
    if (!shared) {
      // One brand's change also breaks the repository's rule against link shorteners.
      const file = join(dir, 'brands', SHORTENED, 'brand.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('reply 0)"', `reply 0) ${SHORT_LINK}"`));
      mkdirSync(join(dir, 'brands', 'policies'));
      writeFileSync(join(dir, 'brands', 'policies', 'links.yaml'), shortenerRule());
      git('add', '.');
    }
    git('commit', '--quiet', '-am', text.slice(0, 20));
  }
  return dir;
}

/** The requests the emulator served since the last call. */
async function served(emu: RunningEmulator): Promise<number> {
  const log = (await admin(emu, 'GET', 'requests')) as { requests: unknown[] };
  await admin(emu, 'DELETE', 'requests');
  return log.requests.length;
}

/** A colleague's fix in the console: one auto-reply of the last brand says something else live. */
async function consoleEdit(emu: RunningEmulator, text: string): Promise<void> {
  const dir = mkdtempSync(join(root, 'console-'));
  writeBrands(dir, text, [EDITED]);
  const r = await cli(['apply', join(dir, 'brands'), '--yes', '--no-cache'], { emu });
  expect(r.code, r.stderr).toBe(0);
}

const MAIN = 'Welcome to our shop: opening hours are Monday to Friday, nine to six; on weekends we answer within a day.';
const CHANGED = 'Welcome! Our new opening hours, from the first of next month: Monday to Saturday, eight to eight, holidays closed.';

/** With RCSCTL_CI_COMMENT_OUT set, the comments are written there (docs/ci.md shows them), named by recipe and case. */
function keep(name: string, body: string): void {
  const dir = process.env.RCSCTL_CI_COMMENT_OUT;
  if (dir !== undefined && dir !== '') writeFileSync(join(dir, `${name}.md`), body);
}

/** Well-formed: every <details> closed, every fence closed, nothing cut mid-line. */
function expectWellFormed(body: string): void {
  expect(body.match(/<details>/g)?.length ?? 0).toBe(body.match(/<\/details>/g)?.length ?? 0);
  expect(body.split('\n').filter((l) => l.startsWith('```')).length % 2).toBe(0);
  expect(body.endsWith('\n')).toBe(true);
}

interface Recipe {
  file: string;
  run(emu: RunningEmulator, repoDir: string): Promise<unknown>;
  comment(): string;
  /** Where the recipe says the full report is. */
  full: RegExp;
  /** One `report merge` of plan and drift: the drift that is the plan's changes is not repeated. */
  combined: boolean;
  /** Where the CI service keeps the recipe's caches between runs. */
  cacheStore: string;
}

beforeAll(() => {
  bin = makeBin(join(root, 'bin'));
});
// The runs leave many clones and caches to remove.
afterAll(() => rmSync(root, { recursive: true, force: true }), 120_000);

/** An emulator of the 40 brands with the CI's client credentials, applied from `repoDir` (main's texts). */
async function service(repoDir: string): Promise<RunningEmulator> {
  const { seed } = withDeclaredBrands(loadSeed(defaultSeedPath()), IDS.map((brandId) => ({ brandId })), TOKEN);
  const master = seed.accounts.find((a) => a.token === TOKEN);
  if (master === undefined) throw new Error('the seed has no master account');
  Object.assign(master, { clientId: CLIENT.id, clientSecret: CLIENT.secret });
  const emu = await startEmulator({ port: 0, seed });
  const r = await cli(['apply', join(repoDir, 'brands'), '--yes'], { emu });
  expect(r.code, r.stderr).toBe(0);
  return emu;
}

/** `store`: the name of its pull request's comment store (one per case that runs at the same time). */
function github(file: string, full: RegExp, combined: boolean, store = file): Recipe {
  const wf = readWorkflow(join(ROOT, 'examples', 'ci', file));
  const gh = new GhComments(join(root, `gh-${store}.json`));
  const cacheStore = mkdtempSync(join(root, 'gh-cache-'));
  let runId = 0;
  return {
    file,
    full,
    combined,
    run: (e, repoDir) =>
      runWorkflow(wf, {
        event: 'pull_request',
        repo: repoDir,
        work: mkdtempSync(join(root, 'gh-run-')),
        bin,
        vars: { RCSCTL_BASE_URL: e.url },
        secrets: { RCSCTL_CLIENT_ID: CLIENT.id, RCSCTL_CLIENT_SECRET: CLIENT.secret },
        env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: root, FAKE_GH_STATE: gh.file },
        cacheStore,
        runId: ++runId,
      }),
    cacheStore,
    comment: () => gh.comments().find((c) => c.body.startsWith(MARKER))?.body ?? '',
  };
}

function gitlab(file: string, full: RegExp, combined: boolean, notes: GitlabNotes): Recipe {
  const doc = readPipeline(join(ROOT, 'examples', 'ci', file));
  const cacheStore = mkdtempSync(join(root, 'gl-cache-'));
  return {
    file,
    full,
    combined,
    run: (e, repoDir) =>
      runPipeline(doc, {
        source: 'merge_request_event',
        repo: repoDir,
        work: mkdtempSync(join(root, 'gl-run-')),
        env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: root },
        variables: { RCSCTL_BASE_URL: e.url, RCSCTL_CLIENT_ID: CLIENT.id, RCSCTL_CLIENT_SECRET: CLIENT.secret, RCSCTL_NOTE_TOKEN: NOTE_TOKEN, CI_API_V4_URL: notes.url},
        manual: ['apply'],
        cacheStore,
      }),
    cacheStore,
    comment: () => notes.notes.filter((n) => n.body.startsWith(MARKER)).at(-1)?.body ?? '',
  };
}

const RECIPES: ((notes: GitlabNotes) => Recipe)[] = [
  () => github('github-actions-matrix.yml', /The full report: \[https:\/\/github\.example\/artifacts\/rcsctl-reports\]/, true),
  (notes) => gitlab('gitlab-ci-parallel.yml', /The full report: \[[^\]]*\/artifacts\/browse\]/, true, notes),
  () => github('github-actions.yml', /The full report: `the log of the job Validate and plan`/, true),
  (notes) => gitlab('gitlab-ci.yml', /The full report: \[[^\]]*\]/, true, notes),
];

// The cases run at once, each with an emulator, a pull request's comments (or a merge request's notes) and
// a cache store of its own: the requests served, the console edits and the comment are the case's alone.
describe('the comment the recipes post, at 40 brands', () => {
  for (const make of RECIPES) {
    const notes = new GitlabNotes(NOTE_TOKEN, 100);
    const recipe = make(notes);
    describe.concurrent(recipe.file, () => {
      let emu: RunningEmulator;
      beforeAll(async () => {
        await notes.start();
        emu = await service(repo());
      }, 300_000);
      afterAll(async () => {
        await emu?.close();
        await notes.close();
      });

      it(`${recipe.file}: a clean request is a few lines; a change to every brand fits in one comment, well-formed, naming what it left out and a console edit it would undo; the second run reads through the kept cache`, async () => {
        await served(emu);
        await recipe.run(emu, repo());
        const cold = await served(emu);
        const clean = recipe.comment();
        expect(clean).toContain('no changes');
        expect(Buffer.byteLength(clean), clean).toBeLessThan(800);
        expect(clean).not.toContain('| Brand |');
        // The cache is kept, without the runner's key file.
        expect(filesUnder(recipe.cacheStore).some((f) => f.includes('.rcsctl-cache/'))).toBe(true);
        expect(filesUnder(recipe.cacheStore).filter((f) => f.endsWith('seal.key'))).toEqual([]);

        await consoleEdit(emu, 'Closed today: stocktaking');
        await served(emu);
        await recipe.run(emu, repo(CHANGED));
        const warm = await served(emu);
        await consoleEdit(emu, MAIN);
        const body = recipe.comment();
        keep(`${recipe.file}-every-brand`, body);
        expect(body.length, body.slice(0, 2000)).toBeLessThanOrEqual(GITHUB_LIMIT);
        expectWellFormed(body);
        // Every brand is in the one table; details that did not fit are named, with the full report's place.
        // Each brand named by its id and its folder (issue 38).
        for (const id of IDS) expect(body).toContain(`| \`${id}\` (brands/${id}) | 0 | ${REPLIES} | 0 |`);
        // The brand that breaks the policy rule is not applied: the others' total, and its rule in its row.
        expect(body).toContain(`**Plan failed for 1 of 40 brands (nothing can be applied for them); the others: 0 to create, ${39 * REPLIES} to update`);
        expect(body).toContain(`| \`${SHORTENED}\` (brands/${SHORTENED}) | 0 | ${REPLIES} | 0 | 0 | 0 | 0 | ❌ policy: no-link-shorteners |`);
        // Its block comes first, whatever the budget leaves out: the rule, the message, the value's file and line and the rule's.
        expect(body).toContain(`<details><summary><code>${SHORTENED}</code> (brands/${SHORTENED}): ${REPLIES} to update; 1 policy violation: nothing is applied</summary>`);
        expect(body).toContain(`- ❌ **policy \`no-link-shorteners\`** \`/autoReplies/r0/body/description\`: a link shortener hides where the link goes; link to the page itself (\`brands/${SHORTENED}/brand.yaml:5\`; rule at \`brands/policies/links.yaml:4\`)`);
        expect(body).toMatch(/\*\*Left out to keep this comment within \d+ bytes:\*\* the plan details of \d+ brands/);
        expect(body).toMatch(recipe.full);
        // The colleague's console edit, which the request would overwrite, is named apart from the request's own changes.
        expect(body).toContain(`⚠️ **${REPLIES} steps in 1 brand undo changes made outside rcsctl since the base was applied**`);
        // Its brand's block comes first, within the budget, with the console's side apart.
        expect(body).toContain(`<details><summary><code>${EDITED}</code> (brands/${EDITED}): ${REPLIES} to update (${REPLIES} undo changes made outside rcsctl)</summary>`);
        expect(body).toContain(`**⚠️ Undoing changes made outside rcsctl since the base was applied** (${REPLIES} steps):`);
        // The plan's brands come under the plan, before the drift's heading.
        const first = '<details><summary><code>BR.cicmt00000</code> (brands/BR.cicmt00000): 12 to update</summary>';
        expect(body.indexOf(first)).toBeGreaterThan(0);
        expect(body.indexOf(first)).toBeLessThan(body.indexOf('## rcsctl drift'));
        // What the run cost, for the plan and for the drift report.
        expect(body.match(/^Requests: \d+ requests, \d+ answered 429\.$/gm)).toHaveLength(2);
        if (recipe.combined) {
          // The same 480 changes are not shown again as drift, nor listed in a second table.
          expect(body).toContain(`${40 * REPLIES} drifted resources are the plan's changes above: not repeated here (40 brands drifted only so).`);
          expect(body).not.toContain('| Brand | Status |');
        }
        // The single-job recipes' comment keeps what their plan's Markdown had: the steps' graph, and on GitLab the preview's link.
        if (/^(github-actions|gitlab-ci)\.yml$/.test(recipe.file)) expect(body).toContain('```mermaid');
        if (recipe.file === 'gitlab-ci.yml') expect(body).toMatch(/\]\([^)]*\/artifacts\/file\/preview\/index\.html\)/);
        // The second run restored the first's cache: it read the lists, not the 480 auto-replies again.
        expect(warm, `cold ${cold}, warm ${warm}`).toBeLessThan(cold / 2);
      }, 600_000);
    });
  }

  describe.concurrent('github-actions-matrix.yml, a shared base', () => {
    let emu: RunningEmulator;
    // Live holds main's shared texts, the same in every brand.
    beforeAll(async () => {
      emu = await service(repo(MAIN, true));
    }, 300_000);
    afterAll(async () => {
      await emu?.close();
    });

    it('github-actions-matrix.yml: the same change in every brand (a shared base) is shown once, with the 40 brands, in a comment far smaller than the budget (issue 37)', async () => {
      const recipe = github('github-actions-matrix.yml', /The full report: \[https:\/\/github\.example\/artifacts\/rcsctl-reports\]/, true, 'shared-base');
      await recipe.run(emu, repo(CHANGED, true));
      const body = recipe.comment();
      keep(`${recipe.file}-shared`, body);
      expectWellFormed(body);
      expect(Buffer.byteLength(body), body.slice(0, 2000)).toBeLessThan(15_000);
      // Nothing left out: the one block holds what every brand's would.
      expect(body).not.toContain('Left out');
      expect(body).toContain(`<details><summary>The same ${REPLIES} changes in 40 brands: ${REPLIES} to update in each</summary>`);
      expect(body.match(/^# autoReply\.r0 \(update\)$/gm)).toHaveLength(1);
      const listed = body.split('\n').find((l) => l.startsWith('**In:** ')) ?? '';
      for (const id of IDS) expect(listed).toContain(`\`${id}\` (brands/${id})`);
      for (const id of IDS) expect(body).toContain(`| \`${id}\` (brands/${id}) | 0 | ${REPLIES} | 0 |`);
    }, 600_000);
  });
});
