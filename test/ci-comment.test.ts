// The pull-request comment of every CI recipe in examples/ci/ fits (issue 38):
// each recipe run job by job, as test/ci-jobs.test.ts runs them, on a
// 40-brand repository, with the comment APIs faked. A change to every brand
// (12 auto-replies each, every description rewritten) is far more than
// GitHub's 65,536 characters in full: the posted comment stays within that,
// is well-formed Markdown (every <details> and fence closed), and says what
// it left out and where the full report is. A clean request's comment is a
// few lines, not a table of 40 brands of zeros.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeed, startEmulator, type RunningEmulator } from '../src/emulator/index.js';
import { withDeclaredBrands } from '../src/emulator/seed-brands.js';
import { defaultSeedPath } from '../src/util/paths.js';
import { cli, ROOT, TOKEN } from './e2e/helpers.js';
import { GhComments, GitlabNotes, makeBin } from './ci-fakes.js';
import { readWorkflow, runWorkflow } from './ci-github.js';
import { readPipeline, runPipeline } from './ci-gitlab.js';

const IDS = Array.from({ length: 40 }, (_, i) => `BR.cicmt${String(i).padStart(5, '0')}`);
const REPLIES = 12;
const CLIENT = { id: 'ci-client', secret: 'ci-secret' };
const NOTE_TOKEN = 'glpat-fake-note-token';
const MARKER = '<!-- rcsctl-plan -->';
const GITHUB_LIMIT = 65_536;

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'ci', GIT_AUTHOR_EMAIL: 'ci@example.com', GIT_COMMITTER_NAME: 'ci', GIT_COMMITTER_EMAIL: 'ci@example.com' };

const root = mkdtempSync(join(tmpdir(), 'rcsctl-ci-comment-'));
let bin: string;
let repos = 0;

/** A git repository of the 40 brands; `text` is every auto-reply's description. */
function repo(text: string): string {
  const dir = join(root, `repo-${++repos}`);
  for (const id of IDS) {
    mkdirSync(join(dir, 'brands', id), { recursive: true });
    const replies = Array.from({ length: REPLIES }, (_, i) => `  r${i}: { name: "Reply ${i}", messagebaseId: SCS00000, body: { description: "${text} (${id}, reply ${i})" } }`);
    writeFileSync(join(dir, 'brands', id, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${id} }\nautoReplies:\n${replies.join('\n')}\n`);
  }
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', dir], { env: GIT_ENV });
  execFileSync('git', ['-C', dir, 'add', '.'], { env: GIT_ENV });
  execFileSync('git', ['-C', dir, 'commit', '--quiet', '-m', text.slice(0, 20)], { env: GIT_ENV });
  return dir;
}

const MAIN = 'Welcome to our shop: opening hours are Monday to Friday, nine to six; on weekends we answer within a day.';
const CHANGED = 'Welcome! Our new opening hours, from the first of next month: Monday to Saturday, eight to eight, holidays closed.';

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
}

let emu: RunningEmulator;
const notes = new GitlabNotes(NOTE_TOKEN, 100);

beforeAll(async () => {
  bin = makeBin(join(root, 'bin'));
  await notes.start();
  const { seed } = withDeclaredBrands(loadSeed(defaultSeedPath()), IDS.map((brandId) => ({ brandId })), TOKEN);
  const master = seed.accounts.find((a) => a.token === TOKEN);
  if (master === undefined) throw new Error('the seed has no master account');
  Object.assign(master, { clientId: CLIENT.id, clientSecret: CLIENT.secret });
  emu = await startEmulator({ port: 0, seed });
  const r = await cli(['apply', join(repo(MAIN), 'brands'), '--yes'], { emu });
  expect(r.code, r.stderr).toBe(0);
}, 300_000);
afterAll(async () => {
  await emu?.close();
  await notes.close();
  rmSync(root, { recursive: true, force: true });
});

function github(file: string, full: RegExp, combined: boolean): Recipe {
  const wf = readWorkflow(join(ROOT, 'examples', 'ci', file));
  const gh = new GhComments(join(root, `gh-${file}.json`));
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
      }),
    comment: () => gh.comments().find((c) => c.body.startsWith(MARKER))?.body ?? '',
  };
}

function gitlab(file: string, full: RegExp, combined: boolean): Recipe {
  const doc = readPipeline(join(ROOT, 'examples', 'ci', file));
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
      }),
    comment: () => notes.notes.filter((n) => n.body.startsWith(MARKER)).at(-1)?.body ?? '',
  };
}

const RECIPES = [
  () => github('github-actions-matrix.yml', /The full report: \[https:\/\/github\.example\/artifacts\/rcsctl-reports\]/, true),
  () => gitlab('gitlab-ci-parallel.yml', /The full report: \[[^\]]*\/artifacts\/browse\]/, true),
  () => github('github-actions.yml', /The full report: `the log of the job Validate and plan`/, false),
  () => gitlab('gitlab-ci.yml', /The full report: \[[^\]]*\]/, false),
];

describe('the comment the recipes post, at 40 brands', () => {
  for (const make of RECIPES) {
    const recipe = make();
    it(`${recipe.file}: a clean request is a few lines; a change to every brand fits in one comment, well-formed, naming what it left out`, async () => {
      await recipe.run(emu, repo(MAIN));
      const clean = recipe.comment();
      expect(clean).toContain('no changes');
      expect(Buffer.byteLength(clean), clean).toBeLessThan(800);
      expect(clean).not.toContain('| Brand |');

      await recipe.run(emu, repo(CHANGED));
      const body = recipe.comment();
      expect(body.length, body.slice(0, 2000)).toBeLessThanOrEqual(GITHUB_LIMIT);
      expectWellFormed(body);
      // Every brand is in the one table; details that did not fit are named, with the full report's place.
      for (const id of IDS) expect(body).toContain(`| \`${id}\` | 0 | ${REPLIES} | 0 |`);
      expect(body).toContain(`**Total for 40 brands: 0 to create, ${40 * REPLIES} to update`);
      expect(body).toMatch(/\*\*Left out to keep this comment within \d+ bytes:\*\* the plan details of \d+ brands/);
      expect(body).toMatch(recipe.full);
      // The plan's brands come under the plan, before the drift's heading.
      expect(body.indexOf('<details><summary><code>BR.cicmt00000</code>: 12 to update</summary>')).toBeGreaterThan(0);
      expect(body.indexOf('<details><summary><code>BR.cicmt00000</code>: 12 to update</summary>')).toBeLessThan(body.indexOf('## rcsctl drift'));
      if (recipe.combined) {
        // The same 480 changes are not shown again as drift, nor listed in a second table.
        expect(body).toContain(`${40 * REPLIES} drifted resources are the plan's changes above: not repeated here (40 brands drifted only so).`);
        expect(body).not.toContain('| Brand | Status |');
      }
    }, 600_000);
  }
});
