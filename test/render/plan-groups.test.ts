// Identical changes across brands (issue 37): the text and Markdown plans show
// steps that several brands make alike once, with the brands, instead of once
// per brand; live ids (which differ from brand to brand) do not keep them
// apart; a brand whose steps differ in any way keeps its own block; the JSON
// plan stays per brand.

import { describe, expect, it } from 'vitest';
import type { BrandPlan, PlanFile } from '../../src/plan/types.js';
import { renderPlans } from '../../src/render/plan-text.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { renderPlanJson } from '../../src/render/plan-json.js';
import { makeStyle } from '../../src/render/style.js';

function brand(n: number, description: string, liveId: string): BrandPlan {
  const step = {
    id: 'autoReply.hours:update',
    op: 'update' as const,
    kind: 'autoReply',
    address: 'autoReply.hours',
    name: 'Opening hours',
    liveId,
    gate: { type: 'none' as const },
    changes: [{ path: 'body.description', type: 'change' as const, before: 'Mon-Fri 9-18', after: description }],
    dependsOn: [],
    request: {},
  };
  const id = `BR.store${String(n).padStart(5, '0')}`;
  return { brandId: id, name: `Store ${n}`, folder: `brands/store-${n}`, steps: [step], unmanaged: [], problems: [], fingerprints: {}, snapshots: {} } as unknown as BrandPlan;
}

const plans = [brand(1, 'Mon-Sat 8-20', 'ARM000000000001'), brand(2, 'Mon-Sat 8-20', 'ARM000000000002'), brand(3, 'Mon-Sun 10-16', 'ARM000000000003'), brand(4, 'Mon-Sat 8-20', 'ARM000000000004')];

describe('identical changes across brands', () => {
  it('text: the same steps once, with the brands that make them; a brand whose steps differ alone', () => {
    const text = renderPlans(plans, makeStyle(false));
    expect(text).toBe(
      [
        'The same change in 3 brands:',
        '  BR.store00001 "Store 1" (brands/store-1)',
        '  BR.store00002 "Store 2" (brands/store-2)',
        '  BR.store00004 "Store 4" (brands/store-4)',
        '',
        '  ~ autoReply.hours "Opening hours"  will be updated',
        '      ~ body.description: "Mon-Fri 9-18" → "Mon-Sat 8-20"',
        '',
        'Plan, in each of the 3 brands: 0 to create, 1 to update, 0 to delete; 0 blocked, 0 need review; 0 unmanaged.',
        '',
        'Brand BR.store00003 "Store 3" (brands/store-3)',
        '',
        '  ~ autoReply.hours "Opening hours" (ARM000000000003)  will be updated',
        '      ~ body.description: "Mon-Fri 9-18" → "Mon-Sun 10-16"',
        '',
        'Plan: 0 to create, 1 to update, 0 to delete; 0 blocked, 0 need review; 0 unmanaged.',
        '',
        'Total for 4 brands: 0 to create, 4 to update, 0 to delete; 0 blocked, 0 need review; 0 unmanaged.',
        '',
      ].join('\n'),
    );
  });

  it('Markdown: one block for the three, listing them; every brand keeps its table row', () => {
    const md = renderPlanMarkdown(plans, { rcsctlVersion: 'test' });
    expect(md).toContain('<details><summary>The same change in 3 brands: 1 to update in each</summary>');
    expect(md).toContain('**In:** `BR.store00001` Store 1 (brands/store-1), `BR.store00002` Store 2 (brands/store-2), `BR.store00004` Store 4 (brands/store-4)');
    expect(md).toContain('<details><summary><code>BR.store00003</code> Store 3 (brands/store-3): 1 to update</summary>');
    expect(md.match(/^# autoReply\.hours \(update\)$/gm)).toHaveLength(2);
    for (const p of plans) expect(md).toContain(`| \`${p.brandId}\` ${p.name} (${p.folder}) | 0 | 1 | 0 |`);
  });

  it('JSON: per brand, each with its name and folder', () => {
    const file = { version: 3, rcsctlVersion: 'test', createdAt: '2026-01-01T00:00:00Z', baseUrl: 'http://127.0.0.1', brands: plans } as PlanFile;
    const json = JSON.parse(renderPlanJson(file)) as { brands: { brandId: string; name: string; folder: string }[] };
    expect(json.brands.map((b) => [b.brandId, b.name, b.folder])).toEqual(plans.map((p) => [p.brandId, p.name, p.folder]));
  });
});
