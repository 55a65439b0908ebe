// The layout routes of the emulator over real HTTP: the document's shapes
// (BrandLayout names the layout's own id sampleLayoutId), the agency role, the
// errors of its error list (64545, 64546, 64549, 64550, 64552, 64600, 64601,
// 64603, 64604), the product rules, the samples, the states that refuse a
// change or a delete, a seeded console layout, and formatbr notifications.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, call, errorOf, useEmulator } from './helpers.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

const SEED = `
clock: "2026-11-21T10:00:00.000+09"
accounts:
  - { userId: master, role: master, token: t-master, brands: [{ brandId: BR.a, role: representative }] }
  - { userId: agency, role: agency, token: t-agency, brands: [{ brandId: BR.a, role: operator }] }
brands:
  - brandId: BR.a
    brandKey: BK.a
    templateColor: "#112233"
    layouts:
      - { layoutId: CLLBR.a-console, layoutName: From the console, productCode: lms, bodyComposition: [{ componentId: CP_TEXT_01 }] }
      - { layoutId: CLLBR.a-stuck, layoutName: Stuck, productCode: lms, approvalResult: 처리중, bodyComposition: [{ componentId: CP_TEXT_01 }] }
messaging:
  agencies:
    - { agencyId: ag1, agencyKey: AK.one, brands: [BR.a] }
`;

let emu: RunningEmulator;
let rx: Receiver;
useEmulator((e) => (emu = e), { seed: SEED });
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());
beforeEach(async () => {
  await admin(emu, 'POST', 'reset');
  await admin(emu, 'POST', 'messaging/options', { batchIntervalMs: 10 });
  await admin(emu, 'POST', 'messaging/webhook', { agencyId: 'ag1', url: `${rx.url}/ag1` });
  rx.calls.length = 0;
});

const AGENCY = { token: 't-agency', brandKey: 'BK.a' };
const LAYOUTS = '/api/1.1/brand/BR.a/layout';
const receipt = {
  layoutName: 'Receipt',
  productCode: 'lms',
  headerComposition: [{ componentId: 'CP_TITLE_01' }],
  bodyComposition: [{ componentId: 'CP_TEXT_01' }, { componentId: 'CP_TABLE_01', options: { maxCount: 10, rightTextStyle: 'bold' } }],
  footerComposition: [{ componentId: 'CP_BUTTON_01', options: { color: '#FFFFFF' } }],
};

describe('brand layouts', () => {
  it('registers a layout at once (등록완료), lists it under the document names and reads it with every option filled in', async () => {
    const reg = await call(emu, 'POST', LAYOUTS, { ...AGENCY, json: receipt });
    expect(reg.status, reg.text).toBe(200);
    const layoutId = reg.body.result[0].layoutId as string;
    expect(layoutId).toMatch(/^CLLBR\.a-\d{8}$/);
    const list = await call(emu, 'GET', LAYOUTS, AGENCY);
    expect(list.body.pagination.total).toBe(3);
    expect(list.body.result.find((l: any) => l.sampleLayoutId === layoutId)).toEqual({
      sampleLayoutId: layoutId,
      sampleLayoutName: 'Receipt',
      productCode: 'lms',
      status: 'ready',
      registerId: 'agency',
      registerDate: '2026-11-21T10:00:00.000+09',
      updateDate: '2026-11-21T10:00:00.000+09',
      approvalResult: '등록완료',
    });
    const detail = (await call(emu, 'GET', `${LAYOUTS}/${layoutId}`, AGENCY)).body.result[0];
    expect(detail.cardType).toBe('formatBr');
    expect(detail.headerComposition).toEqual([{ index: 1, componentId: 'CP_TITLE_01' }]);
    expect(detail.bodyComposition[1]).toEqual({ index: 3, componentId: 'CP_TABLE_01', options: { leftAlign: 'left', rightAlign: 'right', leftTextStyle: 'normal', rightTextStyle: 'bold', maxCount: 10 } });
    // A colour other than the brand's templateColor is set to it.
    expect(detail.footerComposition).toEqual([{ index: 4, componentId: 'CP_BUTTON_01', options: { color: '#112233' } }]);
    expect(detail.buttonColor).toBe('#112233');
  });

  it('modifies (the answer gives the send body), refuses an identical one (64323), deletes, and then knows it no more (64545)', async () => {
    const layoutId = (await call(emu, 'POST', LAYOUTS, { ...AGENCY, json: receipt })).body.result[0].layoutId;
    const changed = { ...receipt, layoutName: 'Receipt 2' };
    const mod = await call(emu, 'PUT', `${LAYOUTS}/${layoutId}`, { ...AGENCY, json: changed });
    expect(mod.status, mod.text).toBe(200);
    expect(mod.body.result[0]).toEqual({ layoutId, body: { mTitle: '', description2: '', description3: '', button4: '' } });
    expect(errorOf(await call(emu, 'PUT', `${LAYOUTS}/${layoutId}`, { ...AGENCY, json: changed }))).toEqual({ status: 400, code: '64323', message: 'No changes' });
    expect((await call(emu, 'DELETE', `${LAYOUTS}/${layoutId}`, AGENCY)).body.result).toEqual([{ layoutId }]);
    expect(errorOf(await call(emu, 'GET', `${LAYOUTS}/${layoutId}`, AGENCY))).toEqual({ status: 400, code: '64545', message: 'Invalid layoutId' });
    expect(errorOf(await call(emu, 'DELETE', `${LAYOUTS}/${layoutId}`, AGENCY)).code).toBe('64545');
  });

  it('refuses a change or a delete of a layout stuck part-way (처리중), and registers a saved one (저장) by its modification', async () => {
    const body = { layoutName: 'Stuck', productCode: 'lms', headerComposition: [], bodyComposition: [{ componentId: 'CP_TEXT_01' }], footerComposition: [] };
    expect(errorOf(await call(emu, 'PUT', `${LAYOUTS}/CLLBR.a-stuck`, { ...AGENCY, json: body })).code).toBe('64328');
    expect(errorOf(await call(emu, 'DELETE', `${LAYOUTS}/CLLBR.a-stuck`, AGENCY)).code).toBe('64327');
    expect((await admin(emu, 'POST', 'state', { kind: 'layout', brandId: 'BR.a', id: 'CLLBR.a-console', approvalResult: '저장' })).status).toBe(200);
    const same = { layoutName: 'From the console', productCode: 'lms', headerComposition: [], bodyComposition: [{ componentId: 'CP_TEXT_01' }], footerComposition: [] };
    expect((await call(emu, 'PUT', `${LAYOUTS}/CLLBR.a-console`, { ...AGENCY, json: same })).status).toBe(200);
    expect((await call(emu, 'GET', `${LAYOUTS}/CLLBR.a-console`, AGENCY)).body.result[0].approvalResult).toBe('등록완료');
  });

  it('answers each documented error of a registration', async () => {
    const refused = async (patch: Record<string, unknown>) => errorOf(await call(emu, 'POST', LAYOUTS, { ...AGENCY, json: { ...receipt, ...patch } }));
    expect(await refused({ productCode: 'rcs' })).toMatchObject({ code: '64546', message: 'Invalid product code' });
    expect(await refused({ sampleLayoutId: 'SL_NONE' })).toMatchObject({ code: '64603' });
    expect(await refused({ bodyComposition: [] })).toMatchObject({ code: '64549' });
    expect(await refused({ headerComposition: [{ componentId: 'CP_TITLE_01' }, { componentId: 'CP_IMAGE_01' }] })).toMatchObject({ code: '64550' });
    expect(await refused({ footerComposition: [{ componentId: 'CP_BUTTON_01' }, { componentId: 'CP_BUTTON_01' }] })).toMatchObject({ code: '64601' });
    expect(await refused({ bodyComposition: [{ componentId: 'CP_TITLE_01' }] })).toEqual({ status: 400, code: '64552', message: 'CP_TITLE_01 component is not available for bodyComposition' });
    for (const id of ['CP_NOPE', 'CP_VIDEO_01', 'CP_TABLE_02', 'CP_BUTTON_02']) expect(await refused({ bodyComposition: [{ componentId: id }] })).toMatchObject({ code: '64600', message: 'Invalid componetId' });
    expect(await refused({ productCode: 'mms', bodyComposition: [{ componentId: 'CP_IMAGE_01' }, { componentId: 'CP_VIDEO_01' }] })).toMatchObject({ code: '64600' });
    expect(await refused({ bodyComposition: [{ componentId: 'CP_TABLE_01', options: { maxCount: 7 } }] })).toMatchObject({ code: '64303', message: 'Invalid type of Attribute (bodyComposition[0].options.maxCount)' });
    expect(await refused({ bodyComposition: [{ componentId: 'CP_TEXT_01', options: { color: '' } }] })).toMatchObject({ code: '64303' });
    expect(await refused({ layoutName: 'x'.repeat(41) })).toMatchObject({ code: '64304' });
    expect(await refused({ footerComposition: undefined })).toMatchObject({ code: '64336' });
    // The product's rule: LMS takes no image, at most six components.
    expect(await refused({ bodyComposition: [{ componentId: 'CP_IMAGE_01' }] })).toMatchObject({ code: '64304', message: 'Over specified size (componentLimit.GRP_MEDIA)' });
    expect(await refused({ bodyComposition: Array.from({ length: 6 }, () => ({ componentId: 'CP_TEXT_01' })) })).toMatchObject({ code: '64304', message: 'Over specified size (componentCount)' });
  });

  it('is for the agency account role only (61003), with a role on the brand (63001)', async () => {
    expect(errorOf(await call(emu, 'GET', LAYOUTS, { token: 't-master' }))).toMatchObject({ status: 401, code: '61003' });
    expect(errorOf(await call(emu, 'GET', '/api/1.1/brand/BR.zz/layout', AGENCY))).toMatchObject({ status: 403, code: '63001' });
    expect(errorOf(await call(emu, 'GET', LAYOUTS, { token: 't-agency' }))).toMatchObject({ code: '64001' });
  });

  it('announces registration, modification and deletion as formatbr with the layout id as messagebaseId; nothing for a refused call', async () => {
    const layoutId = (await call(emu, 'POST', LAYOUTS, { ...AGENCY, json: receipt })).body.result[0].layoutId;
    expect((await call(emu, 'PUT', `${LAYOUTS}/${layoutId}`, { ...AGENCY, json: receipt })).status).toBe(400);
    expect((await call(emu, 'PUT', `${LAYOUTS}/${layoutId}`, { ...AGENCY, json: { ...receipt, layoutName: 'Other' } })).status).toBe(200);
    expect((await call(emu, 'DELETE', `${LAYOUTS}/${layoutId}`, AGENCY)).status).toBe(200);
    await rx.until(() => rx.on('/ag1').length >= 3);
    await new Promise((r) => setTimeout(r, 50));
    const head = { notiType: 'formatbr', brandId: 'BR.a', messagebaseId: layoutId };
    expect(rx.on('/ag1').map((c) => c.body[0])).toEqual([
      { ...head, method: 'created' },
      { ...head, method: 'modified' },
      { ...head, method: 'deleted' },
    ]);
  });
});

describe('product rules and samples', () => {
  it('lists the rule of each product and the samples, reads a sample in full, and refuses an unknown one (64603)', async () => {
    const rules = await call(emu, 'GET', '/api/1.1/baselayout/product/rule', AGENCY);
    expect(rules.body.result.map((r: any) => r.productCode)).toEqual(['sms', 'lms', 'mms']);
    expect(rules.body.result[1]).toEqual({ productCode: 'lms', componentCount: 6, componentMinCount: 1, buttonCount: 3, componentLimit: { GRP_MEDIA: 0 } });
    const samples = await call(emu, 'GET', '/api/1.1/baselayout/sample', AGENCY);
    expect(samples.body.result.map((s: any) => s.sampleLayoutId)).toEqual(['SL_RECEIPT_01', 'SL_NOTICE_01']);
    const sample = (await call(emu, 'GET', '/api/1.1/baselayout/sample/SL_RECEIPT_01', AGENCY)).body.result[0];
    expect(sample.headerComposition).toEqual([{ index: 1, componentId: 'CP_TITLE_01' }]);
    expect(sample.formattedString.RCSMessage.openrichcardMessage.layout.children).toHaveLength(4);
    expect(errorOf(await call(emu, 'GET', '/api/1.1/baselayout/sample/SL_NONE', AGENCY))).toMatchObject({ code: '64603', message: 'Invalid sampleLayoutId' });
    expect(errorOf(await call(emu, 'GET', '/api/1.1/baselayout/product/rule', { token: 't-master' })).code).toBe('61003');
  });
});
