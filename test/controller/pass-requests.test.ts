// What each controller pass cost (issue 38, "Cost"): the pass's log line, its
// entry in the brand's history (/status/BRANDID) and the brand's page give the
// requests the pass sent and how many were answered 429, counted for that pass
// alone (passes of other brands share the client), and equal to what the
// emulator's request log received; with the rate limit refusing some too.

import { describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import type { PassRecord } from '../../src/controller/history.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, BRAND, EXAMPLE } from '../e2e/helpers.js';
import { brandStatus, get, startFor, useControllerSuite, waitIdle } from './helpers.js';

let emu: RunningEmulator;
let client: RcsClient;
const { running } = useControllerSuite('rcsctl-pass-requests-', (e, c) => {
  emu = e;
  client = c;
});

/** The emulator's log since the last call: how many requests, how many refused with 429. */
async function served(): Promise<{ requests: number; rateLimited: number }> {
  const log = (await admin(emu, 'GET', 'requests')) as { requests: { status: number }[] };
  await admin(emu, 'DELETE', 'requests');
  return { requests: log.requests.length, rateLimited: log.requests.filter((r) => r.status === 429).length };
}

/** Start a controller of the example brand, let its first pass end, and return what the pass said it cost and what the emulator received. */
async function onePass(): Promise<{ said: { requests: number; rateLimited: number }; got: { requests: number; rateLimited: number }; history: PassRecord[]; page: string }> {
  await served();
  const { ctl, logs } = await startFor(emu, client, [EXAMPLE]);
  running.push(ctl);
  await waitIdle(ctl.url);
  const got = await served();
  const passes = logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.event === 'pass' && l.brand === BRAND);
  expect(passes).toHaveLength(1);
  const pass = passes[0] as { requests: number; rateLimited: number };
  const history = (await brandStatus(ctl.url, BRAND) as unknown as { history: PassRecord[] }).history;
  const page = (await get(ctl.url, `/brands/${BRAND}`)).body as string;
  return { said: { requests: pass.requests, rateLimited: pass.rateLimited }, got, history, page };
}

describe("a controller pass's requests", () => {
  it('the log line, the history and the page give the requests the emulator received', async () => {
    const { said, got, history, page } = await onePass();
    expect(got.requests).toBeGreaterThan(5);
    expect(said).toEqual(got);
    expect(history[0]?.requests).toEqual(got);
    expect(page).toContain(`${got.requests} requests, 0 answered 429`);
  });

  it('with the rate limit refusing some: the 429s are counted too', async () => {
    await admin(emu, 'POST', 'rate-limit', { perSecond: 4 });
    try {
      const { said, got, history } = await onePass();
      expect(got.rateLimited, 'the limit refused nothing: the test says nothing about 429s').toBeGreaterThan(0);
      expect(said).toEqual(got);
      expect(history[0]?.requests).toEqual(got);
    } finally {
      await admin(emu, 'POST', 'rate-limit', { perSecond: 0 });
    }
  }, 60_000);
});
