import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { TEMPLATE_FORMS } from '../../src/spec/template-forms.js';
import { BRAND, admin, call, errorOf, form, png, useEmulator } from './helpers.js';

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { reset: true });

const V1 = `/api/1.1/brand/${BRAND}/messagebase`;
const V2 = `/api/1.1/brand/${BRAND}/v2/messagebase`;
const FORMS = '/api/1.1/messagebase/messagebaseform';

/** A copy of a form's formattedString, to edit as a template would. */
function layoutOf(formId: string): any {
  const f = TEMPLATE_FORMS.find((x) => x.messagebaseformId === formId);
  if (f === undefined) throw new Error(formId);
  return structuredClone(f.formattedString);
}

/** The padding container of the text forms: title row, rule, then the content. */
function inner(fs: any): any[] {
  return fs.RCSMessage.openrichcardMessage.layout.children[0].children;
}

function descriptionTemplate(text = 'Your order {{order}} has shipped.'): any {
  const fs = layoutOf('TADS001A');
  inner(fs)[0].children[0].text = 'Shipping';
  inner(fs)[2].text = text;
  fs.RCSMessage.openrichcardMessage.suggestions = [{ action: { urlAction: { openUrl: { url: 'https://shop.example/orders/{{order}}' } }, displayText: 'Track', postback: { data: 'track' } } }];
  return fs;
}

function v1(custTmpltId: string, formattedString: unknown, messagebaseformId = 'TADS001A', extra: Record<string, unknown> = {}) {
  return { regMessagebases: [{ brandId: BRAND, custTmpltId, messagebaseformId, tmpltName: `Template ${custTmpltId}`, formattedString, ...extra }] };
}

async function registerV1(custTmpltId = 'ship01', fs: unknown = descriptionTemplate(), formId = 'TADS001A'): Promise<string> {
  const a = await call(emu, 'POST', V1, { json: v1(custTmpltId, fs, formId) });
  expect(a.status, a.text).toBe(200);
  return a.body.result[0].messagebaseId as string;
}

async function review(id: string, action: string, reason?: string) {
  const a = await admin(emu, 'POST', 'review', { kind: 'template', brandId: BRAND, id, action, ...(reason !== undefined ? { reason } : {}) });
  expect(a.status, a.text).toBe(200);
  return a.body.approvalResult as string;
}

async function state(id: string): Promise<any> {
  return (await call(emu, 'GET', `${V1}/${encodeURIComponent(id)}`)).body.result[0];
}

async function uploadImage(): Promise<string> {
  const a = await call(emu, 'POST', `${V2}/file`, { form: form({}, { file: { name: 'hero.png', bytes: png(900, 560), type: 'image/png' } }) });
  expect(a.status, a.text).toBe(200);
  return a.body.result[0].fileId as string;
}

describe('template forms', () => {
  it('lists forms, serves one with its widget policy and params, and its logos; an unknown form is 64107', async () => {
    const l = await call(emu, 'GET', FORMS);
    expect(l.body.result.map((f: any) => f.messagebaseformId)).toEqual(['TADS001A', 'TACL001C', 'TAFR001D', 'ITHI001V']);
    expect(l.body.pagination).toEqual({ total: 4, offset: 0, limit: 100 });
    const d = (await call(emu, 'GET', `${FORMS}/ITHI001V`)).body.result[0];
    expect(d.params.map((p: any) => p.param)).toEqual(['media', 'mediaUrl', 'title', 'description']);
    expect(d.policyInfo.maxButtonCount).toBe(2);
    expect((await call(emu, 'GET', `${FORMS}/TADS001A`)).body.result[0].formattedString.RCSMessage.openrichcardMessage.layout.children[0].children[2].widgetPolicy).toEqual({ allowedAttributes: ['text'] });
    expect((await call(emu, 'GET', `${FORMS}/TADS001A/logo`)).body.result.map((x: any) => x.fileId)).toEqual(['RBC-ICON-notice', 'RBC-ICON-payment']);
    expect(errorOf(await call(emu, 'GET', `${FORMS}/NOPE`))).toEqual({ status: 400, code: '64107', message: 'Invalid messagebaseformId on path parameter' });
  });
});

describe('v1 text templates', () => {
  it('registers in 승인대기 as U<brandId>-<custTmpltId>, lists it and reads it back without widgetPolicy', async () => {
    const id = await registerV1();
    expect(id).toBe(`U${BRAND}-ship01`);
    const d = await state(id);
    expect(d).toMatchObject({ messagebaseId: id, custTmpltId: 'ship01', tmpltName: 'Template ship01', messagebaseformId: 'TADS001A', brandId: BRAND, status: 'ready', approvalResult: '승인대기', approvalReason: null, approvalDate: null, productCode: 'tmplt', cardType: 'Description' });
    expect(JSON.stringify(d.formattedString)).not.toContain('widgetPolicy');
    expect(inner(d.formattedString)[2].text).toBe('Your order {{order}} has shipped.');
    const l = await call(emu, 'GET', V1);
    expect(l.body.result).toHaveLength(1);
    expect(Object.keys(l.body.result[0])).toEqual(['groupId', 'messagebaseId', 'tmpltName', 'messagebaseformId', 'brandId', 'status', 'approvalResult', 'approvalReason', 'registerDate', 'approvalDate', 'updateDate', 'registerId', 'updateId']);
  });

  it('checks the head: brandId (64315, 64316), custTmpltId (64324), name (64314, 64304), form (64312, 64313), duplicates (64320)', async () => {
    const fs = descriptionTemplate();
    const post = async (entry: Record<string, unknown>) => errorOf(await call(emu, 'POST', V1, { json: { regMessagebases: [{ brandId: BRAND, custTmpltId: 'a1', messagebaseformId: 'TADS001A', tmpltName: 'A', formattedString: fs, ...entry }] } }));
    expect((await post({ brandId: undefined })).code).toBe('64315');
    expect(await post({ brandId: 'BR.other' })).toEqual({ status: 400, code: '64316', message: 'Invalid brandId' });
    expect((await post({ custTmpltId: 'has space' })).code).toBe('64324');
    expect((await post({ custTmpltId: 'x'.repeat(26) })).code).toBe('64324');
    expect((await post({ tmpltName: '' })).code).toBe('64314');
    expect((await post({ tmpltName: 'n'.repeat(41) })).message).toBe('Over specified size (tmpltName)');
    expect((await post({ messagebaseformId: undefined })).code).toBe('64312');
    expect((await post({ messagebaseformId: 'NOPE' })).code).toBe('64313');
    // An image form takes a v2 body, not a formattedString.
    expect((await post({ messagebaseformId: 'ITHI001V' })).code).toBe('64313');
    await registerV1('dup01');
    expect(errorOf(await call(emu, 'POST', V1, { json: v1('dup01', fs) }))).toEqual({ status: 400, code: '64320', message: 'Duplicate messagebaseId' });
    // A refused request registers none of its entries.
    const two = { regMessagebases: [v1('ok01', fs).regMessagebases[0], v1('dup01', fs).regMessagebases[0]] };
    expect(errorOf(await call(emu, 'POST', V1, { json: two })).code).toBe('64320');
    expect(errorOf(await call(emu, 'GET', `${V1}/U${BRAND}-ok01`))).toEqual({ status: 400, code: '64106', message: 'Invalid messagebaseId on path parameter' });
  });

  it('refuses a formattedString that breaks the widget policy (64318)', async () => {
    const refused = async (fs: unknown, formId = 'TADS001A') => errorOf(await call(emu, 'POST', V1, { json: v1('p1', fs, formId) }));
    const color = descriptionTemplate();
    inner(color)[2].textColor = '#ff0000';
    expect(await refused(color)).toEqual({ status: 400, code: '64318', message: 'Invalid formattedString format' });
    const rule = descriptionTemplate();
    inner(rule).splice(1, 1);
    expect((await refused(rule)).code).toBe('64318');
    const badVar = descriptionTemplate('Hello {{not a name}}');
    expect((await refused(badVar)).code).toBe('64318');
    const varInLabel = descriptionTemplate();
    varInLabel.RCSMessage.openrichcardMessage.suggestions[0].action.displayText = 'Track {{order}}';
    expect((await refused(varInLabel)).code).toBe('64318');
    const threeButtons = descriptionTemplate();
    const s = threeButtons.RCSMessage.openrichcardMessage.suggestions;
    s.push(s[0], s[0]);
    expect((await refused(threeButtons)).code).toBe('64318');
  });

  it('cell forms: rows and one cell of a row may go, one row must stay', async () => {
    const fs = layoutOf('TACL001C');
    const rows = inner(fs)[2].children;
    rows.splice(1, 3); // the first line, the second row and the second line
    rows[1].children.splice(0, 1); // the last row keeps only its value cell
    await registerV1('cell01', fs, 'TACL001C').then((id) => expect(id).toBe(`U${BRAND}-cell01`));
    const none = layoutOf('TACL001C');
    inner(none)[2].children = [inner(none)[2].children[1]];
    expect(errorOf(await call(emu, 'POST', V1, { json: v1('cell02', none, 'TACL001C') })).code).toBe('64318');
  });

  it('title-free forms: a fixed left title of at most 8 characters; the right title one variable used elsewhere, or removed', async () => {
    const base = (): any => {
      const fs = layoutOf('TAFR001D');
      inner(fs)[2].text = 'Dear {{name}}, your booking is confirmed.';
      return fs;
    };
    const right = base();
    inner(right)[0].children[1].text = '{{name}}';
    await registerV1('free01', right, 'TAFR001D');
    const removed = base();
    inner(removed)[0].children.splice(1, 1);
    await registerV1('free02', removed, 'TAFR001D');
    const post = async (fs: unknown) => errorOf(await call(emu, 'POST', V1, { json: v1('free03', fs, 'TAFR001D') })).code;
    const long = base();
    inner(long)[0].children[0].text = 'Nine char';
    expect(await post(long)).toBe('64318');
    const leftVar = base();
    inner(leftVar)[0].children[0].text = '{{name}}';
    expect(await post(leftVar)).toBe('64318');
    const unknownVar = base();
    inner(unknownVar)[0].children[1].text = '{{total}}';
    expect(await post(unknownVar)).toBe('64318');
  });
});

describe('review, modification, cancel and delete', () => {
  it('follows the document: pending blocks changes; approved → 승인대기(수정); rejected modification → cancel rolls back', async () => {
    const id = await registerV1();
    const put = (fs: unknown, name = 'Renamed') => call(emu, 'PUT', `${V1}/${id}`, { json: { brandId: BRAND, messagebaseformId: 'TADS001A', tmpltName: name, formattedString: fs } });
    expect(errorOf(await put(descriptionTemplate()))).toEqual({ status: 400, code: '64328', message: 'Not allowed modification' });
    expect(errorOf(await call(emu, 'DELETE', `${V1}/${id}`))).toEqual({ status: 400, code: '64327', message: 'Not allowed delete' });
    expect(await review(id, 'start')).toBe('검수시작');
    // Cancel only withdraws a review that has not started.
    expect(errorOf(await call(emu, 'PUT', `${V1}/${id}/cancel`))).toEqual({ status: 400, code: '64321', message: 'Invalid approval status' });
    expect(await review(id, 'approve')).toBe('검수완료');
    expect(await review(id, 'complete')).toBe('승인');
    expect((await state(id)).approvalDate).not.toBeNull();

    expect(errorOf(await put(descriptionTemplate(), 'Template ship01'))).toEqual({ status: 400, code: '64323', message: 'No changes' });
    expect((await put(descriptionTemplate('Order {{order}} is on its way.'))).body.result).toEqual([{ messagebaseId: id }]);
    expect(await state(id)).toMatchObject({ tmpltName: 'Renamed', approvalResult: '승인대기(수정)' });
    expect((await call(emu, 'PUT', `${V1}/${id}/cancel`)).body.result).toEqual([{ messagebaseId: id }]);
    const back = await state(id);
    expect(back).toMatchObject({ tmpltName: 'Template ship01', approvalResult: '승인' });
    expect(inner(back.formattedString)[2].text).toBe('Your order {{order}} has shipped.');

    await put(descriptionTemplate('Second try {{order}}'));
    expect(await review(id, 'reject', 'Say what was shipped')).toBe('반려(수정)');
    expect(await state(id)).toMatchObject({ approvalResult: '반려(수정)', approvalReason: 'Say what was shipped' });
    // A rejected modification may be modified again (still a modification of the approved one) or cancelled.
    await put(descriptionTemplate('Third try {{order}}'));
    expect((await state(id)).approvalResult).toBe('승인대기(수정)');
    await call(emu, 'PUT', `${V1}/${id}/cancel`);
    expect(await state(id)).toMatchObject({ approvalResult: '승인', tmpltName: 'Template ship01', approvalReason: null });

    expect((await call(emu, 'DELETE', `${V1}/${id}`)).body.result).toEqual([{ messagebaseId: id }]);
    expect(errorOf(await call(emu, 'GET', `${V1}/${id}`)).code).toBe('64106');
    // A deleted id is never given out again.
    expect(errorOf(await call(emu, 'POST', V1, { json: v1('ship01', descriptionTemplate()) })).code).toBe('64320');
  });

  it('cancel of a new template gives 저장, which may then be modified (back to 승인대기) or deleted', async () => {
    const id = await registerV1();
    await call(emu, 'PUT', `${V1}/${id}/cancel`);
    expect((await state(id)).approvalResult).toBe('저장');
    await call(emu, 'PUT', `${V1}/${id}`, { json: { brandId: BRAND, messagebaseformId: 'TADS001A', tmpltName: 'Again', formattedString: descriptionTemplate() } });
    expect((await state(id)).approvalResult).toBe('승인대기');
    const forced = await admin(emu, 'POST', 'state', { kind: 'template', brandId: BRAND, id, approvalResult: '반려', approvalReason: 'no' });
    expect(forced.body).toMatchObject({ from: '승인대기', approvalResult: '반려' });
    expect((await call(emu, 'DELETE', `${V1}/${id}`)).status).toBe(200);
  });
});

describe('v2 templates and template files', () => {
  it('uploads an image (LT- id, dimensions), registers an image template and reads back its body, params and files', async () => {
    const fileId = await uploadImage();
    expect(fileId).toBe(`LT-${BRAND}-aaaa`);
    const f = (await call(emu, 'GET', `${V2}/file/${fileId}`)).body.result[0];
    expect(f).toMatchObject({ fileId, fileName: 'hero.png', imageWidth: 900, imageHeight: 560 });
    const body = [
      { param: 'media', value: `maapfile://${fileId}` },
      { param: 'title', value: 'Autumn sale' },
      { param: 'description', value: 'Up to {{rate}}% off until Sunday.' },
    ];
    const buttons = [{ suggestions: [{ action: { urlAction: { openUrl: { url: 'https://shop.example/sale' } }, displayText: 'Shop now', postback: { data: 'sale' } } }] }];
    const a = await call(emu, 'POST', V2, { json: { brandId: BRAND, custTmpltId: 'sale01', messagebaseformId: 'ITHI001V', tmpltName: 'Autumn sale', body, buttons } });
    expect(a.body.result, a.text).toEqual([{ messagebaseId: `U${BRAND}-sale01` }]);
    const d = await state(`U${BRAND}-sale01`);
    expect(d).toMatchObject({ approvalResult: '승인대기', productCode: 'itmpl', body, buttons });
    expect(d.files).toEqual([f]);
    expect(d.params.find((p: any) => p.param === 'title').inputText).toBe('Autumn sale');

    // Modification by POST (the service reference) and by PUT (the public document).
    await review(`U${BRAND}-sale01`, 'complete');
    const mod = { brandId: BRAND, tmpltName: 'Autumn sale', body: [...body.slice(0, 2), { param: 'description', value: 'Half price.' }] };
    expect((await call(emu, 'POST', `${V2}/U${BRAND}-sale01`, { json: mod })).status).toBe(200);
    expect((await state(`U${BRAND}-sale01`)).approvalResult).toBe('승인대기(수정)');
    await call(emu, 'PUT', `${V1}/U${BRAND}-sale01/cancel`);
    expect((await call(emu, 'PUT', `${V2}/U${BRAND}-sale01`, { json: mod })).status).toBe(200);
    await call(emu, 'PUT', `${V1}/U${BRAND}-sale01/cancel`);
    // A v1 modification of an image template is refused: its form takes params.
    expect(errorOf(await call(emu, 'PUT', `${V1}/U${BRAND}-sale01`, { json: { brandId: BRAND, tmpltName: 'x', messagebaseformId: 'ITHI001V', formattedString: {} } })).code).toBe('64313');
  });

  it('checks the body against the form: params (64357), files (64322), buttons (64358), text forms (64313); files (64355, 64109)', async () => {
    const fileId = await uploadImage();
    const post = async (body: unknown, buttons?: unknown, formId = 'ITHI001V') =>
      errorOf(await call(emu, 'POST', V2, { json: { brandId: BRAND, custTmpltId: 'v2bad', messagebaseformId: formId, tmpltName: 'Bad', body, ...(buttons !== undefined ? { buttons } : {}) } }));
    const media = { param: 'media', value: `maapfile://${fileId}` };
    expect(await post([media])).toEqual({ status: 400, code: '64357', message: 'Invalid body format [body]' });
    expect((await post([media, { param: 'description', value: 'd' }, { param: 'subtitle', value: 'x' }])).message).toBe('Invalid body format [body[2].param]');
    expect((await post([media, { param: 'description', value: 'x'.repeat(151) }])).message).toBe('Invalid body format [body[1].value]');
    expect((await post([media, { param: 'description', value: 'd' }, { param: 'mediaUrl', value: 'shop.example' }])).code).toBe('64357');
    expect((await post([{ param: 'media', value: 'maapfile://LT-none' }, { param: 'description', value: 'd' }])).code).toBe('64322');
    const button = { action: { dialerAction: { dialPhoneNumber: { phoneNumber: '0212345678' } }, displayText: 'Call' } };
    expect(await post([media, { param: 'description', value: 'd' }], [{ suggestions: [button, button, button] }])).toEqual({ status: 400, code: '64358', message: 'Invalid buttons format [buttons[0].suggestions]' });
    expect((await post([media, { param: 'description', value: 'd' }], [{}, {}])).code).toBe('64358');
    expect((await post([{ param: 'description', value: 'd' }], undefined, 'TADS001A')).code).toBe('64313');
    const svg = await call(emu, 'POST', `${V2}/file`, { form: form({}, { file: { name: 'x.svg', bytes: Buffer.from('<svg/>') } }) });
    expect(errorOf(svg).code).toBe('64355');
    expect(errorOf(await call(emu, 'GET', `${V2}/file/LT-none`)).code).toBe('64109');
  });

  it('refuses an image of another size than its param asks (64357 at the value)', async () => {
    const a = await call(emu, 'POST', `${V2}/file`, { form: form({}, { file: { name: 'banner.png', bytes: png(800, 400), type: 'image/png' } }) });
    const small = a.body.result[0].fileId as string;
    const body = [{ param: 'media', value: `maapfile://${small}` }, { param: 'description', value: 'd' }];
    const r = errorOf(await call(emu, 'POST', V2, { json: { brandId: BRAND, custTmpltId: 'v2small', messagebaseformId: 'ITHI001V', tmpltName: 'Small', body } }));
    expect(r).toEqual({ status: 400, code: '64357', message: 'Invalid body format [body[0].value]' });
  });
});
