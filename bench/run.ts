// Runs every benchmark in bench/ in turn, or those named. Add yours to BENCHES.
//
//   npm run bench                      # all
//   npm run bench -- cli plan-1k       # one benchmark (cli: and some of its scenarios)

/** A benchmark module: its name and a loader returning its `run`. */
interface Bench {
  name: string;
  /** Runs the benchmark; `args` are the words after its name on the command line. */
  load: () => Promise<(args: string[]) => Promise<unknown>>;
}

const BENCHES: Bench[] = [
  { name: 'cli', load: async () => (await import('./cli.js')).run },
  { name: 'emulator-throughput', load: async () => () => import('./emulator-throughput.js').then((m) => m.run()) },
  { name: 'plan-read', load: async () => () => import('./plan-read.js').then((m) => m.run()) },
  { name: 'plan-memory', load: async () => () => import('./plan-memory.js').then((m) => m.run()) },
  // `export-many [brands ...]`: one `export --all` process against one process per brand (export-many.ts).
  { name: 'export-many', load: async () => (await import('./export-many.js')).run },
  { name: 'compose', load: async () => () => import('./compose.js').then((m) => m.run()) },
  { name: 'ratelimit', load: async () => (await import('./ratelimit.js')).run },
  { name: 'ci-cost', load: async () => () => import('./ci-cost.js').then((m) => m.run()) },
  // The controller's page and history at their bounds (controller-page.ts).
  { name: 'controller-page', load: async () => () => import('./controller-page.js').then((m) => m.run()) },
  // `controller 429`: the pass under random 429 storms (controller-429.ts).
  { name: 'controller', load: async () => (args) => (args[0] === '429' ? import('./controller-429.js').then((m) => m.run()) : import('./controller.js').then((m) => m.run())) },
];

const [only, ...args] = process.argv.slice(2);
const chosen = only === undefined ? BENCHES : BENCHES.filter((b) => b.name === only);
if (chosen.length === 0) throw new Error(`no benchmark "${only}"; known: ${BENCHES.map((b) => b.name).join(', ')}`);

let failed = 0;
for (const bench of chosen) {
  console.log(`== ${bench.name}`);
  try {
    await (await bench.load())(args);
  } catch (err) {
    failed++;
    console.error(`${bench.name} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
