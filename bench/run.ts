// Runs every benchmark in bench/ in turn. Add yours to BENCHES.
//
//   npm run build && node dist/bench/run.js

/** A benchmark module: its name and a loader returning its `run`. */
interface Bench {
  name: string;
  load: () => Promise<{ run: () => Promise<unknown> }>;
}

const BENCHES: Bench[] = [
  { name: 'emulator-throughput', load: () => import('./emulator-throughput.js') },
  { name: 'plan-read', load: () => import('./plan-read.js') },
  { name: 'plan-memory', load: () => import('./plan-memory.js') },
];

let failed = 0;
for (const bench of BENCHES) {
  console.log(`== ${bench.name}`);
  try {
    await (await bench.load()).run();
  } catch (err) {
    failed++;
    console.error(`${bench.name} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
