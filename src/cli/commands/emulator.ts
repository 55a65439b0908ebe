// `rcsctl emulator`: run the local service emulator until stopped.
// Stops on SIGINT or SIGTERM, or (for in-process runs and tests) when
// `io.signal` aborts.

import type { Command } from 'commander';
import { resolve } from 'node:path';
import { loadSeed, startEmulator } from '../../emulator/index.js';
import { withDeclaredBrands } from '../../emulator/seed-brands.js';
import { defaultSeedPath } from '../../util/paths.js';
import { SANDBOX_TOKEN } from '../connect.js';
import { declaredBy, loadOrFail } from '../load.js';
import { RcsctlError } from '../../errors.js';
import type { CommandContext } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';
import { untilStopped } from '../interrupt.js';

/** Register `rcsctl emulator`. */
export function registerEmulator(program: Command, ctx: CommandContext): void {
  program
    .command('emulator')
    .description('run a local emulator of the service (admin API under /_emulator/)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0: any free port)', '0')
    .option('--latency <ms>', 'delay added to every service response', '0')
    .option('--rate-limit <n>', 'answer 429 with Retry-After beyond n requests a second per account (0: no limit)', '0')
    .option('--brands-from <paths...>', 'also seed every brand these manifests declare, with a representative role for the master account')
    .action(async (opts: { host: string; port: string; latency: string; rateLimit: string; brandsFrom?: string[] }, cmd: Command) => {
      const port = wholeNumber(opts.port, '--port', 65535);
      const latencyMs = wholeNumber(opts.latency, '--latency', 600_000);
      const rateLimit = wholeNumber(opts.rateLimit, '--rate-limit', 1_000_000);
      // `--seed` is the global option (one option for --sandbox and for this command, listed once in help).
      const seedPath = cmd.parent?.opts<{ seed?: string }>().seed;
      const { io } = ctx;
      const base = loadSeed(resolve(io.cwd, seedPath ?? defaultSeedPath()));
      const declared = opts.brandsFrom !== undefined ? declaredBy(await loadOrFail(ctx, opts.brandsFrom)).declared ?? [] : [];
      const ready = withDeclaredBrands(base, declared, SANDBOX_TOKEN);
      const emulator = await startEmulator({
        host: opts.host,
        port,
        latencyMs,
        rateLimit,
        seed: ready.seed,
        log: (line) => io.stderr.write(line + '\n'),
      });
      io.stdout.write(`listening on ${emulator.url}\n`);
      if (rateLimit > 0) io.stdout.write(`rate limit: ${rateLimit} requests a second per account (429 with Retry-After beyond)\n`);
      if (declared.length > 0) {
        const known = new Set(base.brands.map((b) => b.brandId));
        const added = [...new Set(declared.map((d) => d.brandId))].filter((id) => !known.has(id));
        io.stdout.write(`seeded from the manifests: ${added.length > 0 ? added.join(', ') : 'no brand the seed lacked'}; master account token: ${ready.token}\n`);
      }
      await untilStopped(io);
      await emulator.close();
      ctx.exit(EXIT_OK);
    });
}

function wholeNumber(text: string, flag: string, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > max) throw new RcsctlError('E_USAGE', `${flag} must be a whole number from 0 to ${max}, not "${text}"`);
  return n;
}
