// The layout client against the emulator, every exchange checked against the
// contract: the list read under the names its fields mean (layoutId, not the
// document's sampleLayoutId), a detail without the service's index, create,
// update, delete (idempotent on a retry), the product rules and the samples.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RcsApiError } from '../../src/api/index.js';
import { AGENCY_TOKEN, BRAND, collect, rejection, startTestEmulator, testSeed, type TestEmulator } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator(testSeed({ layouts: [{ layoutId: 'CLLBR.demo-console', layoutName: 'Console', productCode: 'lms', bodyComposition: [{ componentId: 'CP_TEXT_01' }] }] }));
});
afterAll(async () => {
  await emu.close();
});

const agency = () => emu.client({ credentials: { token: AGENCY_TOKEN } });
const request = {
  layoutName: 'Receipt',
  productCode: 'lms',
  headerComposition: [{ componentId: 'CP_TITLE_01' }],
  bodyComposition: [{ componentId: 'CP_TEXT_01' }, { componentId: 'CP_TABLE_01', options: { maxCount: 10 } }],
  footerComposition: [],
};

describe('layouts', () => {
  it('creates, reads (list and detail), updates and deletes a layout', async () => {
    const client = agency();
    const { layoutId } = await client.layouts.create(BRAND, request);
    const listed = await collect(client.layouts.list(BRAND));
    expect(listed.map((l) => [l.layoutId, l.layoutName, l.approvalResult])).toEqual([
      ['CLLBR.demo-console', 'Console', '등록완료'],
      [layoutId, 'Receipt', '등록완료'],
    ]);
    const layout = await client.layouts.get(BRAND, layoutId);
    expect(layout).toMatchObject({ layoutId, layoutName: 'Receipt', productCode: 'lms', cardType: 'formatBr', status: 'ready' });
    expect(layout.headerComposition).toEqual([{ componentId: 'CP_TITLE_01' }]);
    expect(layout.bodyComposition).toEqual([
      { componentId: 'CP_TEXT_01' },
      { componentId: 'CP_TABLE_01', options: { leftAlign: 'left', rightAlign: 'right', leftTextStyle: 'normal', rightTextStyle: 'normal', maxCount: 10 } },
    ]);
    expect(await client.layouts.update(BRAND, layoutId, { ...request, layoutName: 'Receipt 2' })).toEqual({ layoutId });
    expect((await client.layouts.get(BRAND, layoutId)).layoutName).toBe('Receipt 2');
    await client.layouts.delete(BRAND, layoutId, 'Receipt 2');
    const err = await rejection(client.layouts.get(BRAND, layoutId));
    expect(err).toBeInstanceOf(RcsApiError);
    expect((err as RcsApiError).message).toBe(`get layout (${layoutId}) failed: 400 64545 Invalid layoutId`);
  });

  it('reads the product rules and the samples', async () => {
    const client = agency();
    expect((await client.layouts.rules()).map((r) => r.productCode)).toEqual(['sms', 'lms', 'mms']);
    expect((await collect(client.layouts.samples())).map((s) => s.sampleLayoutId)).toEqual(['SL_RECEIPT_01', 'SL_NOTICE_01']);
    expect((await client.layouts.sample('SL_NOTICE_01')).headerComposition).toEqual([{ index: 1, componentId: 'CP_IMAGE_01' }]);
  });

  it('names the role refusal for another account (401 61003)', async () => {
    const err = await rejection(collect(emu.client().layouts.list(BRAND)));
    expect((err as RcsApiError).message).toBe(`list layouts of ${BRAND.id} failed: 401 61003 Invalid token`);
  });
});
