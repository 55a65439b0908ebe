// `rcsctl controller [paths...]`: keep every brand converged between CI runs
// (src/controller/, docs/controller.md). This file only turns flags into
// startController's options and stops it on SIGINT or SIGTERM (or io.signal).

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { loadControllerConfig, type ControllerConfig } from '../../controller/config.js';
import { allowList, DEFAULT_HISTORY_SIZE, MAX_HISTORY_SIZE, startController } from '../../controller/index.js';
import { RcsctlError } from '../../errors.js';
import { parseShard } from '../../plan/shard.js';
import { cacheDirFor } from '../../util/cache-dir.js';
import { parseDuration } from '../../util/duration.js';
import { connect } from '../connect.js';
import type { CommandContext } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';
import { untilStopped } from '../interrupt.js';
import { pathsOrCwd, rootOption } from '../options.js';
import { withCacheOptions } from '../plan-run.js';
import { reviewedThings } from '../../kinds/index.js';
import { lockUrlOf } from '../lock-backend.js';
import { credentialsInPlay } from '../secrets.js';
import { apiToken, registerControllerClient } from '../controller-client.js';
import { controllerViews } from '../../render/controller-views.js';
import { VERSION } from '../../version.js';

interface ControllerFlags {
  listen: string;
  mode: string;
  interval: string;
  allowReview: boolean;
  allowDelete: boolean;
  shard?: string;
  shardPeers?: string;
  webhookTokenFile?: string;
  allowFrom?: string[];
  shutdownTimeout: string;
  stallTimeout: string;
  reviewWarning: string;
  history: string;
  logFormat: string;
  cacheDir?: string;
  cache: boolean;
  lockUrl?: string;
  advertiseUrl?: string;
  config?: string;
  apiTokenFile?: string;
}

const DAY_MS = 86_400_000;

const LOG_FORMATS = ['json', 'text'] as const;
const MODES = ['observe', 'apply'] as const;

/** Register `rcsctl controller`. */
export function registerController(program: Command, ctx: CommandContext): void {
  const logFormat = new Option('--log-format <format>', 'json (one object a line) or text').default('json');
  // Listed for help and completion (as formatOption does); checked in the action.
  logFormat.argChoices = [...LOG_FORMATS];
  const modeOption = new Option('--mode <mode>', 'observe (plan and report drift) or apply (also apply, as rcsctl apply does)').default('observe');
  modeOption.argChoices = [...MODES];
  const cmd = program
    .command('controller')
    .description('keep the brands converged: resync on start and every --interval, and whenever the service notifies a change (docs/controller.md)')
    .argument('[paths...]', 'manifest files or directories, watched for changes (default: .)')
    .option('--config <file>', 'the controller\'s configuration file (YAML, schemas/controller-config.schema.json): its settings, suspended brands, sync windows, notifications; a flag given here wins over the file')
    .option('--listen <host:port>', 'where to serve /webhook, /status, /metrics, /healthz and /readyz', '127.0.0.1:9464')
    .addOption(modeOption)
    .option('--interval <duration>', 'full resync of every brand this often', '10m')
    .option('--allow-review', `apply mode: run steps that send ${reviewedThings()} to operator review`, false)
    .option('--allow-delete', 'apply mode: run delete steps', false)
    .option('--shard <i/n>', 'serve only the brands of shard i of n (split by brand id, as CI shards are)')
    .option('--shard-peers <url-template>', 'with --shard: forward a notification for another shard\'s brand to that shard\'s replica, {shard} its 1-based index (http://rcsctl-controller-{shard}.rcsctl-controller-shards:9464/webhook)')
    .option('--webhook-token-file <file>', 'the bearer token /webhook requires (env: RCSCTL_WEBHOOK_TOKEN)')
    .option('--api-token-file <file>', 'the bearer token of the control API, POST /brands/BRAND/sync, /suspend and /resume (env: RCSCTL_CONTROLLER_TOKEN; without one the API is off)')
    .option('--allow-from <cidr>', 'only these source addresses may post to /webhook (repeat for several)', (v: string, prev: string[] | undefined) => [...(prev ?? []), v])
    .option('--shutdown-timeout <duration>', 'on SIGTERM or SIGINT, wait this long for the passes in flight', '30s')
    .option('--stall-timeout <duration>', '/healthz fails when work is due and no pass has ended for this long', '15m')
    .option('--review-warning <duration>', 'a review waiting longer counts in rcsctl_reviews_waiting_late', '14d')
    .option('--history <n>', 'passes kept in each brand\'s history, in memory (quiet repeats fold into one entry; 1 to 1000)', String(DEFAULT_HISTORY_SIZE))
    .option('--lock-url <url>', 'take the brand locks, and elect one leader per shard among the replicas, in this PostgreSQL database (postgres://USER:PASSWORD@HOST:5432/DB), shared with every rcsctl apply given the same URL (env: RCSCTL_LOCK_URL; docs/controller.md)')
    .option('--advertise-url <url>', 'with --lock-url: this replica\'s webhook URL, where standbys forward notifications while it leads (env: RCSCTL_ADVERTISE_URL; default: http://LISTEN/webhook)')
    .addOption(logFormat);
  registerControllerClient(cmd, ctx);
  withCacheOptions(cmd).action(async (paths: string[], given: ControllerFlags, self: Command) => {
    const { io } = ctx;
    const config = given.config !== undefined ? loadControllerConfig(given.config, io.cwd, io.env) : undefined;
    const flags = withConfig(given, config, (name) => self.getOptionValueSource(name) === 'cli');
    const mode = oneOf(flags.mode, MODES, '--mode');
    const logFormat = oneOf(flags.logFormat, LOG_FORMATS, '--log-format');
    const listen = /^(.+):(\d{1,5})$/.exec(flags.listen);
    if (listen === null || Number(listen[2]) > 65535) throw new RcsctlError('E_USAGE', `--listen must be HOST:PORT like 127.0.0.1:9464, not "${flags.listen}"`);
    if (mode === 'observe' && (flags.allowReview || flags.allowDelete)) throw new RcsctlError('E_USAGE', '--allow-review and --allow-delete mean something only with --mode apply');
    allowList(flags.allowFrom ?? []);
    const historySize = historySizeOf(flags.history);
    const webhookToken = tokenOf(ctx, flags.webhookTokenFile ?? (io.env.RCSCTL_WEBHOOK_TOKEN === undefined ? config?.controller.webhookTokenFile : undefined));
    if (config !== undefined) ctx.redaction.add(config.secrets);
    const controlToken = apiToken(ctx, flags.apiTokenFile ?? (io.env.RCSCTL_CONTROLLER_TOKEN === undefined ? config?.controller.apiTokenFile : undefined), false);
    if (controlToken !== '') ctx.redaction.add([{ name: 'RCSCTL_CONTROLLER_TOKEN', value: controlToken }]);
    ctx.redaction.add([{ name: 'RCSCTL_WEBHOOK_TOKEN', value: webhookToken }]);
    const credentials = credentialsInPlay(ctx);
    const cacheDir = cacheDirFor(flags, io.env, io.cwd);
    const shard = flags.shard !== undefined ? parseShard(flags.shard) : undefined;
    const lockUrl = lockUrlOf(ctx, flags.lockUrl);
    const advertiseUrl = advertiseUrlOf(flags.advertiseUrl ?? io.env.RCSCTL_ADVERTISE_URL);
    // Replicas of a shard set share the account's rate limit, as CI shards do.
    const conn = await connect(ctx, shard !== undefined ? { peers: shard.count } : {});
    try {
      const controller = await startController({
        paths: paths.length === 0 && config?.controller.paths !== undefined ? config.controller.paths : pathsOrCwd(paths),
        client: conn.client,
        baseUrl: conn.baseUrl,
        credentialsKind: conn.credentialsKind,
        webhookToken,
        env: io.env,
        cwd: io.cwd,
        host: (listen[1] as string).replace(/^\[(.*)\]$/, '$1'),
        port: Number(listen[2]),
        mode,
        allowReview: flags.allowReview,
        allowDelete: flags.allowDelete,
        ...(shard !== undefined ? { shard } : {}),
        ...(flags.shardPeers !== undefined ? { shardPeers: flags.shardPeers } : {}),
        concurrency: ctx.globals().concurrency,
        intervalMs: parseDuration(flags.interval, { option: '--interval', maxMs: DAY_MS }),
        shutdownTimeoutMs: parseDuration(flags.shutdownTimeout, { option: '--shutdown-timeout', maxMs: 3_600_000 }),
        stallTimeoutMs: parseDuration(flags.stallTimeout, { option: '--stall-timeout', maxMs: DAY_MS }),
        reviewWarningMs: parseDuration(flags.reviewWarning, { option: '--review-warning', maxMs: 365 * DAY_MS }),
        historySize,
        views: controllerViews(VERSION, io.cwd),
        allowFrom: flags.allowFrom ?? [],
        logOut: io.stdout,
        logFormat,
        credentials,
        redaction: ctx.redaction,
        ...(cacheDir !== undefined ? { cacheDir } : {}),
        ...rootOption(ctx),
        ...(lockUrl !== undefined ? { lockUrl } : {}),
        ...(advertiseUrl !== undefined ? { advertiseUrl } : {}),
        ...(controlToken !== '' ? { apiToken: controlToken } : {}),
        ...(config !== undefined ? { suspend: config.suspend, syncWindows: config.syncWindows, notifications: config.notifications } : {}),
      });
      await untilStopped(ctx.io);
      await controller.close();
    } finally {
      await conn.close();
    }
    ctx.exit(EXIT_OK);
  });
}

/**
 * The flags with the configuration file's settings under them: a flag given
 * on the command line wins, then the file, then the flag's default
 * (docs/controller.md, "Configuration file").
 */
function withConfig(flags: ControllerFlags, config: ControllerConfig | undefined, onCommandLine: (name: string) => boolean): ControllerFlags {
  if (config === undefined) return flags;
  const c = config.controller;
  const out: ControllerFlags = { ...flags };
  const ms = (v: number): string => `${v}ms`;
  const take = <K extends keyof ControllerFlags>(key: K, value: ControllerFlags[K] | undefined): void => {
    if (value !== undefined && !onCommandLine(key)) out[key] = value;
  };
  take('listen', c.listen);
  take('mode', c.mode);
  take('interval', c.intervalMs !== undefined ? ms(c.intervalMs) : undefined);
  take('allowReview', c.allowReview);
  take('allowDelete', c.allowDelete);
  take('allowFrom', c.allowFrom);
  take('shutdownTimeout', c.shutdownTimeoutMs !== undefined ? ms(c.shutdownTimeoutMs) : undefined);
  take('stallTimeout', c.stallTimeoutMs !== undefined ? ms(c.stallTimeoutMs) : undefined);
  take('reviewWarning', c.reviewWarningMs !== undefined ? ms(c.reviewWarningMs) : undefined);
  take('history', c.history !== undefined ? String(c.history) : undefined);
  take('logFormat', c.logFormat);
  return out;
}

/** `--history`: a whole number of passes, 1 to MAX_HISTORY_SIZE. */
function historySizeOf(text: string): number {
  const n = /^[1-9][0-9]*$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(n >= 1 && n <= MAX_HISTORY_SIZE)) throw new RcsctlError('E_USAGE', `--history must be a whole number of passes from 1 to ${MAX_HISTORY_SIZE}, not "${text}"`);
  return n;
}

function tokenOf(ctx: CommandContext, file: string | undefined): string {
  let token = ctx.io.env.RCSCTL_WEBHOOK_TOKEN?.trim() ?? '';
  if (file !== undefined) {
    try {
      token = readFileSync(resolve(ctx.io.cwd, file), 'utf8').trim();
    } catch (err) {
      throw new RcsctlError('E_CONFIG', `cannot read --webhook-token-file ${file} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
    }
  }
  if (token.length < 8) throw new RcsctlError('E_CONFIG', 'the controller needs a webhook token of at least 8 characters: set RCSCTL_WEBHOOK_TOKEN or pass --webhook-token-file FILE');
  return token;
}

function advertiseUrlOf(url: string | undefined): string | undefined {
  if (url === undefined || url.trim() === '') return undefined;
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    throw new RcsctlError('E_USAGE', `--advertise-url must be this replica's webhook URL, like http://10.0.3.7:9464/webhook, not "${url}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new RcsctlError('E_USAGE', `--advertise-url must be an http or https URL, not "${url}"`);
  return u.href;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw new RcsctlError('E_USAGE', `${flag} must be ${allowed.join(' or ')}, not "${value}"`);
  return value as T;
}
