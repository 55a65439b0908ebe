// The memory benchmark: how much the client holds while planning a large
// brand. 10,000 live auto-replies (no latency), planned at concurrency 8; the
// heap in use after the plan (garbage collected, live state and plan still
// referenced) divided by the number of auto-replies. Target: at most 4 KiB
// per auto-reply, so even a 100,000-message brand holds well under 1 GiB.
//
//   npm run build && node --expose-gc dist/bench/plan-memory.js [count]

import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient } from '../src/api/index.js';
import { buildPlan } from '../src/plan/build-plan.js';
import { readLive } from '../src/plan/read-live.js';
import { benchDesired } from './plan-read.js';

/** Bytes of heap per live auto-replies this benchmark must stay within. */
export const TARGET_BYTES_PER_AUTO_REPLY = 4 * 1024;

const PLAN_READ = fileURLToPath(new URL('./plan-read.js', import.meta.url));

/** Run the benchmark and print heap per auto-reply and the ratio to the target. */
export async function run(count = 10_000): Promise<{ bytesPerAutoReply: number; ratio: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const child = fork(PLAN_READ, ['--serve', String(count), '0'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.once('message', (m) => resolve(String(m)));
      child.once('exit', (code) => reject(new Error(`emulator child exited with ${code}`)));
    });
    const desired = benchDesired(count);
    gc?.();
    const before = process.memoryUsage().heapUsed;
    const client = createClient({ baseUrl: url, credentials: { token: 'bench-master-token' }, concurrency: 8 });
    const t0 = process.hrtime.bigint();
    const live = await readLive(client, { id: 'BR.bench00001' }, { concurrency: 8 });
    const plan = buildPlan(desired, live);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    await client.close();
    gc?.();
    const held = process.memoryUsage().heapUsed - before;
    const perItem = held / count;
    const ratio = perItem / TARGET_BYTES_PER_AUTO_REPLY;
    if (live.autoReplies.length !== count || plan.steps.length !== Math.ceil(count / 10)) throw new Error('the plan is not the expected one');
    console.log(
      `plan-memory: ${count} live auto-replies planned in ${ms.toFixed(0)} ms; heap held ${(held / 1024 / 1024).toFixed(1)} MiB = ` +
        `${(perItem / 1024).toFixed(1)} KiB per auto-reply; ratio ${ratio.toFixed(2)} to the ${TARGET_BYTES_PER_AUTO_REPLY / 1024} KiB target` +
        (gc ? '' : ' (run with node --expose-gc for a settled figure)') +
        `; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
    );
    return { bytesPerAutoReply: perItem, ratio };
  } finally {
    child.kill('SIGTERM');
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const count = Number(process.argv[2] ?? 10_000);
  const { ratio } = await run(count);
  process.exitCode = ratio <= 1 ? 0 : 1;
}
