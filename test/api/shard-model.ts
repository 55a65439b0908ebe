// A model of CI shards sharing one account's rate limit, on vitest's fake
// clock: `clients` limiters (one per shard, nothing shared) send their
// requests through the emulator's own token bucket (src/emulator/faults.ts),
// each answer `latencyMs` after it was sent; a refused request waits out its
// Retry-After and goes again, as the transport's retries do. Deterministic:
// the only randomness is the limiters' jitter, seeded.

import { vi } from 'vitest';
import { mulberry32, RateLimit } from '../../src/emulator/faults.js';
import { Limiter } from '../../src/api/limiter.js';

/** The shared limit and the work. */
export interface ModelOptions {
  clients: number;
  /** The account's limit, requests a second; Infinity: none. */
  perSecond: number;
  /** A share of the requests answered 429 at random (Retry-After 1 s), whatever the rate: another tenant, a carrier's hiccup. Seeded. */
  noise?: { share: number; seed: number };
  /** Requests each client must have accepted (one number for all, or one per client). */
  requests: number | number[];
  latencyMs: number;
  /** Requests each client has ready at once (a plan's reads queue many more than are in flight). */
  ready?: number;
  /** When each client starts, ms (processes do not start together). */
  startsMs?: number[];
  /** Called every simulated second with the counts so far. */
  onSecond?: (counts: { accepted: number; limited: number }) => void;
}

/** What the run came to. */
export interface ModelResult {
  accepted: number;
  limited: number;
  /** From the first start to the last client done, simulated ms. */
  ms: number;
  /** accepted ÷ (perSecond × seconds): the share of the limit used. */
  share: number;
  /**
   * (accepted − perSecond) ÷ (perSecond × seconds): the share bench/ratelimit.ts
   * reports, the bucket's first second of burst taken out. On 11 s of work at
   * 200 req/s it is about 0.09 under `share`.
   */
  benchShare: number;
  /** When each client was done, ms after the first start. */
  done: number[];
}

/** Run the model; call with fake timers installed (vi.useFakeTimers()). */
export async function runModel(opts: ModelOptions, limiter: (client: number) => Limiter): Promise<ModelResult> {
  const bucket = opts.perSecond === Infinity ? undefined : new RateLimit(opts.perSecond, () => Date.now());
  const noise = opts.noise;
  const draw = noise === undefined ? undefined : mulberry32(noise.seed);
  const t0 = Date.now();
  const counts = { accepted: 0, limited: 0 };
  const done: number[] = [];
  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
  const client = async (i: number): Promise<void> => {
    await sleep(opts.startsMs?.[i] ?? 0);
    const l = limiter(i);
    let left = typeof opts.requests === 'number' ? opts.requests : (opts.requests[i] as number);
    const worker = async (): Promise<void> => {
      while (left > 0) {
        left -= 1;
        for (;;) {
          const slot = await l.acquire(`brand${i}`);
          await sleep(opts.latencyMs / 2);
          const wait = draw !== undefined && draw() < (noise?.share ?? 0) ? 1 : bucket?.take('account');
          await sleep(opts.latencyMs / 2);
          if (wait === undefined) {
            counts.accepted += 1;
            slot.release('healthy');
            break;
          }
          counts.limited += 1;
          slot.release('limited', wait * 1000);
          await sleep(wait * 1000);
        }
      }
    };
    await Promise.all(Array.from({ length: opts.ready ?? 64 }, worker));
    done.push(Date.now() - t0);
    l.close();
  };
  const all = Promise.all(Array.from({ length: opts.clients }, (_, i) => client(i)));
  let finished = false;
  void all.then(() => (finished = true));
  for (let tick = 1; !finished; tick++) {
    await vi.advanceTimersByTimeAsync(50);
    if (tick % 20 === 0) opts.onSecond?.(counts);
  }
  await all;
  const ms = Math.max(...done);
  const window = (opts.perSecond * ms) / 1000;
  return { ...counts, ms, share: counts.accepted / window, benchShare: (counts.accepted - opts.perSecond) / window, done };
}
