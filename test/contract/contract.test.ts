// The contract itself: a client that drops what the contract requires is caught
// with the operation and the field, a wrong answer likewise, and every
// definition the operation table names exists.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExchange, checkValue, contractDefinitions, formatViolation } from '../../src/contract/check.js';
import { findOperation, OPERATIONS } from '../../src/contract/operations.js';
import { sendRoutes } from '../../src/emulator/messaging/send.js';
import { agencyRoutes } from '../../src/emulator/routes/agency.js';
import { autoReplyRoutes } from '../../src/emulator/routes/auto-replies.js';
import { chatbotRoutes } from '../../src/emulator/routes/chatbots.js';
import { logoRoutes } from '../../src/emulator/routes/logos.js';
import { menuRoutes } from '../../src/emulator/routes/menus.js';
import { miscRoutes } from '../../src/emulator/routes/misc.js';
import { templateRoutes } from '../../src/emulator/routes/templates.js';
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

  it('template requests and answers are in the contract: a v2 registration without body, or with a bad custTmpltId, names the field', async () => {
    const post = (path: string, body: unknown) => ({ method: 'POST', path, requestHeaders: { 'content-type': 'application/json' }, requestBody: Buffer.from(JSON.stringify(body)), status: 400, answer: { error: { code: '64397', message: 'required body' }, status: 400 } });
    const head = { brandId: BRAND.id, custTmpltId: 'notice1', messagebaseformId: 'TADS001A', tmpltName: 'Notice' };
    expect((await checkExchange(post(`/api/1.1/brand/${BRAND.id}/v2/messagebase`, head))).map(formatViolation)).toEqual(['template.register request: body: is required']);
    expect((await checkExchange(post(`/api/1.1/brand/${BRAND.id}/v2/messagebase`, { ...head, custTmpltId: 'not-ok!', body: [{ param: 'description', value: 'x' }] }))).map(formatViolation)).toEqual([
      'template.register request: custTmpltId: must match pattern "^[A-Za-z0-9]{1,25}$"',
    ]);
    expect((await checkExchange(post(`/api/1.1/brand/${BRAND.id}/messagebase`, { regMessagebases: [{ ...head, formattedString: {} }] }))).map(formatViolation)).toEqual([
      'template.registerText request: regMessagebases[0].formattedString.RCSMessage: is required',
    ]);
  });

  it('message sends are in the contract: a send without agencyKey is caught; a send chip may leave postback out', async () => {
    const send = (body: unknown) => ({ method: 'POST', path: '/ag/1.2/message', requestHeaders: { 'content-type': 'application/json' }, requestBody: Buffer.from(JSON.stringify(body)), status: 200, answer: { status: '200', data: { msgId: 'MSG1', clientMsgId: 'c-1' } } });
    const message = { clientMsgId: 'c-1', chatbotId: '0200000001', messagebaseId: 'SCS00000', userContact: '01000000001', agencyId: 'ag1', agencyKey: 'AK.one', brandKey: 'BK.a', body: { description: 'hi' } };
    const chip = { action: { displayText: 'Web', urlAction: { openUrl: { url: 'https://example.com' } } } };
    expect(await checkExchange(send({ ...message, chipList: [chip] }))).toEqual([]);
    const { agencyKey: _k, ...withoutKey } = message;
    expect((await checkExchange(send(withoutKey))).map(formatViolation)).toEqual(['message.send request: agencyKey: is required']);
    // An action that names no action type: each type is listed as the one missing.
    expect((await checkExchange(send({ ...message, chipList: [{ action: { displayText: 'Web' } }] }))).map(formatViolation)).toContain('message.send request: chipList[0].action.urlAction: is required');
  });

  it('every route the emulator serves as the service is an operation of the contract (image downloads aside)', () => {
    const routes = [...autoReplyRoutes(), ...logoRoutes(), ...chatbotRoutes(), ...menuRoutes(), ...agencyRoutes(), ...sendRoutes(() => undefined), ...miscRoutes(), ...templateRoutes()];
    expect(routes.length).toBeGreaterThan(40);
    const outside = routes
      .filter((r) => !r.pattern.startsWith('/files/'))
      .map((r) => ({ route: `${r.method} ${r.pattern}`, op: findOperation(r.method, r.pattern.replace(/:[A-Za-z]+/g, 'X1')) }))
      .filter((r) => r.op === undefined || r.op.path.replace(/:[A-Za-z]+/g, ':') !== r.route.split(' ')[1]?.replace(/:[A-Za-z]+/g, ':'))
      .map((r) => r.route);
    expect(outside).toEqual([]);
  });

  it('a list answer needs pagination and links; the layout component list has no links', async () => {
    const page = (path: string, extra: object) => ({ method: 'GET', path, requestHeaders: {}, requestBody: Buffer.alloc(0), status: 200, answer: { code: '20000000', status: 200, desc: null, result: [], ...extra } });
    expect((await checkExchange(page(`/api/1.1/brand/${BRAND.id}/logo`, { pagination: { total: 0, offset: 0, limit: 1000 } }))).map(formatViolation)).toEqual(['logo.list answer: links: must be object']);
    expect(await checkExchange(page('/api/1.1/baselayout/component', { pagination: { total: 0, offset: 0, limit: 100 } }))).toEqual([]);
  });

  it('finds each operation by method and path, static segments first; every named definition exists', () => {
    expect(findOperation('POST', `/api/1.1/brand/${BRAND.id}/autoreplymsg/file`)?.id).toBe('autoReplyFile.upload');
    expect(findOperation('GET', `/api/1.1/brand/${BRAND.id}/autoreplymsg/ARM1`)?.id).toBe('autoReply.get');
    expect(findOperation('POST', `/api/1.1/brand/${BRAND.id}/v2/messagebase/file`)?.id).toBe('templateFile.upload');
    expect(findOperation('POST', `/api/1.1/brand/${BRAND.id}/v2/messagebase/UBR.x-t1`)?.id).toBe('template.modify');
    expect(findOperation('GET', '/api/1.1/messagebase/messagebaseform/TADS001A/logo')?.id).toBe('templateForm.logos');
    // Operations rcsctl never uses are outside the table.
    expect(findOperation('GET', '/api/1.1/usableQuery/chatbotId/x')).toBeUndefined();
    expect(findOperation('GET', '/api/1.1/brand/x/layout')?.id).toBe('layout.list');
    expect(findOperation('GET', '/api/1.1/baselayout/sample/SL_1')?.id).toBe('layoutSample.get');
    expect(contractDefinitions().length).toBeGreaterThan(20);
    for (const name of contractDefinitions()) expect(() => checkValue(name, {}), name).not.toThrow();
    expect(OPERATIONS.length).toBe(new Set(OPERATIONS.map((o) => o.id)).size);
  });
});
