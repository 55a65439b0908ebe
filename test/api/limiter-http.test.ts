// The one limiter over real HTTP: brands are served in turn through the shared
// limit, `auto` recovers from a rate limit by itself, clients of one account
// (CI shards) share its limit with nothing but 429s between them, and one 429
// holds back only its own request.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENCY_TOKEN, BRAND, OTHER_BRAND, startTestEmulator, type TestEmulator } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator(undefined, 2);
});
afterAll(async () => {
  await emu.close();
});

describe('one limit, shared fairly', () => {
  it('a brand with 5 requests finishes early while a brand with 300 queued before it is still reading', async () => {
    const client = emu.client({ concurrency: 4 });
    const done: string[] = [];
    const read = (brand: { id: string; key: string }) =>
      client.call(brand, { method: 'GET', path: '/chatbot', operation: 'list chatbots' }).then(() => void done.push(brand.id));
    const big = Array.from({ length: 300 }, () => read(BRAND));
    const small = Array.from({ length: 5 }, () => read(OTHER_BRAND));
    await Promise.all([...big, ...small]);
    expect(done.length).toBe(305);
    // First come, first served would finish the small brand last (completions 301-305).
    expect(done.lastIndexOf(OTHER_BRAND.id)).toBeLessThan(20);
    expect(client.limits.peakConcurrency).toBe(4);
  });
});

describe('--concurrency auto over HTTP', () => {
  it('paces on 429 (the limit in flight stays), waits out Retry-After, and every request still succeeds', async () => {
    await emu.admin('POST', '/rate-limit', { perSecond: 30 });
    const client = emu.client({ concurrency: 'auto', maxConcurrency: 16 });
    try {
      const answers = await Promise.all(Array.from({ length: 60 }, () => client.call(BRAND, { method: 'GET', path: '/chatbot', operation: 'list chatbots' })));
      expect(answers.length).toBe(60);
      const counts = (await emu.admin('GET', '/rate-limit')) as { allowed: number; limited: number };
      expect(counts.limited).toBeGreaterThan(0);
      expect(client.limits.rateLimited).toBe(counts.limited);
      // It grew while the answers were healthy; the 429s set a pace, not a lower limit in flight.
      // (The first pace comes from a burst the service's allowance let through, so it may be
      // far above 30 a second; the next 429 brings it down. limiter.test.ts has the figures.)
      expect(client.limits.peakConcurrency).toBeGreaterThan(4);
      expect(client.limits.concurrency).toBe(client.limits.peakConcurrency);
      expect(client.limits.pace).toBeLessThan(Infinity);
    } finally {
      await emu.admin('POST', '/rate-limit', { perSecond: 0 });
    }
  });
});

const listChatbots = { method: 'GET', path: '/chatbot', operation: 'list chatbots' } as const;

describe('clients of one account, nothing shared but the limit', () => {
  it("the emulator's limit is the account's across connections: four clients share it, each paces itself and raises its pace after successes; another account is not held back", async () => {
    await emu.admin('POST', '/rate-limit', { perSecond: 40 });
    const shards = Array.from({ length: 4 }, () => emu.client({ concurrency: 'auto', maxConcurrency: 16 }));
    const other = emu.client({ concurrency: 'auto', credentials: { token: AGENCY_TOKEN } });
    try {
      const paces: number[][] = shards.map(() => []);
      const reads = shards.flatMap((c, i) => Array.from({ length: 40 }, () => c.call(BRAND, listChatbots).then(() => void paces[i]?.push(c.limits.pace))));
      const otherReads = Array.from({ length: 20 }, () => other.call(BRAND, listChatbots));
      await Promise.all([...reads, ...otherReads]);
      const counts = (await emu.admin('GET', '/rate-limit')) as { allowed: number; limited: number };
      // The other account has a bucket of its own: its 20 reads fit in its allowance.
      expect(other.limits.rateLimited).toBe(0);
      expect(counts.allowed).toBe(4 * 40 + 20);
      expect(shards.reduce((n, c) => n + c.limits.rateLimited, 0)).toBe(counts.limited);
      for (const [i, c] of shards.entries()) {
        // Each met the account's limit on its own connections and set a pace; the pace rose after successes.
        expect(c.limits.rateLimited).toBeGreaterThan(0);
        const seen = (paces[i] as number[]).filter((p) => p !== Infinity);
        expect(seen.length).toBeGreaterThan(0);
        expect(seen.some((p, j) => j > 0 && p > (seen[j - 1] as number))).toBe(true);
      }
      // Bounded: the 120 reads beyond the first second's allowance of 40 are not refused one for one.
      expect(counts.limited).toBeLessThan(60);
    } finally {
      await emu.admin('POST', '/rate-limit', { perSecond: 0 });
    }
  });

  it('a 429 holds back its own request only: reads of another brand go on while it waits out Retry-After', async () => {
    const client = emu.client({ concurrency: 'auto' });
    // A client that has been reading: the 429 then sets a pace from a hundred answers (a 429 before
    // five would start the pace slow, as for a shard joining an account its neighbours use).
    await Promise.all(Array.from({ length: 100 }, () => client.call(BRAND, listChatbots)));
    const earlier = (await emu.requests()).length;
    // One 429 with Retry-After 3 s for the other brand's read, then no more faults.
    await emu.admin('POST', '/faults', { seed: 1, rules: [{ path: `${OTHER_BRAND.id.replace('.', '\\.')}/chatbot`, kind: 'rate-limit', rate: 1, retryAfter: 3 }] });
    let refusedDone = false;
    const refused = client.call(OTHER_BRAND, listChatbots).then(() => (refusedDone = true));
    while (!(await emu.requests()).some((r) => r.path.includes(`${OTHER_BRAND.id}/chatbot`) && r.status === 429)) await new Promise((r) => setTimeout(r, 5));
    await emu.admin('DELETE', '/faults');
    await Promise.all(Array.from({ length: 20 }, () => client.call(BRAND, listChatbots)));
    // All twenty answered while the refused read still waits.
    expect(refusedDone).toBe(false);
    await refused;
    const log = (await emu.requests()).slice(earlier).filter((r) => r.path.endsWith('/chatbot'));
    const otherAt = log.flatMap((r, i) => (r.path.includes(OTHER_BRAND.id) ? [i] : []));
    expect(otherAt.length).toBe(2);
    expect(log.slice((otherAt[0] as number) + 1, otherAt[1]).filter((r) => r.path.includes(BRAND.id)).length).toBe(20);
    expect(client.limits.rateLimited).toBe(1);
  });
});
