// List items with an identity (menu item titles, suggestion displayTexts) are
// diffed by identity: removing the middle item is one removal, not a change to
// every later item. Without usable identities, lists compare by position.

import { describe, expect, it } from 'vitest';
import { diffObjects } from '../../src/plan/diff.js';
import { formatChange } from '../../src/render/change.js';

const item = (title: string, extra: Record<string, unknown> = {}) => ({ type: 'reply', title, ...extra });
const lines = (before: unknown, after: unknown) => diffObjects(before, after).map(formatChange);

describe('identity-aware list diff', () => {
  it('removing the middle menu item is one removal', () => {
    const before = { items: [item('Hours'), item('Menu'), item('Find us'), item('Call')] };
    const after = { items: [item('Hours'), item('Find us'), item('Call')] };
    expect(lines(before, after)).toEqual(['- items[1].type: "reply"', '- items[1].title: "Menu"']);
  });

  it('inserting an item is one addition at its new index', () => {
    const before = { items: [item('Hours'), item('Call')] };
    const after = { items: [item('Hours'), item('New'), item('Call')] };
    expect(lines(before, after)).toEqual(['+ items[1].type: "reply"', '+ items[1].title: "New"']);
  });

  it('a change inside a matched item is named at its index in the manifest', () => {
    const before = { items: [item('Hours'), item('Menu', { autoReply: 'A' }), item('Call')] };
    const after = { items: [item('Menu', { autoReply: 'B' }), item('Call')] };
    expect(lines(before, after)).toEqual(['- items[0].type: "reply"', '- items[0].title: "Hours"', '~ items[0].autoReply: "A" → "B"']);
  });

  it('a new order of the same items is one order change', () => {
    const before = { items: [item('Hours'), item('Call')] };
    const after = { items: [item('Call'), item('Hours')] };
    expect(lines(before, after)).toEqual(['~ items order: ["Hours","Call"] → ["Call","Hours"]']);
    expect(diffObjects(before, before)).toEqual([]);
  });

  it('suggestions are matched by their displayText, nested lists included', () => {
    const s = (text: string, url: string) => ({ action: { displayText: text, urlAction: { openUrl: { url } } } });
    const before = { buttons: [{ suggestions: [s('Map', 'https://a'), s('Site', 'https://b'), s('Shop', 'https://c')] }] };
    const after = { buttons: [{ suggestions: [s('Map', 'https://a'), s('Shop', 'https://d')] }] };
    expect(lines(before, after)).toEqual([
      '- buttons[0].suggestions[1].action.displayText: "Site"',
      '- buttons[0].suggestions[1].action.urlAction.openUrl.url: "https://b"',
      '~ buttons[0].suggestions[1].action.urlAction.openUrl.url: "https://c" → "https://d"',
    ]);
  });

  it('falls back to position when two items share an identity or one has none', () => {
    const before = { items: [item('A'), item('A'), item('B')] };
    const after = { items: [item('A'), item('B')] };
    expect(lines(before, after)).toEqual(['~ items[1].title: "A" → "B"', '- items[2].type: "reply"', '- items[2].title: "B"']);
    expect(lines({ xs: [1, 2, 3] }, { xs: [1, 3] })).toEqual(['~ xs[1]: 2 → 3', '- xs[2]: 3']);
  });

  it('a menu item whose title changed is a change of that item, not one removed and another added (issue 38)', () => {
    const before = { items: [item('Hours', { autoReply: 'A' }), item('News', { feedId: 'F1' }), item('Call')] };
    const after = { items: [item('Hours', { autoReply: 'A' }), item('Headlines', { feedId: 'F1' }), item('Call')] };
    expect(lines(before, after)).toEqual(['~ items[1].title: "News" → "Headlines"']);
    // Renamed and changed, with an item inserted before it: still that item's changes, at its place in the manifest.
    const moved = { items: [item('New'), item('Hours', { autoReply: 'A' }), item('Headlines', { feedId: 'F2' }), item('Call')] };
    expect(lines(before, moved)).toEqual(['+ items[0].type: "reply"', '+ items[0].title: "New"', '~ items[2].title: "News" → "Headlines"', '~ items[2].feedId: "F1" → "F2"']);
  });

  it('a renamed chip is a change of its displayText; an item removed at one place and another added elsewhere stay a removal and an addition', () => {
    const s = (text: string, url: string) => ({ action: { displayText: text, urlAction: { openUrl: { url } } } });
    const before = { suggestions: [s('Map', 'https://a'), s('Site', 'https://b')] };
    const after = { suggestions: [s('Map', 'https://a'), s('Our site', 'https://b')] };
    expect(lines(before, after)).toEqual(['~ suggestions[1].action.displayText: "Site" → "Our site"']);
    const b2 = { items: [item('A'), item('B'), item('C')] };
    const a2 = { items: [item('A'), item('C'), item('D')] };
    expect(lines(b2, a2)).toEqual(['- items[1].type: "reply"', '- items[1].title: "B"', '+ items[2].type: "reply"', '+ items[2].title: "D"']);
  });
});
