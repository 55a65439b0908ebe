// `rcsctl apply <paths...> | --plan FILE`: make the live brand match, in
// dependency order, never sending what a state forbids, then re-read and verify.

import { createInterface } from 'node:readline/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { applyEachBrand, runsOf, savedPlanRuns, unappliable, type BrandApplyOutcome, type BrandRun } from '../../apply/apply-brands.js';
import { INTERRUPT_GRACE_MS, type StepResult } from '../../apply/execute.js';
import { deleteDuplicates, describeDuplicates, duplicatesOf } from '../../apply/dedupe.js';
import { acquireBrandLocks, lockDir, releaseAll, type BrandLock } from '../../apply/lock.js';
import { parseDuration } from '../../util/duration.js';
import { cacheDirFor } from '../../util/cache-dir.js';
import type { Unconverged } from '../../apply/verify.js';
import { RcsctlError } from '../../errors.js';
import { LiveCache } from '../../kinds/live-cache.js';
import { isFailed, type PlannedBrand } from '../../plan/plan-brands.js';
import { readPlanFile } from '../../plan/plan-file.js';
import { restoreSensitive } from '../../plan/sensitive-plan.js';
import { parseShard } from '../../plan/shard.js';
import { brandErrorText, failedHeadline } from '../../render/brand-error.js';
import { renderPlan } from '../../render/plan-text.js';
import { makeStyle, type Style } from '../../render/style.js';
import { applyResult, brandResult, type BrandApplyResult } from '../apply-result.js';
import { connect, type Connection } from '../connect.js';
import type { CommandContext } from '../context.js';
import { EXIT_ERROR, EXIT_HELD, EXIT_INTERRUPTED, EXIT_OK, type ExitCode } from '../exit-codes.js';
import { renderInterrupted, watchInterrupts, type InterruptedBrand } from '../interrupt.js';
import { declaredBy, loadBrands } from '../load.js';
import { formatOption, formatValue, pathsOrCwd } from '../options.js';
import { brandHint, planWith, selectionOf, withCacheOptions, writeFailures } from '../plan-run.js';
import { redactSecrets } from '../redact.js';
import { hideInOutput, rawStream } from '../safe-output.js';

interface ApplyOptions {
  plan?: string;
  allowDelete: boolean;
  allowReview: boolean;
  cancelReview: boolean;
  yes: boolean;
  autoApprove?: boolean;
  format: string;
  json: boolean;
  brand?: string[];
  target?: string[];
  shard?: string;
  lockTimeout: string;
  dedupe: boolean;
  cacheDir?: string;
  cache: boolean;
}

/** Register `rcsctl apply`. */
export function registerApply(program: Command, ctx: CommandContext): void {
  const cmd = program.command('apply');
  formatOption(cmd, APPLY_FORMATS, 'output: text, or json (every step\'s outcome and the ids learnt on stdout; the human view goes to stderr)');
  cmd
    .description('make the live service match the manifests (or run a saved plan)')
    .argument('[paths...]', 'manifest files or directories (default: .; not with --plan)')
    .option('--plan <file>', 'apply exactly the steps of a saved plan (rcsctl plan --out)')
    .option('--allow-delete', 'run delete steps (saved plans may hold them without this flag)', false)
    .option('--allow-review', 'run steps that send a room, logo or template to operator review', false)
    .option('--cancel-review', 'change templates waiting for review by withdrawing the review first (needs --allow-delete too)', false)
    .option('-y, --yes', 'do not ask for confirmation', false)
    .option('--auto-approve', 'the same as --yes (as in terraform)')
    .option('--brand <id>', 'apply only this brand (repeat for several)', (v: string, prev: string[] | undefined) => [...(prev ?? []), v])
    .option(
      '--target <address>',
      'only this resource (autoReply.hours, or autoReply.* for a kind) and what it depends on; for exceptions, not routine use (repeat for several)',
      (v: string, prev: string[] | undefined) => [...(prev ?? []), v],
    )
    .option('--shard <i/n>', 'apply only the brands of shard i of n (split by brand id; see docs/ci.md)')
    .option('--lock-timeout <duration>', 'wait this long for another rcsctl apply of the same brand on this machine (0, 30s, 5m)', '0s')
    .option('--dedupe', 'first delete the newer of identical live copies sharing a managed name (needs --allow-delete)', false);
  withCacheOptions(cmd)
    .addHelpText('after', '\nExit codes: 0 the live service matches; 1 error (nothing sent for bad input, or a step failed);\n3 finished, but some steps were blocked by a state or held by a gate;\n130 interrupted (SIGINT, SIGTERM). See docs/apply.md and docs/exit-codes.md.')
    .action(async (paths: string[], opts: ApplyOptions) => {
      if (opts.plan !== undefined && paths.length > 0) throw new RcsctlError('E_USAGE', 'give manifest paths or --plan FILE, not both');
      if (opts.plan !== undefined && (opts.target ?? []).length > 0) throw new RcsctlError('E_USAGE', '--target works on manifests, not with --plan: a saved plan runs exactly its steps (make it with plan --target)');
      if (opts.plan !== undefined && opts.dedupe) throw new RcsctlError('E_USAGE', '--dedupe works on manifests, not with --plan: a saved plan runs exactly its steps');
      if (opts.autoApprove === true) opts.yes = true;
      if (formatValue(opts, APPLY_FORMATS) === 'text') {
        ctx.exit(await runApply(ctx, pathsOrCwd(paths), opts));
        return;
      }
      // JSON: everything people read goes to stderr; stdout gets the result document alone, even when the run fails.
      const results: BrandApplyResult[] = [];
      const human: CommandContext = { ...ctx, io: { ...ctx.io, stdout: ctx.io.stderr } };
      const write = (doc: unknown): void => void ctx.io.stdout.write(redactSecrets(JSON.stringify(doc, null, 2), ctx.io.env) + '\n');
      try {
        const code = await runApply(human, pathsOrCwd(paths), opts, (r) => results.push(r));
        write(applyResult(results, code));
        ctx.exit(code);
      } catch (err) {
        write(applyResult(results, EXIT_ERROR, err));
        throw err;
      }
    });
}

const APPLY_FORMATS = ['text', 'json'] as const;

async function runApply(ctx: CommandContext, paths: string[], opts: ApplyOptions, record?: (r: BrandApplyResult) => void): Promise<ExitCode> {
  const { io } = ctx;
  const style = makeStyle(ctx.globals().color);
  // Manifests are read before connecting: bad input never reaches the network.
  const loaded = opts.plan === undefined ? await loadBrands(ctx, paths, selectionOf(opts)) : { brands: [], failed: [] };
  const brands = loaded.brands;
  const lockTimeoutMs = parseDuration(opts.lockTimeout);
  const conn = await connect(ctx, declaredBy(brands));
  const locks: BrandLock[] = [];
  // One apply per brand at a time on this machine (docs/concurrency.md), taken before the live state is read.
  const lock = async (brandIds: string[]): Promise<void> => {
    locks.push(...(await acquireBrandLocks(brandIds, { dir: lockDir(io.env), timeoutMs: lockTimeoutMs, baseUrl: conn.baseUrl, command: 'apply' })));
  };
  // From here an interrupt is graceful: the locks are released and nothing is left half-said.
  const interrupts = watchInterrupts(io, INTERRUPT_GRACE_MS);
  try {
    let all: BrandRun[];
    if (opts.plan !== undefined) {
      all = await savedRuns(ctx, conn, resolve(io.cwd, opts.plan), opts, lock);
    } else {
      await lock(brands.map((b) => b.brandId));
      const planOpts = { cancelReview: opts.cancelReview, target: opts.target ?? [], cache: opts.cache, ...(opts.cacheDir !== undefined ? { cacheDir: opts.cacheDir } : {}) };
      let { outcomes } = await planWith(ctx, conn, brands, planOpts, loaded.failed);
      if (opts.dedupe) {
        const outcome = await dedupe(ctx, conn, outcomes.filter((o): o is PlannedBrand => !isFailed(o)), opts);
        if (outcome !== undefined) return outcome;
        ({ outcomes } = await planWith(ctx, conn, brands, planOpts, loaded.failed));
      }
      all = runsOf(outcomes);
    }
    io.stdout.write(all.map((r) => renderPlan(r.plan, style)).join('\n'));
    // Each brand stands alone: one that failed to plan is reported, the others are applied.
    const failures = unappliable(all);
    const runs = all.filter((r) => !failures.has(r.plan.brandId));
    const total = runs.reduce((n, r) => n + r.plan.steps.length, 0);
    if (total === 0 && failures.size === 0) {
      io.stdout.write('\nNothing to apply: the live service matches.\n');
      return EXIT_OK;
    }
    if (total > 0 && opts.plan === undefined && !opts.yes) await confirm(ctx, runs.filter((r) => r.plan.steps.length > 0).map((r) => r.plan.brandId), 'apply these changes to');
    if (interrupts.signal.aborted) {
      io.stderr.write(`\nInterrupted (${interrupts.received ?? 'interrupt'}) before any step was sent; nothing was changed.\n`);
      return EXIT_INTERRUPTED;
    }

    let failed = 0;
    let held = 0;
    const unconverged: Unconverged[] = [];
    const interrupted: InterruptedBrand[] = [];
    const tell = (o: BrandApplyOutcome): void => {
      if (o.status === 'interrupted') {
        interrupted.push(o.results !== undefined ? { brandId: o.brandId, results: o.results, steps: o.steps } : { brandId: o.brandId, steps: o.steps });
        return;
      }
      if (o.results !== undefined) {
        failed += o.results.filter((r) => r.status === 'failed').length;
        held += o.results.filter((r) => r.status === 'blocked' || r.status === 'held' || r.status === 'skipped').length;
      }
      if (o.error !== undefined) failures.set(o.brandId, o.error);
      if (o.status === 'failed') {
        io.stdout.write([style.bold(`Brand ${o.brandId}: ${failedHeadline(o.error)}`), ...brandErrorText(o.error, style)].join('\n') + '\n');
        return;
      }
      unconverged.push(...o.unconverged);
      record?.(brandResult(o.brandId, o.results, o.ids, o.unconverged));
      io.stdout.write(summaryLine(o.brandId, o.results, style));
    };
    // Verification keeps the auto-replies it vouched for as created, so the next run need not read them.
    const cacheDir = cacheDirFor(opts, io.env, io.cwd);
    const cache = cacheDir !== undefined ? new LiveCache(cacheDir, conn.baseUrl) : undefined;
    await applyEachBrand(conn.client, total > 0 ? runs : [], {
      concurrency: ctx.globals().concurrency,
      allowDelete: opts.allowDelete,
      allowReview: opts.allowReview,
      fromSavedPlan: opts.plan !== undefined,
      signal: interrupts.signal,
      hintFor: brandHint(ctx),
      reporterFor: async (plan) => {
        io.stdout.write('\n');
        // listr2 is loaded only when there is something to apply.
        const { makeApplyView } = await import('../apply-reporter.js');
        return makeApplyView(io, style, plan.brandId, plan.steps);
      },
      onOutcome: tell,
      ...(cache !== undefined ? { cache } : {}),
    });
    cache?.save();
    for (const u of unconverged) io.stderr.write(style.red(`verification: ${u.message}\n`));
    if (interrupted.length > 0) {
      io.stderr.write(renderInterrupted(interrupts.received ?? 'interrupt', interrupted));
      return EXIT_INTERRUPTED;
    }
    if (failures.size > 0 || unconverged.length > 0) {
      const brandsFailed = failures.size > 0 ? `; ${failures.size} of ${all.length} brand${all.length === 1 ? '' : 's'} failed (above), the others were applied` : '';
      writeFailures(
        ctx,
        [...failures],
        `\nApply failed: ${failed} step${failed === 1 ? '' : 's'} failed, ${unconverged.length} resource${unconverged.length === 1 ? '' : 's'} not as planned${brandsFailed}. Fix the cause and run apply again: it picks up where this run stopped.`,
      );
      return EXIT_ERROR;
    }
    if (held > 0) {
      io.stdout.write(style.yellow(`\nApply finished with ${held} step${held === 1 ? '' : 's'} blocked or held (above); the rest of the live brand matches.\n`));
      return EXIT_HELD;
    }
    io.stdout.write(style.green('\nApply complete: the live service matches the manifests.\n'));
    return EXIT_OK;
  } finally {
    interrupts.dispose();
    releaseAll(locks);
    await conn.close();
  }
}

/**
 * `--dedupe`: show the newer identical copies of managed names and delete them
 * (gated like a delete); an exit code when the run stops here, else undefined.
 */
async function dedupe(ctx: CommandContext, conn: Connection, plans: PlannedBrand[], opts: ApplyOptions): Promise<ExitCode | undefined> {
  const { io } = ctx;
  const found = duplicatesOf(plans);
  if (found.length === 0) {
    io.stdout.write('Dedupe: no live duplicates of managed names.\n\n');
    return undefined;
  }
  for (const f of found) io.stdout.write(`Dedupe ${f.brandId}:\n${describeDuplicates(f.groups).map((l) => `  ${l}\n`).join('')}`);
  const deletable = found.reduce((n, f) => n + f.deletable, 0);
  if (deletable === 0) return undefined;
  if (!opts.allowDelete) {
    io.stdout.write(`\n⏸ ${deletable} duplicate cop${deletable === 1 ? 'y' : 'ies'} held: deletes run only with --allow-delete. Nothing was changed.\n`);
    return EXIT_HELD;
  }
  if (!opts.yes) await confirm(ctx, plans.map((p) => p.plan.brandId), `delete ${deletable} duplicate cop${deletable === 1 ? 'y' : 'ies'} from`);
  await deleteDuplicates(conn.client, found, (brandId, deleted) => io.stdout.write(`✓ ${brandId}: deleted ${deleted.join(', ')}\n`));
  io.stdout.write('\n');
  return undefined;
}

async function savedRuns(ctx: CommandContext, conn: Connection, path: string, opts: ApplyOptions, lock: (brandIds: string[]) => Promise<void>): Promise<BrandRun[]> {
  // Sensitive values come from the environment again, and must be what was planned.
  const { file, values } = restoreSensitive(readPlanFile(path, { baseUrl: conn.baseUrl }), ctx.io.env, path);
  hideInOutput(ctx.io, values);
  return savedPlanRuns(conn.client, file, path, {
    concurrency: ctx.globals().concurrency,
    env: ctx.io.env,
    brand: opts.brand ?? [],
    ...(opts.shard !== undefined ? { shard: parseShard(opts.shard) } : {}),
    lock,
    hintFor: brandHint(ctx),
  });
}

async function confirm(ctx: CommandContext, brandIds: string[], what: string): Promise<void> {
  const { io } = ctx;
  if (io.stdin === undefined || io.stdin.isTTY !== true) {
    throw new RcsctlError('E_CONFIRM', 'refusing to apply without confirmation: there is no terminal to ask on. Review the plan above and run again with --yes, or save it with `rcsctl plan --out FILE` and run `rcsctl apply --plan FILE`.');
  }
  // readline edits the line with cursor controls: it writes beneath the terminal guard.
  const rl = createInterface({ input: io.stdin, output: rawStream(io.stderr) });
  try {
    const question = what.charAt(0).toUpperCase() + what.slice(1);
    const answer = await rl.question(`\n${question} ${brandIds.join(', ')}? Only 'yes' will be accepted: `);
    if (answer.trim() !== 'yes') throw new RcsctlError('E_CONFIRM', 'apply cancelled; nothing was changed');
  } finally {
    rl.close();
  }
}

function summaryLine(brandId: string, results: StepResult[], style: Style): string {
  const count = (s: StepResult['status']): number => results.filter((r) => r.status === s).length;
  const parts = [`${count('done')} done`, `${count('failed')} failed`, `${count('blocked')} blocked`, `${count('held')} held`, `${count('skipped')} skipped`];
  const text = `${brandId}: ${parts.join(', ')}.\n`;
  return count('failed') > 0 ? style.red(text) : style.bold(text);
}
