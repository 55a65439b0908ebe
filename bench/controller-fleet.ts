// The fleet both controller benchmarks run against (bench/controller.ts,
// bench/controller-429.ts): an emulator seed of N brands × M auto-replies, the
// manifests that match it (every brand starts in sync), and the emulator in a
// child process of the benchmark's own module (`--serve`), so the measured
// process and the service do not share one event loop (bench/compose.ts uses
// the child too).

import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator, type Seed } from '../src/emulator/index.js';

/** A fleet's size, its master token, and how its brands and auto-replies are named. */
export interface Fleet {
  brands: number;
  perBrand: number;
  token: string;
  brandId(b: number): string;
  replyName(i: number): string;
}

/** The emulator seed: one master account representing every brand, each with `perBrand` auto-replies. */
export function fleetSeed(f: Fleet): Seed {
  const ids = Array.from({ length: f.brands }, (_, b) => f.brandId(b));
  return {
    accounts: [{ userId: 'bench', role: 'master', token: f.token, brands: ids.map((id) => ({ brandId: id, role: 'representative' })) }],
    brands: ids.map((id) => ({
      brandId: id,
      brandKey: `BK.${id.slice(3)}0000`,
      autoReplies: Array.from({ length: f.perBrand }, (_, i) => ({ autoReplyMsgName: f.replyName(i), messagebaseId: 'SCS00000', body: { description: `Auto-reply number ${i}` } })),
    })),
  } as unknown as Seed;
}

/** One manifest per brand, matching the seed: every brand starts in sync. */
export function writeFleetManifests(dir: string, f: Fleet): void {
  mkdirSync(dir, { recursive: true });
  for (let b = 0; b < f.brands; b++) {
    const lines = ['apiVersion: rcsctl/v1', 'kind: Brand', 'brand:', `  id: ${f.brandId(b)}`, 'autoReplies:'];
    for (let i = 0; i < f.perBrand; i++) lines.push(`  ar${i}:`, `    name: "${f.replyName(i)}"`, '    messagebaseId: SCS00000', '    body:', `      description: "Auto-reply number ${i}"`);
    writeFileSync(join(dir, `brand-${String(b).padStart(4, '0')}.yaml`), lines.join('\n') + '\n');
  }
}

/** Fork `moduleUrl` with `--serve` (and `args` after it) and wait for the emulator URL it sends back. */
export async function emulatorChild(moduleUrl: string, args: string[] = []): Promise<{ url: string; close: () => void }> {
  const child = fork(fileURLToPath(moduleUrl), ['--serve', ...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve(String(m)));
    child.once('exit', (code) => reject(new Error(`emulator child exited with ${code}`)));
  });
  return { url, close: () => child.kill('SIGTERM') };
}

/**
 * The child's side of `emulatorChild`: serve `seed` with `latencyMs` a request,
 * send its URL to the parent, and close when told to stop or left alone.
 */
export async function serveEmulator(seed: Seed, latencyMs: number): Promise<void> {
  const emu = await startEmulator({ seed, latencyMs });
  process.send?.(emu.url);
  const stop = (): void => void emu.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
}
