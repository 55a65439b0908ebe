// `rcsctl controller sync|suspend|resume BRAND --controller URL`: the control
// API's client (docs/controller.md, "Suspend, resume and sync now"). The token
// comes from RCSCTL_CONTROLLER_TOKEN or --api-token-file, never from a flag's
// value, and is never printed.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { request } from 'undici';
import { RcsctlError } from '../errors.js';
import type { CommandContext } from './context.js';
import { EXIT_OK } from './exit-codes.js';

interface ClientFlags {
  controller?: string;
  apiTokenFile?: string;
  reason?: string;
}

const ACTIONS = {
  sync: 'run a pass of BRAND at once (it applies in apply mode unless suspended or a sync window refuses)',
  suspend: 'suspend BRAND until resumed or the controller restarts: observed, nothing applied',
  resume: 'resume BRAND (one the configuration file suspends stays resumed until the controller restarts)',
} as const;

function rootOf(c: Command): Command {
  return c.parent === null ? c : rootOf(c.parent);
}

/** Register `controller sync`, `controller suspend` and `controller resume` under `controller`. */
export function registerControllerClient(controller: Command, ctx: CommandContext): void {
  for (const [action, description] of Object.entries(ACTIONS) as [keyof typeof ACTIONS, string][]) {
    const cmd = controller
      .command(action)
      .description(description)
      .argument('<brand>', 'the brand id')
      .option('--controller <url>', 'the controller\'s URL, like http://127.0.0.1:9464 (env: RCSCTL_CONTROLLER_URL)')
      .option('--api-token-file <file>', 'the control API\'s token (env: RCSCTL_CONTROLLER_TOKEN)');
    if (action === 'suspend') cmd.option('--reason <text>', 'why, shown on /status');
    // Its global options are rcsctl's, as under every command: the controller's own flags (--listen, --mode, ...) do not apply to a client call.
    cmd.configureHelp({ ...controller.configureHelp(), visibleGlobalOptions: (c: Command) => rootOf(c).options.filter((o) => !o.hidden) });
    cmd.action(async (brand: string, flags: ClientFlags) => {
      const { io } = ctx;
      const base = controllerUrl(flags.controller ?? io.env.RCSCTL_CONTROLLER_URL);
      const token = apiToken(ctx, flags.apiTokenFile);
      ctx.redaction.add([{ name: 'RCSCTL_CONTROLLER_TOKEN', value: token }]);
      const url = `${base}/brands/${encodeURIComponent(brand)}/${action}`;
      let status: number;
      let text: string;
      try {
        const res = await request(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(flags.reason !== undefined ? { reason: flags.reason } : {}),
          headersTimeout: 10_000,
          bodyTimeout: 10_000,
        });
        status = res.statusCode;
        text = await res.body.text();
      } catch (err) {
        const code = (err as { code?: string }).code ?? (err as Error).message;
        throw new RcsctlError('E_NETWORK', `cannot reach the controller at ${base} (${code})`);
      }
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = { error: text.slice(0, 200) };
      }
      if (status === 401) throw new RcsctlError('E_CONFIG', `the controller refused the token (401): give the token it was started with (RCSCTL_CONTROLLER_TOKEN or --api-token-file)`);
      if (status < 200 || status > 299) throw new RcsctlError('E_API', `the controller answered ${status}: ${String(body.error ?? body.why ?? text.trim())}`, { status, ...body });
      io.stdout.write(`${describe(action, brand, body)}\n`);
      ctx.exit(EXIT_OK);
    });
  }
}

/** One line for a person: what the controller did. */
function describe(action: keyof typeof ACTIONS, brand: string, body: Record<string, unknown>): string {
  if (action === 'sync') return `${brand}: pass started${body.applies === true ? '' : ` (observe only: ${String(body.why)})`}`;
  if (action === 'suspend') return `${brand}: ${body.changed === true ? 'suspended' : 'already suspended'}`;
  return `${brand}: ${body.changed === true ? 'resumed' : 'was not suspended'}`;
}

function controllerUrl(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') throw new RcsctlError('E_USAGE', 'give the controller\'s URL: --controller http://HOST:9464 or RCSCTL_CONTROLLER_URL');
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new RcsctlError('E_USAGE', `--controller must be the controller's URL, like http://127.0.0.1:9464, not "${raw}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new RcsctlError('E_USAGE', `--controller must be an http or https URL, not "${raw}"`);
  return u.href.replace(/\/+$/, '');
}

/** The control API's token: --api-token-file, else RCSCTL_CONTROLLER_TOKEN. */
export function apiToken(ctx: CommandContext, file: string | undefined, required = true): string {
  let token = ctx.io.env.RCSCTL_CONTROLLER_TOKEN?.trim() ?? '';
  if (file !== undefined) {
    try {
      token = readFileSync(resolve(ctx.io.cwd, file), 'utf8').trim();
    } catch (err) {
      throw new RcsctlError('E_CONFIG', `cannot read the API token file ${file} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
    }
  }
  if (token === '' && !required) return '';
  if (token.length < 16) throw new RcsctlError('E_CONFIG', 'the control API needs a token of at least 16 characters: set RCSCTL_CONTROLLER_TOKEN or pass --api-token-file FILE');
  return token;
}
