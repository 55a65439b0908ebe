// The generic live cache: each kind keeps entries in parts of its own, by
// brand (or service-wide), and a file of an older layout is read as empty; a
// secret in what a kind keeps is sealed in the file.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachePart, LiveCache, SERVICE_WIDE } from '../../src/kinds/live-cache.js';
import { cachedDetail, cacheDetail } from '../../src/kinds/auto-reply/cache.js';
import { BIDI_ROOMS } from '../../src/kinds/bidirectional-room/service.js';
import { CHATBOT_ROOMS } from '../../src/kinds/chatbot/service.js';
import { cachedRoom, cacheRoom } from '../../src/kinds/room-cache.js';
import { Redaction } from '../../src/util/redaction.js';
import { liveAutoReply, liveChatbot } from './helpers.js';

const A = cachePart<{ n: number }>('testA');
const B = cachePart<string>('testB');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-live-cache-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the live cache', () => {
  it('keeps each part, brand and service-wide entry apart, across runs', () => {
    const cache = new LiveCache(dir, 'https://one.test');
    cache.set('BR.1', A, 'x', { n: 1 });
    cache.set('BR.1', B, 'x', 'b');
    cache.set('BR.2', A, 'x', { n: 2 });
    cache.set(SERVICE_WIDE, B, 'x', 'wide');
    cache.save();
    expect(readdirSync(dir)).toHaveLength(3);
    const next = new LiveCache(dir, 'https://one.test');
    expect([next.get('BR.1', A, 'x'), next.get('BR.1', B, 'x'), next.get('BR.2', A, 'x'), next.get(SERVICE_WIDE, B, 'x')]).toEqual([{ n: 1 }, 'b', { n: 2 }, 'wide']);
    // Another service's cache is another file.
    expect(new LiveCache(dir, 'https://two.test').get('BR.1', A, 'x')).toBeUndefined();
  });

  it('retains only the kept ids of one part, and serves no inherited property as an entry', () => {
    const cache = new LiveCache(dir, 'https://one.test');
    cache.set('BR.1', A, 'keep', { n: 1 });
    cache.set('BR.1', A, 'gone', { n: 2 });
    cache.set('BR.1', B, 'gone', 'other part');
    cache.retain('BR.1', A, new Set(['keep']));
    expect([cache.get('BR.1', A, 'keep'), cache.get('BR.1', A, 'gone'), cache.get('BR.1', B, 'gone')]).toEqual([{ n: 1 }, undefined, 'other part']);
    expect(cache.get('BR.1', A, 'constructor')).toBeUndefined();
    expect(cache.get('BR.1', B, 'toString')).toBeUndefined();
  });

  it('reads a file of the older layout, or a broken one, as empty', () => {
    const cache = new LiveCache(dir, 'https://one.test');
    cache.set('BR.1', A, 'x', { n: 1 });
    cache.save();
    const [file] = readdirSync(dir);
    writeFileSync(join(dir, file as string), JSON.stringify({ version: 2, entries: { x: { listed: '', detail: {} } }, parts: { testA: { x: { n: 9 } } } }));
    expect(new LiveCache(dir, 'https://one.test').get('BR.1', A, 'x')).toBeUndefined();
    writeFileSync(join(dir, file as string), '{ not json');
    expect(new LiveCache(dir, 'https://one.test').get('BR.1', A, 'x')).toBeUndefined();
  });
});

describe('the kinds\' entries and the run\'s secrets', () => {
  // A secret in a list field: JSON text of the item would escape its quote and backslash, past the sealing.
  const SECRET = 'Se"cr\\et<b>';
  const redaction = (): Redaction => {
    const r = new Redaction();
    r.add([{ name: 'RCS_SECRET', value: SECRET }]);
    return r;
  };
  const files = (): string => readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'seal.key').map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');

  it('seals a secret in the list item an auto-reply detail or a room of either kind is kept for, and serves the entry again to a run that knows it', () => {
    const cache = new LiveCache(dir, 'http://svc', redaction());
    const reply = liveAutoReply('ARM1', { autoReplyMsgName: `Welcome ${SECRET}` });
    cacheDetail(cache, 'BR.x', reply);
    const room = liveChatbot('bot-a', { service: 'chat', subTitle: `Chat ${SECRET}` });
    cacheRoom(cache, BIDI_ROOMS, 'BR.x', room, room);
    const sender = liveChatbot('0212345678', { subTitle: `Shop ${SECRET}` });
    cacheRoom(cache, CHATBOT_ROOMS, 'BR.x', sender, sender);
    cache.save();
    const text = files();
    expect(text).toContain('<sensitive:RCS_SECRET:');
    // As written, escaped once (a JSON string), and twice (a JSON string inside a JSON string).
    const once = JSON.stringify(SECRET).slice(1, -1);
    for (const form of [SECRET, once, JSON.stringify(once).slice(1, -1)]) expect(text).not.toContain(form);
    const again = new LiveCache(dir, 'http://svc', redaction());
    expect(cachedDetail(again, 'BR.x', reply)?.autoReplyMsgName).toBe(`Welcome ${SECRET}`);
    expect(cachedRoom(again, BIDI_ROOMS, 'BR.x', room)?.subTitle).toBe(`Chat ${SECRET}`);
    expect(cachedRoom(again, CHATBOT_ROOMS, 'BR.x', sender)?.subTitle).toBe(`Shop ${SECRET}`);
    // Each room kind's part is its own: a sender-number room is not served as a bidirectional one.
    expect(cachedRoom(again, BIDI_ROOMS, 'BR.x', sender)).toBeUndefined();
  });

  it('serves a room only for exactly the list item it was read with, and only when the detail says it is that room at that updateDate', () => {
    const cache = new LiveCache(dir, 'http://svc');
    const room = liveChatbot('0212345678', { psMenuUse: true });
    cacheRoom(cache, CHATBOT_ROOMS, 'BR.x', room, room);
    expect(cachedRoom(cache, CHATBOT_ROOMS, 'BR.x', room)).toEqual(room);
    // The menu paused (no updateDate moved), the review state or the updateDate changed: read again.
    for (const over of [{ psMenuUse: false }, { approvalResult: '반려' }, { updateDate: '2026-01-02T00:00:00.000+09:00' }]) {
      expect(cachedRoom(cache, CHATBOT_ROOMS, 'BR.x', { ...room, ...over })).toBeUndefined();
    }
    // An entry whose detail names another room, or another version of it (edited by hand): read again.
    cacheRoom(cache, CHATBOT_ROOMS, 'BR.x', room, { ...room, chatbotId: '0298765432' });
    expect(cachedRoom(cache, CHATBOT_ROOMS, 'BR.x', room)).toBeUndefined();
    cacheRoom(cache, CHATBOT_ROOMS, 'BR.x', room, { ...room, updateDate: '2020-01-01T00:00:00.000+09:00' });
    expect(cachedRoom(cache, CHATBOT_ROOMS, 'BR.x', room)).toBeUndefined();
    // An entry of another form (the list item as its JSON text): a miss.
    cache.set('BR.x', CHATBOT_ROOMS, room.chatbotId, { listed: JSON.stringify(room) as never, detail: room });
    expect(cachedRoom(cache, CHATBOT_ROOMS, 'BR.x', room)).toBeUndefined();
  });
});
