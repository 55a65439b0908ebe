import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, admin, call, errorOf, form, png, useEmulator } from './helpers.js';

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { reset: true });

const LOGO = `/api/1.1/brand/${BRAND}/logo`;

function logoForm(fields: Record<string, string>, bytes: Buffer | null = png(300, 300), name = 'logo-abc.png') {
  return form(fields, bytes === null ? {} : { file: { name, bytes, type: 'image/png' } });
}

async function register(name = 'Main') {
  const a = await call(emu, 'POST', LOGO, { form: logoForm({ name, description: 'Brand logo' }) });
  expect(a.status).toBe(200);
  return a.body.result[0].fileId as string;
}

async function review(id: string, action: string) {
  return admin(emu, 'POST', 'review', { kind: 'logo', brandId: BRAND, id, action });
}

describe('logo register, list, detail, delete', () => {
  it('registers in 승인대기 with a BLG id and serves the file', async () => {
    const id = await register();
    expect(id).toBe(`BLG-${BRAND}-aaaa`);
    const d = (await call(emu, 'GET', `${LOGO}/${id}`)).body.result[0];
    expect(d).toMatchObject({ fileId: id, name: 'Main', description: 'Brand logo', fileName: 'logo-abc.png', approvalResult: '승인대기', approvalReason: null, approvalDate: null, registerId: 'master' });
    expect(d.fileUrl).toBe(`${emu.url}/files/${encodeURIComponent(id)}/logo-abc.png`);
    expect((await request(d.fileUrl)).statusCode).toBe(200);
    const l = await call(emu, 'GET', LOGO);
    expect(l.body.result).toEqual([d]);
    const del = await call(emu, 'DELETE', `${LOGO}/${id}`);
    expect(del.body.result).toEqual([{ fileId: id }]);
    expect(errorOf(await call(emu, 'GET', `${LOGO}/${id}`)).code).toBe('64109');
  });

  it('checks name (64336, 64304), description (64304), file type (64355), size (64395), dimensions (64606)', async () => {
    expect(errorOf(await call(emu, 'POST', LOGO, { form: logoForm({}) }))).toEqual({ status: 400, code: '64336', message: 'required value: [name]' });
    expect(errorOf(await call(emu, 'POST', LOGO, { form: logoForm({ name: 'x'.repeat(31) }) })).message).toBe('Over specified size (name)');
    expect(errorOf(await call(emu, 'POST', LOGO, { form: logoForm({ name: 'a', description: 'x'.repeat(101) }) })).message).toBe('Over specified size (description)');
    expect(errorOf(await call(emu, 'POST', LOGO, { form: logoForm({ name: 'a' }, null) })).message).toBe('required value: [file]');
    expect(errorOf(await call(emu, 'POST', LOGO, { form: logoForm({ name: 'a' }, png(300, 300), 'logo.svg') })).code).toBe('64355');
    const big = Buffer.concat([png(300, 300), Buffer.alloc(1024 * 1024)]);
    expect(errorOf(await call(emu, 'POST', LOGO, { form: logoForm({ name: 'a' }, big) })).code).toBe('64395');
    expect(errorOf(await call(emu, 'POST', LOGO, { form: logoForm({ name: 'a' }, png(300, 301)) }))).toEqual({ status: 400, code: '64606', message: 'only one size (300x300px) can be uploaded.' });
    expect(errorOf(await call(emu, 'POST', LOGO, { form: logoForm({ name: 'a' }, Buffer.from('not an image')) })).code).toBe('64355');
  });

  it('allows at most 10 logos (64607)', async () => {
    for (let i = 0; i < 10; i++) await register(`L${i}`);
    expect(errorOf(await call(emu, 'POST', LOGO, { form: logoForm({ name: 'eleventh' }) }))).toEqual({ status: 400, code: '64607', message: 'The maximum number of logos allowed: 10' });
  });
});

describe('logo review flow, modification and cancel', () => {
  it('start, approve, complete → 승인; modify → 승인대기(수정); cancel restores the approved logo', async () => {
    const id = await register();
    expect((await review(id, 'start')).body.approvalResult).toBe('검수시작');
    expect((await review(id, 'approve')).body.approvalResult).toBe('검수완료');
    expect((await review(id, 'complete')).body.approvalResult).toBe('승인');
    const approved = (await call(emu, 'GET', `${LOGO}/${id}`)).body.result[0];
    expect(approved.approvalDate).not.toBeNull();
    const m = await call(emu, 'PUT', `${LOGO}/${id}`, { form: logoForm({ name: 'Renamed', description: 'Brand logo' }) });
    expect(m.body.result).toEqual([{ fileId: id }]);
    expect((await call(emu, 'GET', `${LOGO}/${id}`)).body.result[0]).toMatchObject({ name: 'Renamed', approvalResult: '승인대기(수정)' });
    // Not modifiable while pending.
    expect(errorOf(await call(emu, 'PUT', `${LOGO}/${id}`, { form: logoForm({ name: 'Again' }) })).code).toBe('64328');
    expect((await call(emu, 'PUT', `${LOGO}/${id}/cancel`)).body.result).toEqual([{ fileId: id }]);
    expect((await call(emu, 'GET', `${LOGO}/${id}`)).body.result[0]).toMatchObject({ name: 'Main', approvalResult: '승인' });
  });

  it('cancel of a new logo gives 저장; cancel with nothing pending is 64328', async () => {
    const id = await register();
    await call(emu, 'PUT', `${LOGO}/${id}/cancel`);
    expect((await call(emu, 'GET', `${LOGO}/${id}`)).body.result[0].approvalResult).toBe('저장');
    expect(errorOf(await call(emu, 'PUT', `${LOGO}/${id}/cancel`)).code).toBe('64328');
  });

  it('reject gives 반려 with the reason, and modifying a 반려 logo gives 승인대기', async () => {
    const id = await register();
    await admin(emu, 'POST', 'review', { kind: 'logo', brandId: BRAND, id, action: 'reject', reason: 'blurry' });
    expect((await call(emu, 'GET', `${LOGO}/${id}`)).body.result[0]).toMatchObject({ approvalResult: '반려', approvalReason: 'blurry' });
    await call(emu, 'PUT', `${LOGO}/${id}`, { form: logoForm({ name: 'Sharper' }) });
    expect((await call(emu, 'GET', `${LOGO}/${id}`)).body.result[0].approvalResult).toBe('승인대기');
  });

  it('a rejected modification is 반려(수정), which may be modified again', async () => {
    const id = await register();
    await review(id, 'complete');
    await call(emu, 'PUT', `${LOGO}/${id}`, { form: logoForm({ name: 'New' }) });
    expect((await review(id, 'reject')).body.approvalResult).toBe('반려(수정)');
    expect((await call(emu, 'PUT', `${LOGO}/${id}`, { form: logoForm({ name: 'Newer' }) })).status).toBe(200);
  });

  it('an identical modification (same name, description and bytes) is 64323; other bytes are a change', async () => {
    const id = await register();
    await review(id, 'complete');
    expect(errorOf(await call(emu, 'PUT', `${LOGO}/${id}`, { form: logoForm({ name: 'Main', description: 'Brand logo' }) })).code).toBe('64323');
    expect((await call(emu, 'PUT', `${LOGO}/${id}`, { form: logoForm({ name: 'Main', description: 'Brand logo' }, png(300, 300, 9)) })).status).toBe(200);
  });

  it('refuses a review action that does not apply (409) and unknown ids (404)', async () => {
    const id = await register();
    expect((await review(id, 'complete')).status).toBe(200);
    expect((await review(id, 'start')).status).toBe(409);
    expect((await review('BLG-none', 'start')).status).toBe(404);
    expect(errorOf(await call(emu, 'PUT', `${LOGO}/BLG-none`, { form: logoForm({ name: 'x' }) })).code).toBe('64109');
  });
});
