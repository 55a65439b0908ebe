// The brand routes over real HTTP: categories, the list and detail (BrandInfo,
// BrandDetail), modification with its partial review (name and profile image),
// cancel, registration and its correction, delete, privileges, the agency's
// view, the image rules and the roles, each failure with its documented code.

import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, call, errorOf, form, png } from './helpers.js';
import { useEmulator } from './helpers.js';

const SEED = `
clock: "2026-11-21T10:00:00.000+09"
accounts:
  - { userId: boss, role: master, token: t-boss, brands: [{ brandId: BR.coffee0001, role: representative }, { brandId: BR.saved00001, role: representative }] }
  - { userId: mgr, role: manager, token: t-mgr, brands: [{ brandId: BR.coffee0001, role: operator }] }
  - { userId: other, role: master, token: t-other }
  - { userId: ag1, role: agency, token: t-agency, brands: [{ brandId: BR.coffee0001, role: operator }] }
brands:
  - brandId: BR.coffee0001
    brandKey: BK.coffee000000001
    templateColor: "#3B2A1A"
    page:
      name: Coffee Co
      description: Fresh coffee daily
      tel: "0212345678"
      categoryId: SHP
      subCategoryId: SHP002
      menus: [{ buttonType: web, weblink: "https://coffee.example" }]
      profileImage: { fileName: profile.png, content: "${png(400, 400).toString('base64')}" }
    chatbots:
      - { chatbotId: "0212345678", subTitle: Coffee Co }
  - brandId: BR.saved00001
    brandKey: BK.saved000000001
    page: { name: Draft, approvalResult: 저장 }
`;

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { seed: SEED, reset: true });

const COFFEE = 'BR.coffee0001';
const DETAIL = `/api/1.1/corp/boss/brand/${COFFEE}`;
const PAGE = { name: 'Coffee Co', description: 'Fresh coffee daily', tel: '0212345678', categoryId: 'SHP', subCategoryId: 'SHP002', menus: [{ buttonType: 'web', weblink: 'https://coffee.example' }] };

/** A brand form: regBrand as JSON with its content type, and image parts. */
function brandForm(page: Record<string, unknown> | undefined, images: { profile?: Buffer; background?: Buffer | null; profileName?: string; backgroundName?: string } = {}) {
  const f = form({});
  if (page !== undefined) f.append('regBrand', new Blob([JSON.stringify({ regBrand: page })], { type: 'application/json' }), 'regBrand.json');
  if (images.profile !== undefined) f.append('brandProfile', new Blob([images.profile], { type: 'image/png' }), images.profileName ?? 'profile.png');
  if (images.background === null) f.append('brandBackground', '');
  else if (images.background !== undefined) f.append('brandBackground', new Blob([images.background], { type: 'image/png' }), images.backgroundName ?? 'background.png');
  return f;
}

const boss = (method: string, path: string, extra: Parameters<typeof call>[3] = {}) => call(emu, method, path, { token: 't-boss', ...extra });
const detail = async () => (await boss('GET', DETAIL)).body.result[0];
const review = (action: string, reason?: string) => admin(emu, 'POST', 'review', { kind: 'brand', brandId: COFFEE, id: COFFEE, action, ...(reason ? { reason } : {}) });

describe('reading brands', () => {
  it('categories: each with its sub-categories', async () => {
    const a = await boss('GET', '/api/1.1/corp/brand/categories');
    expect(a.status).toBe(200);
    expect(a.body.result.find((c: any) => c.categoryId === 'FIN')).toMatchObject({ categoryName: '금융', subCategories: expect.arrayContaining([{ subCategoryId: 'FIN001', subCategoryName: '은행' }]) });
  });

  it('the list holds the brands the caller has a role on, as BrandInfo', async () => {
    const a = await boss('GET', '/api/1.1/corp/boss/brand');
    expect(a.body.result.map((b: any) => [b.brandId, b.name, b.status])).toEqual([
      [COFFEE, 'Coffee Co', '승인'],
      ['BR.saved00001', 'Draft', '저장'],
    ]);
    expect(a.body.pagination).toEqual({ total: 2, offset: 0, limit: 100 });
    expect((await call(emu, 'GET', '/api/1.1/corp/mgr/brand', { token: 't-mgr' })).body.result.map((b: any) => b.brandId)).toEqual([COFFEE]);
  });

  it('the detail: every page field, the category names, the images as mediaUrl, the call button the service adds', async () => {
    const d = await detail();
    expect(d).toMatchObject({ brandId: COFFEE, name: 'Coffee Co', brandKey: 'BK.coffee000000001', status: '승인', categoryName: '쇼핑', subCategoryName: '식품', templateColor: '#3B2A1A', initTab: 'FEED' });
    expect(d.menus).toEqual([{ buttonType: 'web', weblink: 'https://coffee.example' }, { buttonType: 'call' }]);
    expect(d.mediaUrl).toEqual([{ fileId: expect.any(String), url: expect.stringContaining('/files/brand/'), typeName: 'profile', fileName: 'profile.png' }]);
    expect((await request(d.mediaUrl[0].url)).statusCode).toBe(200);
    expect(d.chatbotDate).toMatch(/^2026-11-21T10:00/);
  });

  it('roles: an agency on /corp is 63002, another person on the path 64104, a master without a role 63001', async () => {
    expect(errorOf(await call(emu, 'GET', DETAIL, { token: 't-agency', brandKey: 'BK.coffee000000001' }))).toEqual({ status: 403, code: '63002', message: 'No Permission' });
    expect(errorOf(await call(emu, 'GET', DETAIL, { token: 't-mgr' })).code).toBe('64104');
    expect(errorOf(await call(emu, 'GET', `/api/1.1/corp/other/brand/${COFFEE}`, { token: 't-other' })).code).toBe('63001');
    expect(errorOf(await call(emu, 'GET', DETAIL, { token: null })).code).toBe('61003');
    expect((await call(emu, 'GET', `/api/1.1/corp/mgr/brand/${COFFEE}`, { token: 't-mgr' })).status).toBe(200);
  });

  it('the agency reads an approved brand with its brand key (64001 without, 64102 for another agencyId)', async () => {
    const path = `/api/1.1/agency/ag1/brand/${COFFEE}`;
    expect((await call(emu, 'GET', path, { token: 't-agency', brandKey: 'BK.coffee000000001' })).body.result[0].name).toBe('Coffee Co');
    expect(errorOf(await call(emu, 'GET', path, { token: 't-agency' })).code).toBe('64001');
    expect(errorOf(await call(emu, 'GET', `/api/1.1/agency/ag2/brand/${COFFEE}`, { token: 't-agency', brandKey: 'BK.coffee000000001' })).code).toBe('64102');
    expect(errorOf(await call(emu, 'GET', path, { token: 't-boss' })).code).toBe('63002');
  });
});

describe('modifying a running brand', () => {
  it('a field other than name and profile changes at once and the brand stays 승인', async () => {
    const a = await boss('PUT', DETAIL, { form: brandForm({ ...PAGE, description: 'Roasted daily', categoryOpt: 'coffee' }) });
    expect(a.status).toBe(200);
    expect(a.body.result[0]).toMatchObject({ description: 'Roasted daily', categoryOpt: 'coffee', status: '승인' });
    // The regBrand part is the whole page: a field it leaves out is unset.
    const b = await boss('PUT', DETAIL, { form: brandForm(PAGE) });
    expect(b.body.result[0].categoryOpt).toBeNull();
  });

  it('a new name goes to review (승인대기(수정)); reject names the reason; cancel after a new request restores the approved name', async () => {
    const a = await boss('PUT', DETAIL, { form: brandForm({ ...PAGE, name: 'Coffee Co.' }) });
    expect(a.body.result[0]).toMatchObject({ name: 'Coffee Co.', status: '승인대기(수정)' });
    expect(errorOf(await boss('PUT', DETAIL, { form: brandForm({ ...PAGE, name: 'Again' }) }))).toEqual({ status: 400, code: '64345', message: 'invalid brand status' });
    expect((await review('reject', 'name is misleading')).body.approvalResult).toBe('반려(수정)');
    expect(await detail()).toMatchObject({ status: '반려(수정)', approvalReason: 'name is misleading' });
    expect((await boss('PUT', DETAIL, { form: brandForm({ ...PAGE, name: 'Coffee Company' }) })).body.result[0].status).toBe('승인대기(수정)');
    expect((await boss('PUT', `${DETAIL}/cancel`)).body.result).toEqual([{ brandId: COFFEE }]);
    expect(await detail()).toMatchObject({ name: 'Coffee Co', status: '승인' });
    expect(errorOf(await boss('PUT', `${DETAIL}/cancel`)).code).toBe('64345');
  });

  it('a new profile image goes to review; approval (complete) keeps it; 검수완료(수정) still shows the approved one', async () => {
    const before = (await detail()).mediaUrl[0];
    await boss('PUT', DETAIL, { form: brandForm(undefined, { profile: png(500, 500, 7) }) });
    expect((await detail()).status).toBe('승인대기(수정)');
    await review('approve');
    expect((await detail()).mediaUrl[0].fileId).toBe(before.fileId);
    await review('complete');
    const after = await detail();
    expect(after.status).toBe('승인');
    expect(after.mediaUrl[0].fileId).not.toBe(before.fileId);
  });

  it('the same content again is 64323; the background is added and removed by its part alone', async () => {
    expect(errorOf(await boss('PUT', DETAIL, { form: brandForm(PAGE) })).code).toBe('64323');
    await boss('PUT', DETAIL, { form: brandForm(undefined, { background: png(600, 600) }) });
    expect((await detail()).mediaUrl.map((m: any) => m.typeName)).toEqual(['profile', 'background']);
    expect((await detail()).status).toBe('승인');
    await boss('PUT', DETAIL, { form: brandForm(undefined, { background: null }) });
    expect((await detail()).mediaUrl.map((m: any) => m.typeName)).toEqual(['profile']);
  });

  it('the image rules: png profile (64332), jpg or png background (64333), 1 MB (64331), square (64394), 388-1080 px (64335)', async () => {
    const put = async (images: Parameters<typeof brandForm>[1]) => errorOf(await boss('PUT', DETAIL, { form: brandForm(undefined, images) }));
    expect(await put({ profile: png(400, 400), profileName: 'p.jpg' })).toEqual({ status: 400, code: '64332', message: 'brand profile file is only png' });
    expect((await put({ background: png(400, 400), backgroundName: 'b.gif' })).code).toBe('64333');
    expect((await put({ profile: Buffer.concat([png(400, 400), Buffer.alloc(1024 * 1024)]) })).code).toBe('64331');
    expect((await put({ profile: png(400, 401) })).code).toBe('64394');
    expect((await put({ profile: png(387, 387) })).code).toBe('64335');
    expect((await put({ background: png(1081, 1081) })).code).toBe('64335');
  });

  it('the page fields: required (64336), lengths (64339), category (64337), buttons (64337: app, no link, four), initTab fixed after approval', async () => {
    const put = async (page: Record<string, unknown>) => errorOf(await boss('PUT', DETAIL, { form: brandForm(page) }));
    const { tel: _t, ...noTel } = PAGE;
    expect(await put(noTel)).toEqual({ status: 400, code: '64336', message: 'required value: [tel]' });
    expect((await put({ ...PAGE, name: 'x'.repeat(21) })).code).toBe('64339');
    expect((await put({ ...PAGE, description: 'x'.repeat(151) })).code).toBe('64339');
    expect((await put({ ...PAGE, subCategoryId: 'FIN001' })).code).toBe('64337');
    expect((await put({ ...PAGE, menus: [{ buttonType: 'app', weblink: 'https://a.example' }] })).code).toBe('64337');
    expect((await put({ ...PAGE, menus: [{ buttonType: 'web' }] })).code).toBe('64337');
    const four = ['web', 'store', 'order', 'buy'].map((buttonType) => ({ buttonType, weblink: 'https://a.example' }));
    expect((await put({ ...PAGE, menus: four })).code).toBe('64337');
    expect((await put({ ...PAGE, initTab: 'INFO' })).code).toBe('64337');
    expect((await put({ ...PAGE, initFeedItems: ['store'] })).code).toBe('64337');
    expect((await put({ ...PAGE, templateColor: 'brown' })).code).toBe('64337');
  });

  it('the agency modifies with its brand key; a manager operator may too; a saved brand may not be modified (64345)', async () => {
    const agency = await call(emu, 'PUT', `/api/1.1/agency/ag1/brand/${COFFEE}`, { token: 't-agency', brandKey: 'BK.coffee000000001', form: brandForm({ ...PAGE, tel: '0299999999' }) });
    expect(agency.body.result[0].tel).toBe('0299999999');
    const mgr = await call(emu, 'PUT', `/api/1.1/corp/mgr/brand/${COFFEE}`, { token: 't-mgr', form: brandForm({ ...PAGE, tel: '0288888888' }) });
    expect(mgr.body.result[0].tel).toBe('0288888888');
    expect(errorOf(await boss('PUT', '/api/1.1/corp/boss/brand/BR.saved00001', { form: brandForm(PAGE) })).code).toBe('64345');
  });
});

describe('registering, correcting, cancelling and deleting a brand', () => {
  it('POST /corp/brand: a new brand in 승인대기, its creator the representative; cancel to 저장; PUT sends it again; delete', async () => {
    expect(errorOf(await boss('POST', '/api/1.1/corp/brand', { form: brandForm(PAGE) }))).toEqual({ status: 400, code: '64329', message: 'Missing profile image' });
    const a = await call(emu, 'POST', '/api/1.1/corp/brand', { token: 't-mgr', form: brandForm({ ...PAGE, name: 'Tea Co' }, { profile: png(400, 400) }) });
    const id = a.body.result[0].brandId as string;
    expect(id).toMatch(/^BR\.\d{10}$/);
    const read = await call(emu, 'GET', `/api/1.1/corp/mgr/brand/${id}`, { token: 't-mgr' });
    expect(read.body.result[0]).toMatchObject({ name: 'Tea Co', status: '승인대기', approvalDate: null });
    expect((await call(emu, 'GET', `/api/1.1/corp/mgr/brand/${id}/privilege`, { token: 't-mgr' })).body.result).toEqual([{ privilegeType: 'Manager', id: 'mgr', status: 'Ok' }]);
    expect((await call(emu, 'PUT', `/api/1.1/corp/brand/${id}/cancel`, { token: 't-mgr' })).status).toBe(200);
    expect(errorOf(await call(emu, 'PUT', `/api/1.1/corp/brand/${id}/cancel`, { token: 't-mgr' })).code).toBe('64345');
    const again = await call(emu, 'PUT', `/api/1.1/corp/brand/${id}`, { token: 't-mgr', form: brandForm({ ...PAGE, name: 'Tea Company' }, { profile: png(400, 400) }) });
    expect(again.body.result).toEqual([{ brandId: id }]);
    expect((await call(emu, 'GET', `/api/1.1/corp/mgr/brand/${id}`, { token: 't-mgr' })).body.result[0]).toMatchObject({ name: 'Tea Company', status: '승인대기' });
    // Only a master deletes, and only a brand never approved.
    expect(errorOf(await call(emu, 'DELETE', `/api/1.1/corp/brand/${id}`, { token: 't-mgr' })).code).toBe('63002');
    expect(errorOf(await boss('DELETE', '/api/1.1/corp/brand/BR.coffee0001')).code).toBe('64345');
    expect((await boss('DELETE', '/api/1.1/corp/brand/BR.saved00001')).body.result).toEqual([{ brandId: 'BR.saved00001' }]);
    expect(errorOf(await boss('GET', '/api/1.1/corp/boss/brand/BR.saved00001')).code).toBe('63001');
  });

  it('registration with rooms needs the certificate (64305); an agency may not register (64330); regBrand must be RegBrandInfo (64342)', async () => {
    const rooms = (f: ReturnType<typeof brandForm>) => {
      f.append('chatbots', new Blob([JSON.stringify({ chatbots: [{ mdn: '0277777777', subTitle: 'Tea' }] })], { type: 'application/json' }), 'chatbots.json');
      return f;
    };
    expect(errorOf(await boss('POST', '/api/1.1/corp/brand', { form: rooms(brandForm(PAGE, { profile: png(400, 400) })) })).code).toBe('64305');
    const withCert = rooms(brandForm(PAGE, { profile: png(400, 400) }));
    withCert.append('subNumCertificate', new Blob([Buffer.from('%PDF')], { type: 'application/pdf' }), 'cert.pdf');
    const id = (await boss('POST', '/api/1.1/corp/brand', { form: withCert })).body.result[0].brandId;
    expect((await boss('GET', `/api/1.1/brand/${id}/chatbot/0277777777`)).body.result[0]).toMatchObject({ subTitle: 'Tea', approvalResult: '승인대기' });
    expect(errorOf(await call(emu, 'POST', '/api/1.1/corp/brand', { token: 't-agency', form: brandForm(PAGE, { profile: png(400, 400) }) })).code).toBe('64330');
    const bare = form({ regBrand: JSON.stringify(PAGE) }, { brandProfile: { name: 'p.png', bytes: png(400, 400) } });
    expect(errorOf(await boss('POST', '/api/1.1/corp/brand', { form: bare })).code).toBe('64342');
  });

  it('an approved brand is deleted only once its rooms are gone (64351)', async () => {
    expect(errorOf(await boss('DELETE', DETAIL))).toEqual({ status: 400, code: '64351', message: 'chatbot exists. need to delete all chatbot before deleting the brand' });
    expect(errorOf(await call(emu, 'DELETE', `/api/1.1/corp/mgr/brand/${COFFEE}`, { token: 't-mgr' })).code).toBe('63002');
  });
});

describe('privileges', () => {
  it('lists, grants an operator, hands over the representative role, revokes; the representative cannot be revoked (64352)', async () => {
    const path = `${DETAIL}/privilege`;
    expect((await boss('GET', path)).body.result).toEqual([
      { privilegeType: 'Manager', id: 'boss', status: 'Ok' },
      { privilegeType: 'SubManager', id: 'mgr', status: 'Ok' },
      { privilegeType: 'Agency', id: 'ag1', status: 'Ok' },
    ]);
    expect((await boss('POST', path, { json: { regPrivileges: [{ privilegeType: 'SubManager', id: 'other' }] } })).body.result).toEqual([{ privilegeType: 'SubManager', id: 'other', status: 'Ok' }]);
    expect(errorOf(await boss('POST', path, { json: { regPrivileges: [{ privilegeType: 'SubManager', id: 'nobody' }] } }))).toEqual({ status: 400, code: '64346', message: 'user not found: nobody' });
    expect(errorOf(await boss('DELETE', `${path}/boss`)).code).toBe('64352');
    expect((await boss('DELETE', `${path}/mgr`)).body.result).toEqual([{ privilegeType: 'SubManager', id: 'mgr', status: 'Ok' }]);
    expect((await boss('PUT', path, { json: { regPrivilege: { privilegeType: 'Manager', id: 'other' } } })).body.result).toEqual([{ privilegeType: 'Manager', id: 'other', status: 'Ok' }]);
    // boss is an operator now: the representative's calls are refused.
    expect(errorOf(await boss('DELETE', `${path}/mgr`)).code).toBe('63001');
    expect((await call(emu, 'GET', `/api/1.1/corp/other/brand/${COFFEE}/privilege`, { token: 't-other' })).body.result).toEqual([
      { privilegeType: 'SubManager', id: 'boss', status: 'Ok' },
      { privilegeType: 'Manager', id: 'other', status: 'Ok' },
      { privilegeType: 'Agency', id: 'ag1', status: 'Ok' },
    ]);
  });
});
