// The template kind's pure part on in-memory objects: identity, the compared
// shape, gates per state, --cancel-review, and the form checks with positions.

import { describe, expect, it } from 'vitest';
import type { TemplateDetail } from '../../src/api/types.js';
import { templateKind } from '../../src/kinds/template/index.js';
import { checkAgainstForm } from '../../src/kinds/template/policy.js';
import type { DesiredTemplate } from '../../src/kinds/index.js';
import type { TemplateRequest } from '../../src/kinds/template/kind.js';
import { buildPlan } from '../../src/plan/build-plan.js';
import { diffObjects } from '../../src/plan/diff.js';
import { TEMPLATE_FORMS } from '../../src/spec/template-forms.js';
import { withoutWidgetPolicy } from '../../src/spec/template-policy.js';
import { BRAND, contextFor, desiredBrand, liveBrand, localFile, SOURCE } from './helpers.js';

const FORM = TEMPLATE_FORMS[0]!;
const IMAGE_FORM = TEMPLATE_FORMS[3]!;
const layout = (text: string): Record<string, unknown> => {
  const fs = structuredClone(FORM.formattedString) as any;
  fs.RCSMessage.openrichcardMessage.layout.children[0].children[2].text = text;
  return fs;
};

function desired(handle: string, over: Partial<DesiredTemplate> = {}): DesiredTemplate {
  return {
    handle,
    custTmpltId: handle,
    tmpltName: `Template ${handle}`,
    messagebaseformId: FORM.messagebaseformId,
    formattedString: layout('Hello {{name}}'),
    source: SOURCE,
    locate: (path) => ({ ...SOURCE, line: 10 + path.length, col: 3, path: path.join('/') }),
    ...over,
  };
}

function live(custTmpltId: string, over: Partial<TemplateDetail> = {}): TemplateDetail {
  return {
    groupId: null,
    messagebaseId: `U${BRAND}-${custTmpltId}`,
    tmpltName: `Template ${custTmpltId}`,
    messagebaseformId: FORM.messagebaseformId,
    brandId: BRAND,
    status: 'ready',
    approvalResult: '승인',
    approvalReason: null,
    registerDate: '2026-01-01T00:00:00.000+09',
    approvalDate: null,
    updateDate: '2026-01-01T00:00:00.000+09',
    registerId: 'master',
    updateId: 'master',
    productCode: 'tmplt',
    spec: 'openrichcard',
    cardType: 'Description',
    agencyId: null,
    inputText: null,
    attribute: [],
    guideInfo: FORM.guideInfo,
    policyInfo: FORM.policyInfo,
    params: [],
    formattedString: withoutWidgetPolicy(layout('Hello {{name}}')) as Record<string, unknown>,
    ...over,
  };
}

const liveTemplates = (items: TemplateDetail[]) => liveBrand({ templates: { items, forms: new Map([[FORM.messagebaseformId, FORM], [IMAGE_FORM.messagebaseformId, IMAGE_FORM]]), formIds: TEMPLATE_FORMS.map((f) => f.messagebaseformId) } });

describe('template identity and comparison', () => {
  it('matches by custTmpltId (the tail of the id when the detail has none) or by a pinned messagebaseId', () => {
    const { custTmpltId: _c, ...noCust } = live('b');
    const m = templateKind.diff.match([desired('a'), desired('b'), desired('c', { messagebaseId: `U${BRAND}-x` })], [live('a', { custTmpltId: 'a' }), noCust as TemplateDetail, live('x')], desiredBrand());
    expect(m.pairs.map(([d, l]) => [d.handle, l.messagebaseId])).toEqual([
      ['a', `U${BRAND}-a`],
      ['b', `U${BRAND}-b`],
      ['c', `U${BRAND}-x`],
    ]);
    expect(templateKind.diff.match([desired('d', { messagebaseId: 'U-gone' })], [], desiredBrand()).problems[0]?.code).toBe('E_PLAN_PINNED_MISSING');
  });

  it('an approved template read back equals its manifest: widgetPolicy, state and the form\'s data are not compared', () => {
    const brand = desiredBrand({ templates: [desired('a')] });
    const ctx = contextFor(brand, liveTemplates([live('a')]));
    expect(diffObjects(templateKind.diff.normaliseLive(live('a'), ctx), templateKind.diff.normaliseDesired(desired('a'), ctx, live('a')))).toEqual([]);
  });

  it('compares an image by its content-addressed name and does not upload it again', () => {
    const image = localFile('images/sale.png', 'sale');
    const d = desired('s', { messagebaseformId: IMAGE_FORM.messagebaseformId, body: [{ param: 'media', image }, { param: 'description', value: 'Sale' }] });
    delete d.formattedString;
    const l = live('s', { messagebaseformId: IMAGE_FORM.messagebaseformId, body: [{ param: 'description', value: 'Sale' }, { param: 'media', value: 'maapfile://LT-1' }], files: [{ fileId: 'LT-1', url: 'u', fileName: image.uploadName, imageWidth: 900, imageHeight: 560 }] });
    const brand = desiredBrand({ templates: [d] });
    const plan = buildPlan(brand, liveTemplates([l]));
    expect(plan.steps).toEqual([]);
    const changed = buildPlan(desiredBrand({ templates: [{ ...d, tmpltName: 'Renamed' }] }), liveTemplates([l]));
    const req = (changed.steps[0] as { request: TemplateRequest }).request;
    expect(req.api === 'params' && req.template.body).toContainEqual({ param: 'media', value: 'maapfile://LT-1' });
    expect(req.api === 'params' && Object.keys(req.images)).toEqual([]);
  });

  it("shows a body change at the entry's place in the manifest, and a different order is no change", () => {
    const image = localFile('images/sale.png', 'sale');
    const body = (description: string) => [{ param: 'media', image }, { param: 'title', value: 'Sale' }, { param: 'description', value: description }];
    const d = (description: string) => {
      const t = desired('s', { messagebaseformId: IMAGE_FORM.messagebaseformId, body: body(description) });
      delete t.formattedString;
      return t;
    };
    // The service holds the entries in another order than the manifest writes them.
    const l = live('s', {
      messagebaseformId: IMAGE_FORM.messagebaseformId,
      body: [{ param: 'description', value: 'Sale' }, { param: 'media', value: 'maapfile://LT-1' }, { param: 'title', value: 'Sale' }],
      files: [{ fileId: 'LT-1', url: 'u', fileName: image.uploadName, imageWidth: 900, imageHeight: 560 }],
    });
    expect(buildPlan(desiredBrand({ templates: [d('Sale')] }), liveTemplates([l])).steps).toEqual([]);
    const changed = buildPlan(desiredBrand({ templates: [d('Sale, today only')] }), liveTemplates([l])).steps[0];
    // body[2] is the manifest's third entry, description (sorted, it was body[0]).
    expect(changed?.changes).toEqual([{ path: 'body[2].value', type: 'change', before: 'Sale', after: 'Sale, today only' }]);
    const created = buildPlan(desiredBrand({ templates: [d('Sale')] }), liveTemplates([])).steps[0];
    expect(created?.changes.filter((c) => c.path.startsWith('body')).map((c) => c.path)).toEqual(['body[0].param', 'body[0].image', 'body[1].param', 'body[1].value', 'body[2].param', 'body[2].value']);
    expect(created?.changes.find((c) => c.path === 'body[0].param')?.after).toBe('media');
  });
});

describe('template gates', () => {
  const changedIn = (state: string, cancelReview = false) => {
    const brand = desiredBrand({ templates: [desired('a', { tmpltName: 'New name' })] });
    return buildPlan(brand, liveTemplates([live('a', { approvalResult: state })]), { cancelReview }).steps[0]?.gate;
  };

  it('review for every registration and for changes in 저장, 반려, 반려(수정), 승인', () => {
    expect(buildPlan(desiredBrand({ templates: [desired('n')] }), liveTemplates([])).steps[0]?.gate.type).toBe('review');
    expect(changedIn('승인')).toEqual({ type: 'review', review: 'the modified template goes back to operator review (승인 → 승인대기(수정))' });
    expect(changedIn('반려(수정)')).toMatchObject({ type: 'review', review: expect.stringContaining('반려(수정) → 승인대기(수정)') });
    expect(changedIn('저장')).toMatchObject({ type: 'review', review: expect.stringContaining('저장 → 승인대기') });
  });

  it('blocks changes under review, with the reason; --cancel-review withdraws a review that has not started', () => {
    expect(changedIn('검수시작')).toMatchObject({ type: 'blocked', state: '검수시작' });
    expect(changedIn('승인대기')).toMatchObject({ type: 'blocked', reason: expect.stringContaining('--cancel-review') });
    expect(changedIn('승인대기', true)).toMatchObject({ type: 'review', withdraws: expect.stringContaining('(승인대기) is withdrawn first (→ 저장') });
    expect(changedIn('승인대기(수정)', true)).toMatchObject({ type: 'review', review: expect.stringContaining('승인 → 승인대기(수정)'), withdraws: expect.stringContaining('the approved version') });
    expect(changedIn('검수시작', true)).toMatchObject({ type: 'blocked' });
  });

  it('deletes only in the states the service allows', () => {
    const prune = (state: string) => buildPlan(desiredBrand({ prune: ['templates'] }), liveTemplates([live('a', { approvalResult: state })])).steps[0]?.gate.type;
    expect(prune('승인')).toBe('destructive');
    expect(prune('승인대기')).toBe('blocked');
  });
});

describe('template against its form', () => {
  it('reports the form\'s rules at the manifest position, and an unknown form with the nearest ids', () => {
    const bad = layout('Hi');
    (bad as any).RCSMessage.openrichcardMessage.layout.children[0].children[2].textSize = '30dp';
    const problems = checkAgainstForm(desired('a', { formattedString: bad }), FORM, []);
    expect(problems).toEqual([
      expect.objectContaining({ code: 'RCS534', address: 'template.a', message: expect.stringMatching(/^brand\.yaml:19:3: textSize of this TextView may not change \(the form allows only text\)$/) }),
    ]);
    expect(checkAgainstForm(desired('a', { messagebaseformId: 'TADS01A' }), null, ['TADS001A', 'ITHI001V'])[0]?.message).toMatch(/no template form "TADS01A" \(did you mean "TADS001A"\?\)$/);
  });
});
