// Export's counts: a section of entries counts its entries; a section that is
// one object (a brand's own settings) counts one, not one per field.

import { afterEach, describe, expect, it } from 'vitest';
import { describeCounts, exportedCounts } from '../../src/kinds/counts.js';
import { logoKind, registerKind, unregisterKind } from '../../src/kinds/index.js';
import type { AnyKind } from '../../src/kinds/resource-kind.js';

const single = {
  ...logoKind,
  name: 'settings',
  label: 'setting',
  prune: undefined,
  read: { ...logoKind.read, section: 'settings' },
  manifest: { ...logoKind.manifest, section: 'settings', single: true },
  exporter: { ...logoKind.exporter, section: 'settings' },
} as unknown as AnyKind;

afterEach(() => unregisterKind('settings'));

describe('exportedCounts', () => {
  it('counts entries of a keyed section and one for a single-object section', () => {
    registerKind(single);
    const counts = exportedCounts({ logos: { main: {}, side: {} }, settings: { name: 'x', tel: '1', email: 'a@b.c' } });
    expect(counts.find((c) => c.kind === 'logo')?.count).toBe(2);
    expect(counts.find((c) => c.kind === 'settings')?.count).toBe(1);
    expect(exportedCounts({}).find((c) => c.kind === 'settings')?.count).toBe(0);
  });
});

describe('describeCounts', () => {
  it('says a kind that could not be read was not read, rather than counting it as none', () => {
    const counts = exportedCounts({ logos: { main: {} } }, new Set(['brandProfile']));
    expect(describeCounts(counts)).toMatch(/1 logo, .*brand profile not read/);
    expect(describeCounts(exportedCounts({ logos: { main: {} } }))).toMatch(/1 logo, .*0 brand profiles/);
  });
});
