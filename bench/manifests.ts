// Manifest files for the benchmarks: one brand's auto-replies written as YAML,
// the same auto-replies the benchmark seed holds (see plan-read.ts), every
// tenth with a changed text so a plan has work to show.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The bench brand. */
export const BENCH_BRAND = 'BR.bench00001';

/** The name of auto-reply `i`, as the seed and the manifest both write it. */
export function benchName(i: number): string {
  return `Auto-reply ${String(i).padStart(4, '0')}`;
}

/** How the bench auto-replies are written: every `changedEvery`-th text changed; with `ring`, each one's first chip opens the next, the last the first. */
export interface BenchOptions {
  changedEvery?: number;
  /** The number of auto-replies in the ring (the whole brand), so that every one is reachable and leads on. */
  ring?: number;
}

/** The YAML of auto-replies `from` to `to - 1`, one brand document. */
export function autoRepliesYaml(from: number, to: number, opts: BenchOptions = {}): string {
  const every = opts.changedEvery ?? 10;
  const lines = ['apiVersion: rcsctl/v1', 'kind: Brand', 'brand:', `  id: ${BENCH_BRAND}`, 'autoReplies:'];
  for (let i = from; i < to; i++) {
    const text = every > 0 && i % every === 0 ? `Auto-reply number ${i}, changed` : `Auto-reply number ${i}`;
    lines.push(
      `  ar${i}:`,
      `    name: "${benchName(i)}"`,
      '    messagebaseId: SCS00000',
      '    body:',
      `      description: "${text}"`,
      '    chipList:',
      ...(opts.ring === undefined ? [] : [`      - reply: { autoReply: ar${(i + 1) % opts.ring}, displayText: Next }`]),
      `      - action: { displayText: Web, urlAction: { openUrl: { url: "https://example.com/${i}" } } }`,
    );
  }
  return lines.join('\n') + '\n';
}

/** Write `count` auto-replies into `dir` as `files` manifest files of equal size; returns the directory. */
export function writeBenchManifests(dir: string, count: number, files = 1, opts: BenchOptions = {}): string {
  mkdirSync(dir, { recursive: true });
  const per = Math.ceil(count / files);
  for (let f = 0; f < files; f++) {
    writeFileSync(join(dir, `part-${String(f).padStart(3, '0')}.yaml`), autoRepliesYaml(f * per, Math.min(count, (f + 1) * per), opts));
  }
  return dir;
}
