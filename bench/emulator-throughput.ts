// Emulator throughput: detail GETs per second over keep-alive, measured with an
// undici Pool from a separate process (the emulator runs in a forked child, so
// the load generator never shares its event loop). Target: 2,000 per second.
//
//   npm run build && node dist/bench/emulator-throughput.js [seconds]

import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { startEmulator } from '../src/emulator/index.js';

/** The figure this benchmark must reach. */
export const TARGET_PER_SECOND = 2000;

const PATHS = ['/api/1.1/brand/BR.demo000001/chatbot/0212345678', '/api/1.1/brand/BR.demo000001/chatbot/0298765432'];

/** Run the benchmark and print requests/second and the ratio to the target. */
export async function run(seconds = 5): Promise<{ perSecond: number; ratio: number }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve(String(m)));
    child.once('exit', (code) => reject(new Error(`emulator child exited with ${code}`)));
  });
  const pool = new Pool(url, { connections: 16, pipelining: 1 });
  const headers = { authorization: 'Bearer emulator-master-token' };
  let done = 0;
  let failed = 0;
  let measuring = false;
  let stop = false;
  const worker = async (i: number) => {
    let n = i;
    while (!stop) {
      const res = await pool.request({ method: 'GET', path: PATHS[n++ % PATHS.length] as string, headers });
      await res.body.arrayBuffer();
      if (!measuring) continue;
      if (res.statusCode === 200) done++;
      else failed++;
    }
  };
  const workers = Array.from({ length: 64 }, (_, i) => worker(i));
  await new Promise((r) => setTimeout(r, 1000)); // warm-up
  measuring = true;
  const t0 = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
  const count = done;
  stop = true;
  await Promise.all(workers);
  await pool.close();
  child.kill('SIGTERM');
  const perSecond = count / elapsed;
  const ratio = perSecond / TARGET_PER_SECOND;
  console.log(`emulator-throughput: ${count} detail GETs in ${elapsed.toFixed(2)} s = ${Math.round(perSecond)} req/s (${ratio.toFixed(2)}x the ${TARGET_PER_SECOND} req/s target)${failed ? `, ${failed} non-200` : ''}`);
  if (failed > 0) throw new Error(`emulator-throughput: ${failed} requests failed`);
  return { perSecond, ratio };
}

async function serve(): Promise<void> {
  const emu = await startEmulator({});
  process.send?.(emu.url);
  const stop = () => void emu.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--serve')) await serve();
  else {
    const seconds = Number(process.argv[2] ?? 5);
    const { ratio } = await run(Number.isFinite(seconds) && seconds > 0 ? seconds : 5);
    process.exitCode = ratio >= 1 ? 0 : 1;
  }
}
