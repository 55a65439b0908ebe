// The brand page: every client method against the emulator over real HTTP
// (each request checked against the contract), and the errors it surfaces.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RcsApiError } from '../../src/api/index.js';
import { AGENCY_TOKEN, BRAND, pngFile, rejection, startTestEmulator, type TestEmulator } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
});

// The seeded brand's page is named after its id: keeping the name keeps the brand out of review.
const PAGE = { name: BRAND.id, description: 'Fresh coffee daily', tel: '0212345678', categoryId: 'SHP', subCategoryId: 'SHP002' };

describe('brands', () => {
  it('reads the categories and the page, modifies it with regBrand and images, withdraws a review', async () => {
    const client = emu.client();
    const categories = await client.brands.categories();
    expect(categories.map((c) => c.categoryId)).toContain('SHP');

    await client.brands.modify(BRAND, 'master01', { regBrand: { ...PAGE, menus: [{ buttonType: 'web', weblink: 'https://coffee.example' }] }, background: pngFile('bg.png', 400, 400) });
    const page = await client.brands.get(BRAND, 'master01');
    expect(page).toMatchObject({ ...PAGE, status: '승인', categoryOpt: null });
    expect(page.menus).toEqual([{ buttonType: 'web', weblink: 'https://coffee.example' }, { buttonType: 'call' }]);
    expect(page.mediaUrl?.map((m) => m.typeName)).toEqual(['background']);

    await client.brands.modify(BRAND, 'master01', { profile: pngFile('profile.png', 500, 500), background: null });
    const pending = await client.brands.get(BRAND, 'master01');
    expect(pending.status).toBe('승인대기(수정)');
    expect(pending.mediaUrl?.map((m) => m.typeName)).toEqual(['profile']);

    await client.brands.cancel(BRAND, 'master01');
    expect((await client.brands.get(BRAND, 'master01')).status).toBe('승인');
  });

  it('surfaces the service errors: another person (64104), a state that forbids the change (64345), an agency on /corp (63002)', async () => {
    const client = emu.client();
    const code = (err: unknown) => (err as RcsApiError).serviceCode;
    expect(code(await rejection(client.brands.get(BRAND, 'someone')))).toBe('64104');
    await client.brands.modify(BRAND, 'master01', { regBrand: { ...PAGE, name: 'Coffee Co.' } });
    expect(code(await rejection(client.brands.modify(BRAND, 'master01', { regBrand: { ...PAGE, name: 'Other' } })))).toBe('64345');
    expect(code(await rejection(emu.client({ credentials: { token: AGENCY_TOKEN } }).brands.get(BRAND, 'agency01')))).toBe('63002');
  });
});
