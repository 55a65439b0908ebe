// The `layouts:` section: layouts by handle; lint refuses duplicate names and
// duplicate pinned layoutIds, and says what the service does with a button
// colour other than the brand's templateColor (colour.ts). What depends on the service's lists (the
// components, the product rules, the samples) is checked when planning
// (rules.ts).

import type { KindManifest } from '../manifest-section.js';
import { declaredTemplateColor, keptColour } from './colour.js';
import { schema } from './schema.js';
import { LAYOUT_AREAS, type DesiredLayout, type DesiredLayoutComponent } from './types.js';

interface RawLayout {
  layoutId?: string;
  layoutName: string;
  productCode: string;
  sampleLayoutId?: string;
  headerComposition?: DesiredLayoutComponent[];
  bodyComposition: DesiredLayoutComponent[];
  footerComposition?: DesiredLayoutComponent[];
}

/** The layouts section. */
export const layoutManifest: KindManifest = {
  section: 'layouts',
  order: 37,
  schema,
  async build(raw, ctx) {
    for (const [handle, l] of Object.entries(raw as Record<string, RawLayout>)) {
      if (!ctx.once(handle, 'RCS403', 'layout handle')) continue;
      const area = (items: DesiredLayoutComponent[] | undefined): DesiredLayoutComponent[] =>
        (items ?? []).map((c) => (c.options === undefined ? { componentId: c.componentId } : { componentId: c.componentId, options: { ...c.options } }));
      const d: DesiredLayout = {
        handle,
        layoutName: l.layoutName,
        productCode: l.productCode,
        headerComposition: area(l.headerComposition),
        bodyComposition: area(l.bodyComposition),
        footerComposition: area(l.footerComposition),
        source: ctx.locationOf(['layouts', handle]),
        locate: (path) => ctx.locationOf(['layouts', handle, ...path]),
        ...(l.layoutId !== undefined ? { layoutId: l.layoutId } : {}),
        ...(l.sampleLayoutId !== undefined ? { sampleLayoutId: l.sampleLayoutId } : {}),
      };
      ctx.add(handle, d);
    }
  },
  lint(ctx) {
    const names = new Map<string, string>();
    const ids = new Map<string, string>();
    for (const [handle, l] of ctx.brand.layouts ?? []) {
      const src = ctx.srcOf(l);
      if (src === undefined) continue;
      const prior = names.get(l.layoutName);
      if (prior !== undefined) ctx.diag(src, 'RCS504', ['layouts', handle, 'layoutName'], `layout name "${l.layoutName}" is also used by "${prior}"; names identify layouts, so they must be unique`);
      else names.set(l.layoutName, handle);
      if (l.layoutId !== undefined) {
        const priorId = ids.get(l.layoutId);
        if (priorId !== undefined) ctx.diag(src, 'RCS509', ['layouts', handle, 'layoutId'], `layoutId ${l.layoutId} is also pinned by "${priorId}"`);
        else ids.set(l.layoutId, handle);
      }
    }
    const template = declaredTemplateColor(ctx.brand);
    if (template === undefined) return;
    for (const [handle, l] of ctx.brand.layouts ?? []) {
      const src = ctx.srcOf(l);
      if (src === undefined) continue;
      for (const area of LAYOUT_AREAS) {
        l[area].forEach((c, i) => {
          const given = c.options?.color;
          if (keptColour(given, template.colour) === given) return;
          ctx.diag(
            src,
            'RCS515',
            ['layouts', handle, area, i, 'options', 'color'],
            `button colour "${String(given)}" is not the brand's templateColor "${template.colour}" (brandProfile.templateColor, ${template.source.file}:${template.source.line}): the service sets a layout button's colour to the templateColor, so this button will be "${template.colour}"; write "${template.colour}", or "" for the default colour`,
          );
        });
      }
    }
  },
};

export { LAYOUT_AREAS };
