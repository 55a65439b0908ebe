// Handles derived from names: slugged to the manifest's handle pattern,
// unique, and stable whatever order the service lists things in.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignHandles, HANDLE_PATTERN, slug } from '../../src/kinds/handles.js';

describe('slug', () => {
  it.each([
    ['Opening hours', 'opening-hours'],
    ["Today's menu", 'todays-menu'],
    ['Ünïcödé café', 'unicode-cafe'],
    ['2024 sale', 'sale'],
    ['영업시간', ''],
    ['--Promo #1--', 'promo-1'],
  ])('%s → %s', (name, expected) => {
    expect(slug(name)).toBe(expected);
  });
});

describe('assignHandles', () => {
  const item = fc.record({ id: fc.string({ minLength: 1, maxLength: 12 }), name: fc.string({ maxLength: 80 }) });
  const items = fc.uniqueArray(item, { selector: (i) => i.id, maxLength: 40 });

  it('gives every item a valid handle of at most 64 characters, all different', () => {
    fc.assert(
      fc.property(items, (list) => {
        const handles = assignHandles(list, (i) => i.id, (i) => i.name, 'reply');
        expect(handles.size).toBe(list.length);
        const values = [...handles.values()];
        expect(new Set(values).size).toBe(values.length);
        for (const h of values) {
          expect(h).toMatch(HANDLE_PATTERN);
          expect(h.length).toBeLessThanOrEqual(64);
        }
      }),
    );
  });

  it('does not depend on the order items come in', () => {
    fc.assert(
      fc.property(items, fc.integer(), (list, seed) => {
        const shuffled = [...list].sort((a, b) => ((a.id.length * 31 + seed) % 7) - ((b.id.length * 31 + seed) % 7));
        const a = assignHandles(list, (i) => i.id, (i) => i.name, 'reply');
        const b = assignHandles(shuffled, (i) => i.id, (i) => i.name, 'reply');
        expect([...b.entries()].sort()).toEqual([...a.entries()].sort());
      }),
    );
  });

  it('numbers clashes in id order and falls back to the id for names with no usable letters', () => {
    const handles = assignHandles(
      [
        { id: 'ARM2', name: 'Hours' },
        { id: 'ARM1', name: 'hours!' },
        { id: 'ARM3', name: '안내' },
      ],
      (i) => i.id,
      (i) => i.name,
      'reply',
    );
    expect(Object.fromEntries(handles)).toEqual({ ARM1: 'hours', ARM2: 'hours-2', ARM3: 'reply-arm3' });
  });
});
