// The controller's page and history at their bounds (issue 39): how long `/`
// takes to draw for 1,000 brands and how large it and /status are; how much
// memory a brand's history holds in the worst case the bounds allow (20
// entries of 200 steps with 500 changes of long values each) and how long its
// page takes to draw. Run with --expose-gc (npm run bench does) for the heap.
//
//   npm run bench -- controller-page

import { renderBrandPage } from '../src/controller/brand-page.js';
import { PassHistory, stepsOf, CHANGES_PER_PASS, DEFAULT_HISTORY_SIZE, STEPS_KEPT } from '../src/controller/history.js';
import { renderStatusPage } from '../src/controller/status-page.js';
import type { ControllerStatus } from '../src/controller/status.js';
import type { StepResult } from '../src/apply/execute.js';

const BRANDS = 1000;
const DRAWS = 20;

/** Runs the benchmark and prints its figures. */
export async function run(): Promise<void> {
  const now = Date.now();
  const brands = Array.from({ length: BRANDS }, (_, i) => ({
    brandId: `BR.b${String(i).padStart(9, '0')}`,
    state: i % 7 === 0 ? ('drifted' as const) : ('in-sync' as const),
    owners: [`@org/team${i % 10}`],
    stateSince: new Date(now - i * 60_000).toISOString(),
    lastPassAt: new Date(now).toISOString(),
    lastPassDurationMs: 120,
    pendingReasons: i % 7 === 0 ? ['autoReply.hours update', 'autoReply.menu update'] : [],
    passes: 3,
  }));
  const status: ControllerStatus = { mode: 'apply', ready: true, startedAt: new Date(now).toISOString(), queueDepth: 0, service: { state: 'ok', since: new Date(now).toISOString() }, brands };
  let html = '';
  let t = performance.now();
  for (let i = 0; i < DRAWS; i++) html = renderStatusPage(status);
  console.log(`/ for ${BRANDS} brands: ${((performance.now() - t) / DRAWS).toFixed(1)} ms a draw, ${(html.length / 1024).toFixed(0)} KiB; /status ${(JSON.stringify(status, null, 2).length / 1024).toFixed(0)} KiB`);

  const change = (j: number): StepResult['step']['changes'][number] => ({ path: `body.f${j}`, type: 'change', before: 'x'.repeat(5000), after: 'y'.repeat(5000) });
  const results = Array.from({ length: STEPS_KEPT + 50 }, (_, i) => ({ status: 'done', message: 'updated', step: { address: `autoReply.a${i}`, op: 'update', changes: Array.from({ length: 60 }, (_, j) => change(j)) } }) as unknown as StepResult);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const history = new PassHistory(DEFAULT_HISTORY_SIZE);
  for (let k = 0; k < DEFAULT_HISTORY_SIZE; k++) history.add({ startedAt: new Date(now + k).toISOString(), durationMs: 1000, mode: 'apply', triggers: [{ kind: 'resync' }], outcome: 'in-sync', planned: results.length, ...stepsOf(results) });
  gc?.();
  const heap = process.memoryUsage().heapUsed - before;
  const list = history.list();
  console.log(`one brand's history at its bounds (${DEFAULT_HISTORY_SIZE} entries x ${STEPS_KEPT} steps, ${CHANGES_PER_PASS} changes of 5,000-character values each): ${gc !== undefined ? `${(heap / 1048576).toFixed(1)} MiB heap` : 'heap not measured (no --expose-gc)'}, ${(JSON.stringify(list).length / 1048576).toFixed(1)} MiB as JSON`);
  t = performance.now();
  const page = renderBrandPage({ declared: true, view: { brandId: 'BR.x', state: 'in-sync', pendingReasons: [], passes: DEFAULT_HISTORY_SIZE, history: list } });
  console.log(`its brand page: ${(performance.now() - t).toFixed(0)} ms, ${(page.length / 1048576).toFixed(1)} MiB`);
}
