// `rcsctl emulator`: run the local service emulator until stopped.
// Stops on SIGINT or SIGTERM, or (for in-process runs and tests) when
// `io.signal` aborts.

import type { Command } from 'commander';
import { startEmulator } from '../../emulator/index.js';
import { RcsctlError } from '../../errors.js';
import type { CommandContext } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';

/** Register `rcsctl emulator`. */
export function registerEmulator(program: Command, ctx: CommandContext): void {
  program
    .command('emulator')
    .description('run a local emulator of the service (admin API under /_emulator/)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0: any free port)', '0')
    .option('--seed <file>', 'seed YAML (default: examples/emulator-seed.yaml)')
    .option('--latency <ms>', 'delay added to every service response', '0')
    .action(async (opts: { host: string; port: string; seed?: string; latency: string }, cmd: Command) => {
      const port = wholeNumber(opts.port, '--port', 65535);
      const latencyMs = wholeNumber(opts.latency, '--latency', 600_000);
      // `--seed` may also land on the global option of the same name.
      const seed = opts.seed ?? cmd.parent?.opts<{ seed?: string }>().seed;
      const { io } = ctx;
      const emulator = await startEmulator({
        host: opts.host,
        port,
        latencyMs,
        ...(seed !== undefined ? { seed } : {}),
        log: (line) => io.stderr.write(line + '\n'),
      });
      io.stdout.write(`listening on ${emulator.url}\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          io.signal?.removeEventListener('abort', stop);
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
        if (io.signal?.aborted) stop();
        else io.signal?.addEventListener('abort', stop);
      });
      await emulator.close();
      ctx.exit(EXIT_OK);
    });
}

function wholeNumber(text: string, flag: string, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > max) throw new RcsctlError('E_USAGE', `${flag} must be a whole number from 0 to ${max}, not "${text}"`);
  return n;
}
