// Templates, template files and forms: every client method against the
// emulator over HTTP, the document's errors, and how retries treat each call.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutcomeUnknownError, RcsApiError } from '../../src/api/index.js';
import type { TemplateV1Request } from '../../src/api/types.js';
import { mulberry32 } from '../../src/emulator/faults.js';
import { TEMPLATE_FORMS } from '../../src/spec/template-forms.js';
import { BRAND, collect, png, rejection, startTestEmulator, type TestEmulator } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
});

/** A fault seed whose first draws fault (true) or not (false) as `pattern` says, at rate 0.5. */
function seedFor(pattern: boolean[]): number {
  for (let seed = 1; seed < 100_000; seed++) {
    const rand = mulberry32(seed);
    if (pattern.every((fault) => rand() < 0.5 === fault)) return seed;
  }
  throw new Error('no seed found');
}

function code(err: unknown): string {
  expect(err).toBeInstanceOf(RcsApiError);
  return (err as RcsApiError).serviceCode;
}

function textTemplate(custTmpltId: string, body: string): TemplateV1Request {
  const fs = structuredClone(TEMPLATE_FORMS[0]?.formattedString) as any;
  fs.RCSMessage.openrichcardMessage.layout.children[0].children[2].text = body;
  return { brandId: BRAND.id, custTmpltId, messagebaseformId: 'TADS001A', tmpltName: `Notice ${custTmpltId}`, formattedString: fs };
}

async function review(id: string, action: string, reason?: string): Promise<void> {
  await emu.admin('POST', '/review', { kind: 'template', brandId: BRAND.id, id, action, ...(reason !== undefined ? { reason } : {}) });
}

describe('template forms', () => {
  it('lists forms, reads one with its params and policy, and its logos', async () => {
    const client = emu.client();
    const forms = await collect(client.templates.listForms());
    expect(forms.map((f) => f.messagebaseformId)).toEqual(['TADS001A', 'TACL001C', 'TAFR001D', 'ITHI001V']);
    const form = await client.templates.getForm('ITHI001V');
    expect(form).toMatchObject({ cardType: 'Highlighted Image', policyInfo: { cardCount: 1, maxButtonCount: 2 } });
    expect(form.params.filter((p) => p.isMandatory).map((p) => p.param)).toEqual(['media', 'description']);
    expect((await client.templates.formLogos('TADS001A')).map((l) => l.fileId)).toEqual(['RBC-ICON-notice', 'RBC-ICON-payment']);
    const err = await rejection(client.templates.getForm('NOPE'));
    expect(code(err)).toBe('64107');
    expect((err as Error).message).toBe('get template form NOPE failed: 400 64107 Invalid messagebaseformId on path parameter');
  });
});

describe('text templates (v1)', () => {
  it('registers, lists, reads, cancels, modifies and deletes', async () => {
    const client = emu.client();
    const { messagebaseId: id } = await client.templates.createText(BRAND, textTemplate('notice01', 'Closed on {{day}}.'));
    expect(id).toBe(`U${BRAND.id}-notice01`);
    expect((await collect(client.templates.list(BRAND))).map((t) => t.messagebaseId)).toContain(id);
    const d = await client.templates.get(BRAND, id);
    expect(d).toMatchObject({ custTmpltId: 'notice01', tmpltName: 'Notice notice01', approvalResult: '승인대기', messagebaseformId: 'TADS001A' });

    await client.templates.cancel(BRAND, id);
    expect((await client.templates.get(BRAND, id)).approvalResult).toBe('저장');
    expect(await client.templates.updateText(BRAND, id, textTemplate('notice01', 'Closed on {{day}} and {{day2}}.'))).toEqual({ messagebaseId: id });
    expect((await client.templates.get(BRAND, id)).approvalResult).toBe('승인대기');

    const blocked = await rejection(client.templates.delete(BRAND, id, 'Notice notice01'));
    expect(code(blocked)).toBe('64327');
    expect((blocked as Error).message).toBe(`delete template "Notice notice01" (${id}) failed: 400 64327 Not allowed delete`);
    await review(id, 'complete');
    await client.templates.delete(BRAND, id);
    expect(code(await rejection(client.templates.get(BRAND, id)))).toBe('64106');
    expect(code(await rejection(client.templates.createText(BRAND, textTemplate('notice01', 'again'))))).toBe('64320');
  });

  it('maps the policy refusal (64318) and a cancel with nothing pending (64321)', async () => {
    const client = emu.client();
    const bad = textTemplate('notice02', 'x');
    (bad.formattedString as any).RCSMessage.openrichcardMessage.layout.children[0].children[2].textSize = '30dp';
    expect(code(await rejection(client.templates.createText(BRAND, bad)))).toBe('64318');
    const { messagebaseId } = await client.templates.createText(BRAND, textTemplate('notice03', 'y'));
    await review(messagebaseId, 'start');
    expect(code(await rejection(client.templates.cancel(BRAND, messagebaseId)))).toBe('64321');
  });
});

describe('image templates (v2) and their files', () => {
  it('uploads a file, registers, modifies (POST, as the reference says) and reads back the body', async () => {
    const client = emu.client();
    const file = await client.templates.uploadFile(BRAND, { fileName: 'hero.png', bytes: png(900, 560), contentType: 'image/png' });
    expect(file).toMatchObject({ fileName: 'hero.png', imageWidth: 900, imageHeight: 560 });
    expect(await client.templates.getFile(BRAND, file.fileId)).toEqual(file);
    const body = [
      { param: 'media', value: `maapfile://${file.fileId}` },
      { param: 'description', value: 'New season, new beans.' },
    ];
    const { messagebaseId: id } = await client.templates.create(BRAND, { brandId: BRAND.id, custTmpltId: 'promo01', messagebaseformId: 'ITHI001V', tmpltName: 'Promo', body });
    expect((await client.templates.get(BRAND, id)).body).toEqual(body);
    await review(id, 'complete');
    await emu.admin('DELETE', '/requests');
    await client.templates.update(BRAND, id, { brandId: BRAND.id, tmpltName: 'Promo', body: [body[0] as never, { param: 'description', value: 'Fresh beans.' }] });
    expect((await emu.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([`POST /api/1.1/brand/${BRAND.id}/v2/messagebase/${encodeURIComponent(id)}`]);
    expect(await client.templates.get(BRAND, id)).toMatchObject({ approvalResult: '승인대기(수정)', body: [body[0], { param: 'description', value: 'Fresh beans.' }] });
    expect(code(await rejection(client.templates.getFile(BRAND, 'LT-none')))).toBe('64109');
  });

  it('a modification whose answer is lost is sent again, and a refusal of the retry (under review) is success; a lost registration is outcome unknown', async () => {
    const client = emu.client();
    const file = await client.templates.uploadFile(BRAND, { fileName: 'b.png', bytes: png(900, 560), contentType: 'image/png' });
    const body = [
      { param: 'media', value: `maapfile://${file.fileId}` },
      { param: 'description', value: 'One.' },
    ];
    const { messagebaseId: id } = await client.templates.create(BRAND, { brandId: BRAND.id, custTmpltId: 'promo02', messagebaseformId: 'ITHI001V', tmpltName: 'Promo 2', body });
    await review(id, 'complete');
    // The first attempt commits and its answer is lost; the second finds the template under review (64328).
    await emu.admin('POST', '/faults', { seed: seedFor([true, false]), rules: [{ method: 'POST', path: '/v2/messagebase/U', kind: 'drop-after-commit', rate: 0.5 }] });
    const updated = await client.templates.update(BRAND, id, { brandId: BRAND.id, tmpltName: 'Promo 2', body: [body[0] as never, { param: 'description', value: 'Two.' }] });
    await emu.admin('DELETE', '/faults');
    expect(updated).toEqual({ messagebaseId: id });
    expect(client.stats.retries).toBe(1);
    expect((await client.templates.get(BRAND, id)).approvalResult).toBe('승인대기(수정)');

    await emu.admin('POST', '/faults', { seed: 1, rules: [{ method: 'POST', path: '/v2/messagebase$', kind: 'drop-after-commit', rate: 1 }] });
    const lost = await rejection(client.templates.create(BRAND, { brandId: BRAND.id, custTmpltId: 'promo03', messagebaseformId: 'ITHI001V', tmpltName: 'Promo 3', body }));
    await emu.admin('DELETE', '/faults');
    expect(lost).toBeInstanceOf(OutcomeUnknownError);
  });
});
