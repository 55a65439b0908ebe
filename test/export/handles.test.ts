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
    ['영업시간', 'yeongeopsigan'],
    ['오늘의 메뉴', 'oneurui-menyu'],
    ['Coffee 메뉴 2', 'coffee-menyu-2'],
    ['漢字', ''],
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
        { id: 'ARM3', name: '漢字' },
      ],
      (i) => i.id,
      (i) => i.name,
      'reply',
    );
    expect(Object.fromEntries(handles)).toEqual({ ARM1: 'hours', ARM2: 'hours-2', ARM3: 'reply-arm3' });
  });

  it('romanises Korean names, and numbers the names that romanise alike in id order', () => {
    // 같이 and 가치 are both read "gachi".
    const korean = [
      { id: 'ARM000000000003', name: '가치' },
      { id: 'ARM000000000002', name: '영업 시간' },
      { id: 'ARM000000000001', name: '같이' },
    ];
    const expected = { ARM000000000001: 'gachi', ARM000000000002: 'yeongeop-sigan', ARM000000000003: 'gachi-2' };
    expect(Object.fromEntries(assignHandles(korean, (i) => i.id, (i) => i.name, 'reply'))).toEqual(expected);
    expect(Object.fromEntries(assignHandles([...korean].reverse(), (i) => i.id, (i) => i.name, 'reply'))).toEqual(expected);
  });

  it('gives Korean names valid, different handles whatever the syllables', () => {
    const syllable = fc.integer({ min: 0xac00, max: 0xd7a3 }).map((c) => String.fromCharCode(c));
    const name = fc.array(fc.oneof(syllable, fc.constant(' ')), { maxLength: 30 }).map((a) => a.join(''));
    const list = fc.uniqueArray(fc.record({ id: fc.string({ minLength: 1, maxLength: 12 }), name }), { selector: (i) => i.id, maxLength: 30 });
    fc.assert(
      fc.property(list, (l) => {
        const values = [...assignHandles(l, (i) => i.id, (i) => i.name, 'reply').values()];
        expect(new Set(values).size).toBe(l.length);
        for (const h of values) expect(h).toMatch(HANDLE_PATTERN);
      }),
    );
  });
});
