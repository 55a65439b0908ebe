import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, call, start } from './helpers.js';

let emu: RunningEmulator;
beforeAll(async () => { emu = await start(); });
afterAll(async () => { await emu.close(); });

describe('smoke', () => {
  it('serves chatbot detail', async () => {
    const a = await call(emu, 'GET', `/api/1.1/brand/${BRAND}/chatbot/0212345678`);
    expect(a.status).toBe(200);
    expect(a.body.result[0].subTitle).toBe('Coffee Co');
  });
});
