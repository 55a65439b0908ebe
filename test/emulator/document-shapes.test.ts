// Answer shapes the public OpenAPI document gives, over real HTTP:
// - Messagebase.brandId: "the brand the template is registered under; 'common'
//   for a template in common use" (required in MessagebaseInfo): the common list
//   and detail carry brandId "common". MessagebaseInfo.params are ParamInfo, whose
//   imageWidth/imageHeight is the size "an image must be registered with to send".
// - Chatbot / ChatbotDetail type groupId, botAgencyId, approvalDate,
//   approvalReason, webhook and botTcPage as strings and require only chatbotId
//   and brandId; the service reference's room table types them as strings and
//   says nothing of null. A room without a value for one leaves it out (an
//   empty string would be a value), in the list, the bidirectional list and the
//   detail; a room with a value answers it as a string.

import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { call, useEmulator } from './helpers.js';

const SEED = `
accounts:
  - { userId: master, role: master, token: t-master, brands: [{ brandId: BR.a, role: representative }] }
brands:
  - brandId: BR.a
    brandKey: BK.a
    chatbots:
      - { chatbotId: "0200000001", subTitle: Plain, approvalResult: 승인대기 }
      - { chatbotId: "0200000002", subTitle: Relayed, botAgencyId: ag1, approvalResult: 반려, approvalReason: "number unclear" }
`;

const UNSET = ['groupId', 'botAgencyId', 'approvalDate', 'approvalReason', 'webhook', 'botTcPage'];

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { seed: SEED });

const get = (path: string) => call(emu, 'GET', `/api/1.1${path}`, { token: 't-master' });

describe('answer shapes of the public document', () => {
  it('common messagebases carry brandId "common" in the list and in the detail', async () => {
    const list = await get('/messagebase/common');
    expect(list.status).toBe(200);
    expect(list.body.result.length).toBeGreaterThan(0);
    for (const m of list.body.result) expect([m.messagebaseId, m.brandId]).toEqual([m.messagebaseId, 'common']);
    const detail = await get('/messagebase/common/SCwThM00');
    expect(detail.body.result[0]).toMatchObject({ messagebaseId: 'SCwThM00', brandId: 'common' });
  });

  it("a common messagebase's detail gives its image params their size (ParamInfo imageWidth, imageHeight); a speech bubble has none", async () => {
    const card = (await get('/messagebase/common/SCwThM00')).body.result[0];
    expect(card.params).toEqual([{ param: 'media', type: 'file', contentType: 'maapfile', imageWidth: 900, imageHeight: 560 }]);
    const slider = (await get('/messagebase/common/CCwMhM0200')).body.result[0];
    expect(slider.params.map((p: { param: string }) => p.param)).toEqual(['media1', 'media2']);
    expect((await get('/messagebase/common/SCS00000')).body.result[0].params).toEqual([]);
  });

  it('a room leaves out the string fields it has no value for, in the list, the bidirectional list and the detail', async () => {
    const detail = (await get('/brand/BR.a/chatbot/0200000001')).body.result[0];
    expect(UNSET.filter((f) => f in detail)).toEqual([]);
    expect(Object.values(detail)).not.toContain(null);
    const listed = (await get('/brand/BR.a/chatbot')).body.result.find((c: { chatbotId: string }) => c.chatbotId === '0200000001');
    expect(UNSET.filter((f) => f in listed)).toEqual([]);
    expect(Object.values(listed)).not.toContain(null);
  });

  it('a room with values answers them as strings', async () => {
    const detail = (await get('/brand/BR.a/chatbot/0200000002')).body.result[0];
    expect(detail).toMatchObject({ chatbotId: '0200000002', botAgencyId: 'ag1', approvalReason: 'number unclear' });
    const bidirectional = (await get('/brand/BR.a/bidirectional/chatbot')).body.result;
    expect(bidirectional.map((c: { chatbotId: string }) => c.chatbotId)).toEqual(['0200000002']);
    expect(Object.values(bidirectional[0])).not.toContain(null);
    expect(bidirectional[0].botAgencyId).toBe('ag1');
  });
});
