// A preload for one rcsctl run (`node --import dist/bench/timeline.js bin/rcsctl.js …`)
// that says where the whole process spends its time: when the process
// started, when the first and last HTTP requests went out and the last answer
// came back (undici's diagnostics channels), when the first byte of output was
// written, and when the process exited. Printed on stderr as one line,
// `timeline {json}`, milliseconds since the process started. bench/cli.ts runs
// it once per cold-plan scenario, apart from the timed runs.

import { subscribe } from 'node:diagnostics_channel';

const now = (): number => Math.round(performance.now());
// origin: the process's start on the wall clock, so that a benchmark can line up several processes.
const marks: Record<string, number> = { origin: Math.round(performance.timeOrigin), preload: now() };
let requests = 0;
subscribe('undici:request:create', () => {
  requests++;
  marks.lastRequest = now();
  marks.firstRequest ??= marks.lastRequest;
});
subscribe('undici:request:trailers', () => {
  marks.lastAnswer = now();
});
// BENCH_TIMELINE_ANSWERS=1: also when each answer came (ms since the process started) and whether it was a
// 429, for a benchmark that draws each process's rate over time (bench/ratelimit.ts with BENCH_TRACE).
const answers: number[] = [];
const refused: number[] = [];
if (process.env.BENCH_TIMELINE_ANSWERS === '1') {
  subscribe('undici:request:headers', (message) => {
    const status = (message as { response?: { statusCode?: number } }).response?.statusCode;
    (status === 429 ? refused : answers).push(now());
  });
}
const write = process.stdout.write.bind(process.stdout) as (...args: unknown[]) => boolean;
process.stdout.write = ((...args: unknown[]) => {
  marks.firstOutput ??= now();
  return write(...args);
}) as typeof process.stdout.write;
process.on('exit', () => {
  marks.exit = now();
  const times = process.env.BENCH_TIMELINE_ANSWERS === '1' ? { answers, refused } : {};
  process.stderr.write(`timeline ${JSON.stringify({ ...marks, requests, peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024), ...times })}\n`);
});
