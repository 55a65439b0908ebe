// The layout kind's pure part on in-memory objects: the checks against the
// service's components, rules and samples (each problem at its manifest
// line), the comparison as the service keeps a layout (a component's own
// options under those given, the row count a number), the gates (no review;
// 처리중 blocks), its drift findings, and export's section read back equal.

import { describe, expect, it } from 'vitest';
import type { Layout } from '../../src/api/layouts.js';
import type { LayoutComponent, LayoutRule } from '../../src/contract/wire.js';
import { layoutKind } from '../../src/kinds/layout/index.js';
import { layoutProblems } from '../../src/kinds/layout/rules.js';
import type { DesiredLayout } from '../../src/kinds/layout/types.js';
import type { ExportContext, PlanContext } from '../../src/kinds/resource-kind.js';

const c = (componentId: string, status: string, h: 'Y' | 'N', b: 'Y' | 'N', f: 'Y' | 'N', options: Record<string, unknown> | null = null, groupComponentId: string | null = null): LayoutComponent => ({
  componentId,
  componentName: componentId.toLowerCase(),
  iconImgFileUrl: '',
  status,
  headerYn: h,
  bodyYn: b,
  footerYn: f,
  options,
  groupComponentId,
});
const COMPONENTS = [
  c('TITLE', 'public', 'Y', 'N', 'N'),
  c('TEXT', 'public', 'N', 'Y', 'N'),
  c('IMAGE', 'public', 'Y', 'Y', 'N', null, 'MEDIA'),
  c('VIDEO', 'layout', 'N', 'Y', 'N', null, 'MEDIA'),
  c('OLD', 'disable', 'N', 'Y', 'N'),
  c('TABLE', 'public', 'N', 'Y', 'N', { leftAlign: 'left', rightAlign: 'right', leftTextStyle: 'normal', rightTextStyle: 'normal', maxCount: '5' }),
  c('BUTTON', 'public', 'N', 'Y', 'Y', { color: '' }),
];
const RULES: LayoutRule[] = [{ productCode: 'lms', componentCount: 3, componentMinCount: 1, buttonCount: 1, componentLimit: { MEDIA: 1 } }];

/** A desired layout; `locate` gives each path its own line, so a problem's line says where it points. */
function desired(over: Partial<DesiredLayout> = {}): DesiredLayout {
  const lines = new Map<string, number>();
  return {
    handle: 'receipt',
    layoutName: 'Receipt',
    productCode: 'lms',
    headerComposition: [],
    bodyComposition: [{ componentId: 'TEXT' }],
    footerComposition: [],
    source: { file: 'brand.yaml', line: 3, col: 3, path: '/layouts/receipt' },
    locate: (path) => {
      const key = path.join('.');
      if (!lines.has(key)) lines.set(key, 10 + lines.size);
      return { file: 'brand.yaml', line: lines.get(key) as number, col: 7, path: key };
    },
    ...over,
  };
}

function live(over: Partial<Layout> = {}): Layout {
  return {
    layoutId: 'CLL1',
    layoutName: 'Receipt',
    productCode: 'lms',
    status: 'ready',
    approvalResult: '등록완료',
    registerId: 'agency',
    registerDate: '2026-11-21T10:00:00.000+09',
    updateDate: '2026-11-21T10:00:00.000+09',
    cardType: 'formatBr',
    buttonColor: '',
    headerComposition: [],
    bodyComposition: [{ componentId: 'TEXT' }],
    footerComposition: [],
    ...over,
  };
}

const problems = (d: DesiredLayout) => layoutProblems(d, { components: COMPONENTS, rules: RULES, sampleIds: ['SL_1'] }).map((p) => `${p.code} ${p.line}: ${p.message.replace(/^brand\.yaml:\d+:\d+: /, '')}`);

describe('layouts against the service lists', () => {
  it('a layout within its rule, of usable components in their areas, has no problem', () => {
    expect(problems(desired({ headerComposition: [{ componentId: 'TITLE' }], bodyComposition: [{ componentId: 'TEXT' }, { componentId: 'VIDEO' }], footerComposition: [{ componentId: 'BUTTON', options: { color: '' } }], sampleLayoutId: 'SL_1' }))).toEqual([]);
  });

  it('names an unknown component (with the closest usable one), an unusable one, and one out of its area', () => {
    expect(problems(desired({ headerComposition: [{ componentId: 'TEXT' }], bodyComposition: [{ componentId: 'TEXTT' }, { componentId: 'OLD' }] }))).toEqual([
      'LAYOUT_COMPONENT 10: layout component TEXT (text) cannot be used in the header; it is usable in the body',
      'LAYOUT_COMPONENT 11: the service lists no layout component "TEXTT" (did you mean "TEXT"?)',
      'LAYOUT_COMPONENT 12: layout component OLD (old) is disable: a layout may use only public and layout components',
    ]);
  });

  it('names options a component does not take', () => {
    expect(problems(desired({ bodyComposition: [{ componentId: 'TEXT', options: { maxCount: 5 } }, { componentId: 'TABLE', options: { color: '#000000' } }] }))).toEqual([
      'LAYOUT_COMPONENT 10: layout component TEXT (text) takes no options',
      'LAYOUT_COMPONENT 11: layout component TABLE (table) has no option color (it has leftAlign, rightAlign, leftTextStyle, rightTextStyle, maxCount)',
    ]);
  });

  it("checks the product's rule: components, buttons, a group's limit, and different components of one group in the body", () => {
    const many = Array.from({ length: 4 }, () => ({ componentId: 'TEXT' }));
    expect(problems(desired({ bodyComposition: many }))).toEqual(['LAYOUT_RULE 10: an LMS layout takes at most 3 components besides buttons, header and body together; this one has 4']);
    expect(problems(desired({ bodyComposition: [{ componentId: 'TEXT' }, { componentId: 'BUTTON' }], footerComposition: [{ componentId: 'BUTTON' }] }))).toEqual(['LAYOUT_RULE 10: an LMS layout takes at most 1 button; this one has 2']);
    expect(problems(desired({ bodyComposition: [{ componentId: 'IMAGE' }, { componentId: 'VIDEO' }] }))).toEqual([
      'LAYOUT_RULE 10: VIDEO and IMAGE are of one component group (MEDIA): different components of a group may not be used together in the body',
      'LAYOUT_RULE 11: an LMS layout takes at most 1 component of group MEDIA; this one has 2',
    ]);
  });

  it('names a product with no rule and a sample the service does not list', () => {
    expect(problems(desired({ productCode: 'sms', sampleLayoutId: 'SL_2' }))).toEqual(['LAYOUT_PRODUCT 10: the service has no layout rule for product "sms" (it has lms)', 'LAYOUT_SAMPLE 11: the service has no sample layout "SL_2" (did you mean "SL_1"?)']);
  });

  it('checks nothing against a list it did not read', () => {
    expect(layoutProblems(desired({ bodyComposition: [{ componentId: 'NOPE' }] }), {})).toEqual([]);
  });
});

describe('layout comparison and gates', () => {
  const ctx = { brand: { prune: [] }, live: { layouts: { items: [], components: COMPONENTS } } } as unknown as PlanContext;

  it("compares a component's options over its own, the row count as a number, on both sides", () => {
    const d = desired({ bodyComposition: [{ componentId: 'TABLE', options: { maxCount: 10 } }] });
    const l = live({ bodyComposition: [{ componentId: 'TABLE', options: { leftAlign: 'left', rightAlign: 'right', leftTextStyle: 'normal', rightTextStyle: 'normal', maxCount: '10' } }] });
    expect(layoutKind.diff.normaliseDesired(d, ctx, l)).toEqual(layoutKind.diff.normaliseLive(l, { liveName: () => undefined }));
    const other = live({ bodyComposition: [{ componentId: 'TABLE', options: { leftAlign: 'left', rightAlign: 'right', leftTextStyle: 'bold', rightTextStyle: 'normal', maxCount: 10 } }] });
    expect(layoutKind.diff.normaliseDesired(d, ctx, other)).not.toEqual(layoutKind.diff.normaliseLive(other, { liveName: () => undefined }));
  });

  it("compares a button's colour as the service keeps it: the brand's templateColor when the manifests declare it", () => {
    const profile = { templateColor: '#3B2A1A', source: { file: 'brand.yaml', line: 20, col: 3, path: 'brandProfile' } };
    const withTemplate = { ...ctx, brand: { prune: [], brandProfile: new Map([['home', profile]]) } } as unknown as PlanContext;
    const button = (color: string) => ({ footerComposition: [{ componentId: 'BUTTON', options: { color } }] });
    const l = live(button('#3B2A1A'));
    const kept = layoutKind.diff.normaliseLive(l, { liveName: () => undefined });
    // Another colour is set to the templateColor by the service: no difference to plan, every run.
    expect(layoutKind.diff.normaliseDesired(desired(button('#FF0000')), withTemplate, l)).toEqual(kept);
    expect(layoutKind.diff.normaliseDesired(desired(button('#3b2a1a')), withTemplate, l)).not.toEqual(kept);
    // The default colour stays the default; without a declared templateColor the colour is compared as written.
    expect(layoutKind.diff.normaliseDesired(desired(button('')), withTemplate, live(button('')))).toEqual(layoutKind.diff.normaliseLive(live(button('')), { liveName: () => undefined }));
    expect(layoutKind.diff.normaliseDesired(desired(button('#FF0000')), ctx, l)).not.toEqual(kept);
    // What is sent is what the manifest says: the service decides.
    const step = layoutKind.diff.createStep(desired(button('#FF0000')), withTemplate, { id: 's', kind: 'layout', address: 'layout.receipt', name: 'Receipt', gate: { type: 'none' }, changes: [], dependsOn: [], produces: 'layout:receipt' });
    expect(step).toMatchObject({ request: { footerComposition: [{ componentId: 'BUTTON', options: { color: '#FF0000' } }] } });
  });

  it('sends every area, empty where the manifest gives none, and the sample it names', () => {
    const step = layoutKind.diff.createStep(desired({ sampleLayoutId: 'SL_1' }), ctx, { id: 's', kind: 'layout', address: 'layout.receipt', name: 'Receipt', gate: { type: 'none' }, changes: [], dependsOn: [], produces: 'layout:receipt' });
    expect(step).toMatchObject({ op: 'create', request: { layoutName: 'Receipt', productCode: 'lms', sampleLayoutId: 'SL_1', headerComposition: [], bodyComposition: [{ componentId: 'TEXT' }], footerComposition: [] } });
  });

  it('goes to no review; a layout stuck in 처리중 is neither changed nor deleted; a delete is destructive', () => {
    expect(layoutKind.gates.create(desired())).toEqual({ type: 'none' });
    expect(layoutKind.gates.update(live({ approvalResult: '저장' }), [], desired())).toEqual({ type: 'none' });
    expect(layoutKind.gates.update(live({ approvalResult: '처리중' }), [], desired())).toMatchObject({ type: 'blocked', state: '처리중' });
    expect(layoutKind.gates.delete(live())).toEqual({ type: 'destructive' });
    expect(layoutKind.gates.delete(live({ approvalResult: '처리중' }))).toMatchObject({ type: 'blocked', state: '처리중' });
  });
});

describe('layout findings and export', () => {
  const opts = { managed: true, now: new Date(), opts: {} } as Parameters<typeof layoutKind.findings>[2];

  it('finds a layout stuck (error), saved (warning) and, when declared, paused', () => {
    expect(layoutKind.findings('layout.receipt', live(), opts)).toEqual([]);
    expect(layoutKind.findings('layout.receipt', live({ approvalResult: '처리중' }), opts).map((f) => [f.code, f.severity])).toEqual([['LAYOUT_PROCESSING', 'error']]);
    expect(layoutKind.findings('layout.receipt', live({ approvalResult: '저장', status: 'pause' }), opts).map((f) => f.code)).toEqual(['LAYOUT_SAVED', 'LAYOUT_PAUSED']);
    expect(layoutKind.findings('layout.x', live({ status: 'pause' }), { ...opts, managed: false })).toEqual([]);
  });

  it('writes each layout back with its areas; a shared name is pinned by id; the row count as a number', () => {
    const layouts = [live(), live({ layoutId: 'CLL2', bodyComposition: [{ componentId: 'TABLE', options: { maxCount: '5' } }], footerComposition: [{ componentId: 'BUTTON', options: { color: '' } }] })];
    const handles = layoutKind.exporter.handles?.(layouts) as Map<string, string>;
    const ctx = { handle: (_k: string, id: string) => handles.get(id), image: () => '', note: () => undefined } as ExportContext;
    expect(layoutKind.exporter.entries(layouts, ctx)).toEqual({
      receipt: { layoutId: 'CLL1', layoutName: 'Receipt', productCode: 'lms', bodyComposition: [{ componentId: 'TEXT' }] },
      'receipt-2': { layoutId: 'CLL2', layoutName: 'Receipt', productCode: 'lms', bodyComposition: [{ componentId: 'TABLE', options: { maxCount: 5 } }], footerComposition: [{ componentId: 'BUTTON', options: { color: '' } }] },
    });
  });
});
