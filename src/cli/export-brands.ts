// The whole-brand half of `rcsctl export`: one brand, several (`--brand`
// repeated) or every brand the account can see (`--all`), in one process over
// one connection, each brand into its own folder. A brand that fails (a read
// refused, a download lost, an existing brand.yaml) is named and the others
// are written all the same; the run then exits 1 (docs/export.md, "Many
// brands"). Each brand is read, built and written exactly as a lone export.

import type { RequestCount } from '../core/requests.js';
import { requestsLine } from '../render/plan-text.js';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RcsctlError, errorMessage } from '../errors.js';
import { exportAgainstBase, type BaseChoice } from '../export/against-base.js';
import { buildManifest, type ExportedManifest } from '../export/build-manifest.js';
import { writeExport, type ExportResult } from '../export/write-export.js';
import { describeCounts } from '../kinds/counts.js';
import { buildPlan } from '../plan/build-plan.js';
import { readLive } from '../plan/read-live.js';
import { mapLimit } from '../util/concurrency.js';
import { Redaction } from '../util/redaction.js';
import { connect, type Connection } from './connect.js';
import type { CommandContext } from './context.js';
import { EXIT_ERROR, EXIT_OK } from './exit-codes.js';
import { hintFor } from './hints.js';
import { makeProgress, type Progress } from './progress.js';
import { credentialsInPlay } from './secrets.js';

/** Brands read and written at once: the client's one request limit paces the requests of all of them together. */
export const BRANDS_AT_ONCE = 8;

/** One brand to export and where. */
export interface ExportJob {
  brandId: string;
  /** The folder brand.yaml and images/ go into (absolute). */
  dir: string;
  /** As the user should see it (relative to the working directory when under it). */
  shownDir: string;
  /** The brand key, for an agency account, and the variable it came from (written as `${env:NAME}`). */
  key?: { value: string; env: string };
}

/** What the whole run was asked. */
export interface ExportRun {
  /** Fixed brands (`--brand`), or undefined with `all`. */
  brands: string[];
  /** Every brand the account can see (`--all`). */
  all: boolean;
  /** `-o DIR`: the brand's folder for one brand, the parent folder for several. */
  out?: string;
  /** `--brand-key-env NAME` (one brand only). */
  brandKeyEnv?: string;
  account?: string;
  force: boolean;
  /** `--base PATH` and `--var NAME=VALUE`: each brand written against the base. */
  base?: BaseChoice;
}

/** The brand key variable rcsctl reads for `brandId` when none is named: RCSCTL_BRAND_KEY_<id, non-alphanumerics as _> (as saved plans do). */
export function brandKeyVariable(brandId: string): string {
  return `RCSCTL_BRAND_KEY_${brandId.replace(/[^A-Za-z0-9]/g, '_')}`;
}

/** Run the export; sets the exit code (1 when any brand failed). */
export async function runExport(ctx: CommandContext, run: ExportRun): Promise<void> {
  const { io } = ctx;
  const many = run.all || run.brands.length > 1;
  if (run.all && run.account === undefined) {
    throw new RcsctlError('E_USAGE', '--all exports every brand the account can see: name the account with --account ID or RCSCTL_PERSON_ID (the personId whose brand list is read)');
  }
  if (many && run.brandKeyEnv !== undefined) {
    throw new RcsctlError('E_USAGE', `--brand-key-env names one brand's key; with several brands each key is read from ${brandKeyVariable('BR.<id>')} (the brand id with _ for . and -)`);
  }
  const declared = run.brands.map((id) => ({ brandId: id }));
  const conn = await connect(ctx, { declared });
  const progress = makeProgress(io);
  try {
    const ids = run.all ? (await conn.client.brands.list(run.account as string)).map((b) => b.brandId).sort() : run.brands;
    if (run.all && ids.length === 0) throw new RcsctlError('E_EXPORT_NONE', `the account ${run.account as string} can see no brand; nothing to export`);
    const jobs = ids.map((brandId) => jobFor(ctx, run, brandId, many));
    const outcomes = await mapLimit(jobs, BRANDS_AT_ONCE, (job) => exportOne(ctx, conn, run, job, progress));
    progress.done();
    report(ctx, run, outcomes, many, { ...conn.requests });
    ctx.exit(outcomes.some((o) => 'error' in o) ? EXIT_ERROR : EXIT_OK);
  } finally {
    progress.done();
    await conn.close();
  }
}

/** The folder and key of one brand. */
function jobFor(ctx: CommandContext, run: ExportRun, brandId: string, many: boolean): ExportJob {
  const { io } = ctx;
  const out = run.out;
  const dir = many ? resolve(io.cwd, out ?? '.', brandId) : resolve(io.cwd, out ?? brandId);
  const shownDir = many ? join(out ?? '.', brandId) : (out ?? brandId);
  const envName = run.brandKeyEnv ?? brandKeyVariable(brandId);
  const value = io.env[envName];
  if (run.brandKeyEnv !== undefined && (value === undefined || value === '')) throw new RcsctlError('E_CONFIG', `--brand-key-env ${run.brandKeyEnv}: the variable is not set`);
  return value !== undefined && value !== '' ? { brandId, dir, shownDir, key: { value, env: envName } } : { brandId, dir, shownDir };
}

type Outcome = { job: ExportJob; exported: ExportedManifest; result: ExportResult; lines: string[] } | { job: ExportJob; error: string; thrown: unknown };

/** Read, build and write one brand; a failure is this brand's only. */
async function exportOne(ctx: CommandContext, conn: Connection, run: ExportRun, job: ExportJob, progress: Progress): Promise<Outcome> {
  const g = ctx.globals();
  try {
    if (existsSync(join(job.dir, 'brand.yaml')) && !run.force) {
      throw new RcsctlError('E_EXPORT_EXISTS', `${join(job.dir, 'brand.yaml')} exists; choose another --out directory or pass --force to overwrite it`);
    }
    const ref = job.key !== undefined ? { id: job.brandId, key: job.key.value } : { id: job.brandId };
    const live = await readLive(conn.client, ref, {
      concurrency: g.concurrency,
      ...(run.account !== undefined ? { account: run.account } : {}),
      onProgress: (done, total) => progress.update(job.brandId, done, total),
    });
    const keyOpts = job.key !== undefined ? { brandKeyEnv: job.key.env } : {};
    const made =
      run.base !== undefined
        ? await exportAgainstBase(live, run.base, keyOpts, {
            dir: job.dir,
            cwd: ctx.io.cwd,
            env: ctx.io.env,
            ...(g.root !== undefined ? { root: g.root } : {}),
            concurrency: g.concurrency,
            redaction: credentialsOnly(ctx),
            changes: (desired, l) => buildPlan(desired, l).steps.map((s) => s.address),
          })
        : { exported: buildManifest(live, keyOpts) };
    const header = [
      `Brand ${job.brandId}, exported by rcsctl export${g.sandbox ? ' (sandbox)' : ''}.`,
      'No `prune:` is written: rcsctl deletes nothing until you list kinds there.',
      ...made.exported.notExported,
    ];
    const fetched = 'fetched' in made ? { fetched: made.fetched } : {};
    const result = await writeExport(made.exported, job.dir, { force: run.force, concurrency: g.concurrency, header, redaction: credentialsOnly(ctx), ...fetched });
    return { job, exported: made.exported, result, lines: 'lines' in made ? made.lines : [] };
  } catch (err) {
    const hint = hintFor(err, { sandbox: g.sandbox });
    return { job, error: hint === undefined ? errorMessage(err) : `${errorMessage(err)} (hint: ${hint})`, thrown: err };
  }
}

/** Each brand's lines on stdout in the order asked, failures on stderr, then a summary when there were several. */
function report(ctx: CommandContext, run: ExportRun, outcomes: Outcome[], many: boolean, requests: RequestCount): void {
  const { io } = ctx;
  const failed: string[] = [];
  for (const o of outcomes) {
    if ('error' in o) {
      failed.push(o.job.brandId);
      // One brand fails as a lone export always has: its error, with its hint, through the one error renderer.
      if (!many) throw o.thrown;
      io.stderr.write(`Error: ${o.job.brandId}: ${o.error}\n`);
      continue;
    }
    const { exported, result, job } = o;
    io.stdout.write(
      `Exported ${job.brandId}: ${describeCounts(exported.counts)}\n` +
        `  wrote ${resolve(result.manifestPath)} and ${result.images.length} image${result.images.length === 1 ? '' : 's'}\n`,
    );
    for (const line of o.lines) io.stdout.write(`  ${line}\n`);
    // What every brand shares (agency files are never exported) is said once, after the brands.
    const shared = new Set(exported.notExported);
    for (const note of [...result.notes, ...(many ? [] : exported.notExported)]) if (!many || !shared.has(note)) io.stdout.write(`  note: ${note}\n`);
  }
  const done = outcomes.filter((o) => !('error' in o));
  const first = done[0];
  if (many && first !== undefined && 'exported' in first) for (const note of first.exported.notExported) io.stdout.write(`note: ${note}\n`);
  // What the run cost the account's rate limit, above the last line.
  io.stdout.write(`${requestsLine(requests)}\n`);
  if (!many) {
    io.stdout.write(`Check it with: rcsctl plan ${run.out ?? run.brands[0]}\n`);
    return;
  }
  const where = run.out ?? '.';
  io.stdout.write(`Exported ${done.length} of ${outcomes.length} brand${outcomes.length === 1 ? '' : 's'} into ${where}, one folder each${failed.length > 0 ? `; ${failed.length} failed: ${failed.join(', ')}` : ''}\n`);
  if (done.length > 0) io.stdout.write(`Check them with: rcsctl plan ${where}\n`);
}

/**
 * What export's files are redacted by: the credentials in play only. Export
 * writes what the live brand holds, values of sensitive variables included
 * when an apply sent them (docs/configuration.md, "Secrets in manifests").
 */
export function credentialsOnly(ctx: CommandContext): Redaction {
  const redaction = new Redaction();
  redaction.add(credentialsInPlay(ctx).map((c) => ({ name: c.label, value: c.value })));
  return redaction;
}
