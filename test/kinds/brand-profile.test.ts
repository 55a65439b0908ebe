// The brand profile's pure part on in-memory objects: a brand the account
// cannot see stops at "brand not found" (never a create), a live page the
// manifests leave out is never deleted nor reported, a category pair the
// service does not list is a problem, and the call button the service adds is
// expected, not shown as a change.

import { describe, expect, it } from 'vitest';
import type { BrandDetail } from '../../src/contract/wire.js';
import type { DesiredProfile } from '../../src/kinds/brand-profile/types.js';
import { buildPlan } from '../../src/plan/build-plan.js';
import { BRAND, desiredBrand, liveBrand, localFile, SOURCE } from './helpers.js';

const image = localFile('images/profile.png', 'png bytes');
const desired: DesiredProfile = { name: 'Coffee Co', description: 'Fresh', tel: '0212345678', categoryId: 'SHP', subCategoryId: 'SHP002', profileImage: image, source: SOURCE, menus: [{ type: 'web', url: 'https://coffee.example' }] };
const page: BrandDetail & { personId: string } = {
  personId: 'master',
  brandId: BRAND,
  name: 'Coffee Co',
  status: '승인',
  description: 'Fresh',
  tel: '0212345678',
  categoryId: 'SHP',
  subCategoryId: 'SHP002',
  initTab: 'FEED',
  menus: [{ buttonType: 'web', weblink: 'https://coffee.example' }, { buttonType: 'call' }],
  mediaUrl: [{ fileId: 'BRF1', url: 'http://127.0.0.1/x', typeName: 'profile', fileName: image.uploadName }],
};
const categories = [{ categoryId: 'SHP', subCategories: [{ subCategoryId: 'SHP002' }] }];

function brandWith(d?: DesiredProfile) {
  return { ...desiredBrand(), brandProfile: new Map(d === undefined ? [] : [['home', d]]) };
}

describe('brand profile planning', () => {
  it('the page as the service keeps it (call added) is no change', () => {
    const plan = buildPlan(brandWith(desired), { ...liveBrand(), brandProfile: { page, categories } });
    expect(plan.steps).toEqual([]);
    expect(plan.problems).toEqual([]);
  });

  it('a brand the account cannot see stops at "brand not found" and is never created', () => {
    const plan = buildPlan(brandWith(desired), { ...liveBrand(), brandProfile: { page: null, categories } });
    expect(plan.steps).toEqual([]);
    expect(plan.problems).toEqual([expect.objectContaining({ code: 'BRAND_NOT_FOUND', message: expect.stringMatching(/^brand not found: register it in the console or with POST \/corp\/brand/) })]);
  });

  it('a live page no manifest declares is left alone: no delete, not unmanaged', () => {
    const plan = buildPlan({ ...brandWith(), prune: ['autoReplies', 'logos'] }, { ...liveBrand(), brandProfile: { page, categories } });
    expect(plan.steps).toEqual([]);
    expect(plan.unmanaged).toEqual([]);
  });

  it('a category pair the service does not list, and a page read without an account, are problems', () => {
    const wrong = buildPlan(brandWith({ ...desired, subCategoryId: 'SHP009' }), { ...liveBrand(), brandProfile: { page, categories } });
    expect(wrong.problems.map((p) => p.message)).toEqual(['subCategoryId "SHP009" is not a sub-category of SHP (SHP002)']);
    const unread = buildPlan(brandWith(desired), { ...liveBrand(), brandProfile: { page: null, categories: [], unread: 'no account to read the brand page as: set brandProfile.account or RCSCTL_PERSON_ID' } });
    // A page not read is no brand missing: the account's problem alone, not BRAND_NOT_FOUND.
    expect(unread.problems.map((p) => p.code)).toEqual(['PROFILE_ACCOUNT']);
    expect(unread.steps).toEqual([]);
  });
});
