// The contract itself: a client that drops what the contract requires is caught
// with the operation and the field, a wrong answer likewise, and every
// definition the operation table names exists.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExchange, checkValue, contractDefinitions, formatViolation } from '../../src/contract/check.js';
import { findOperation, OPERATIONS } from '../../src/contract/operations.js';
import { BRAND, startTestEmulator, type TestEmulator } from '../api/helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
});

describe('the service contract', () => {
  it('a client that drops postback fails the check, naming operation and field', async () => {
    const client = emu.client();
    const action = { displayText: 'Map', urlAction: { openUrl: { url: 'https://example.com/map' } } };
    // The emulator, like the service's own fill-in, accepts it; the contract does not.
    await client.autoReplies.create(BRAND, { autoReplyMsgName: 'No postback', messagebaseId: 'SCS00000', body: { description: 'x' }, chipList: [{ action }] });
    expect((await emu.contract.clear()).map(formatViolation)).toEqual(['autoReply.create request: chipList[0].action.postback: is required']);
    // With the postback (empty data, the service fills it in) the same request holds.
    await client.autoReplies.create(BRAND, { autoReplyMsgName: 'With postback', messagebaseId: 'SCS00000', body: { description: 'x' }, chipList: [{ action: { ...action, postback: { data: '' } } }] });
    expect(await emu.contract.clear()).toEqual([]);
  });

  it('a media field sent in the maapfile:// form breaks the contract: the client sends the bare fileId', () => {
    expect(checkValue('bodyRequest', { media: 'maapfile://ARF1' })).toEqual([{ field: 'media', problem: 'is in a form the contract rules out' }]);
    expect(checkValue('bodyRequest', { media: 'ARF1', title: 'maapfile://is just text here' })).toEqual([]);
  });

  it('an answer of the wrong shape names the operation and the field', async () => {
    const x = {
      method: 'GET',
      path: `/api/1.1/brand/${BRAND.id}/chatbot/0212345678`,
      requestHeaders: {},
      requestBody: Buffer.alloc(0),
      status: 200,
      answer: { code: '20000000', status: 200, desc: 'ok', result: [{ chatbotId: '0212345678', brandId: BRAND.id, subTitle: 'S', service: 'a2p', display: '01', inputField: '1', saftyStatusYn: 'Y', approvalResult: '검수시작(수정)', rcsReply: '1' }] },
    };
    expect((await checkExchange(x)).map(formatViolation)).toEqual([
      'chatbot.get answer: desc: must be null on success',
      'chatbot.get answer: result[0].inputField: must be equal to one of the allowed values',
      'chatbot.get answer: result[0].approvalResult: must be equal to one of the allowed values',
    ]);
  });

  it('a list answer needs pagination and links; the layout component list has no links', async () => {
    const page = (path: string, extra: object) => ({ method: 'GET', path, requestHeaders: {}, requestBody: Buffer.alloc(0), status: 200, answer: { code: '20000000', status: 200, desc: null, result: [], ...extra } });
    expect((await checkExchange(page(`/api/1.1/brand/${BRAND.id}/logo`, { pagination: { total: 0, offset: 0, limit: 1000 } }))).map(formatViolation)).toEqual(['logo.list answer: links: must be object']);
    expect(await checkExchange(page('/api/1.1/baselayout/component', { pagination: { total: 0, offset: 0, limit: 100 } }))).toEqual([]);
  });

  it('finds each operation by method and path, static segments first; every named definition exists', () => {
    expect(findOperation('POST', `/api/1.1/brand/${BRAND.id}/autoreplymsg/file`)?.id).toBe('autoReplyFile.upload');
    expect(findOperation('GET', `/api/1.1/brand/${BRAND.id}/autoreplymsg/ARM1`)?.id).toBe('autoReply.get');
    expect(findOperation('GET', '/api/1.1/brand/x/messagebase')).toBeUndefined();
    expect(contractDefinitions().length).toBeGreaterThan(20);
    for (const name of contractDefinitions()) expect(() => checkValue(name, {}), name).not.toThrow();
    expect(OPERATIONS.length).toBe(new Set(OPERATIONS.map((o) => o.id)).size);
  });
});
