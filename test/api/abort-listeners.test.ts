// One abort signal shared by many requests (the controller's shutdown signal
// over a brand's pass, or a caller's own): each request in flight listens on
// it, so more than ten at once must not warn of a listener leak (issue 36: the
// e2e rate-limit test failed on that warning in its stderr).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withRequestSignal } from '../../src/api/abort-scope.js';
import { BRAND, startTestEmulator, type TestEmulator } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator(undefined, 2);
});
afterAll(async () => {
  await emu.close();
});

async function warningsDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const onWarning = (w: Error): void => void seen.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  try {
    await fn();
    // Warnings are emitted on the next tick.
    await new Promise((r) => setTimeout(r, 10));
  } finally {
    process.off('warning', onWarning);
  }
  return seen.filter((w) => w.includes('MaxListeners'));
}

const listChatbots = { method: 'GET', path: '/chatbot', operation: 'list chatbots' } as const;

describe('a shared abort signal', () => {
  it('twenty requests in flight under one withRequestSignal: no listener-leak warning', async () => {
    const client = emu.client({ concurrency: 32 });
    const controller = new AbortController();
    const warnings = await warningsDuring(() => withRequestSignal(controller.signal, () => Promise.all(Array.from({ length: 20 }, () => client.call(BRAND, listChatbots)))));
    expect(warnings).toEqual([]);
  });
});
