// Pagination: 2,500 items in pages of 1000, an empty list as 204 or 60004, and
// a walk that follows pagination.total whatever links say.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/index.js';
import { BRAND, collect, MASTER_TOKEN, OTHER_BRAND, startTestEmulator, testSeed, type TestEmulator } from './helpers.js';
import { sendJson, startScriptedServer } from './scripted-server.js';

let emu: TestEmulator;
beforeAll(async () => {
  const autoReplies = Array.from({ length: 2500 }, (_, i) => ({
    autoReplyMsgName: `Reply ${String(i).padStart(4, '0')}`,
    messagebaseId: 'SCS00000',
    body: { description: `Text ${i}` },
  }));
  emu = await startTestEmulator(testSeed({ autoReplies }));
});
afterAll(async () => {
  await emu.close();
});

describe('pagination', () => {
  it('walks 2,500 auto-replies in three pages of at most 1000', async () => {
    await emu.admin('DELETE', '/requests');
    const client = emu.client();
    const all = await collect(client.autoReplies.list(BRAND));
    expect(all).toHaveLength(2500);
    expect(new Set(all.map((a) => a.autoReplyMsgId)).size).toBe(2500);
    expect(all[0]?.autoReplyMsgName).toBe('Reply 0000');
    expect(all[2499]?.autoReplyMsgName).toBe('Reply 2499');
    const lists = (await emu.requests()).filter((r) => r.method === 'GET' && r.path === `/api/1.1/brand/${BRAND.id}/autoreplymsg`);
    expect(lists).toHaveLength(3);
    expect(client.stats.requests).toBe(3);
  });

  it('stops early when the consumer stops, fetching no further page', async () => {
    const client = emu.client();
    let n = 0;
    for await (const _ of client.autoReplies.list(BRAND)) if (++n === 10) break;
    expect(client.stats.requests).toBe(1);
  });

  it('treats an empty list answered 200, 204 or with code 60004 as empty', async () => {
    const client = emu.client();
    expect(await collect(client.logos.list(OTHER_BRAND))).toEqual([]);
    await emu.admin('POST', '/options', { noContentOnEmptyList: true });
    try {
      expect(await collect(client.logos.list(OTHER_BRAND))).toEqual([]);
      expect(await collect(client.autoReplies.list(OTHER_BRAND))).toEqual([]);
    } finally {
      await emu.admin('POST', '/options', { noContentOnEmptyList: false });
    }

    const server = await startScriptedServer((_req, res) => sendJson(res, 200, { code: '60004', status: 204, desc: 'No Content', result: [] }));
    const odd = createClient({ baseUrl: server.url, credentials: { token: MASTER_TOKEN } });
    try {
      expect(await collect(odd.chatbots.list(BRAND))).toEqual([]);
    } finally {
      await odd.close();
      await server.close();
    }
  });

  it('follows pagination.total and ignores wrong links.prev and links.next', async () => {
    const total = 2500;
    const server = await startScriptedServer((req, res) => {
      const q = new URL(req.url, 'http://x').searchParams;
      const offset = Number(q.get('offset'));
      const limit = Number(q.get('limit'));
      const result = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({
        componentId: `C${offset + i}`,
        componentName: 'c',
        iconImgFileUrl: 'https://example.com/i.png',
        status: 'public',
        headerYn: 'N',
        bodyYn: 'Y',
        footerYn: 'N',
        options: null,
        groupComponentId: null,
      }));
      // Links that lie: prev always null, next always back to the start.
      sendJson(res, 200, { code: '20000000', status: 200, desc: null, result, pagination: { total, offset, limit }, links: { prev: null, next: `${req.url}?offset=0` } });
    });
    const client = createClient({ baseUrl: server.url, credentials: { token: MASTER_TOKEN } });
    try {
      const all = await collect(client.layoutComponents.list());
      expect(all.map((c) => c.componentId)).toEqual(Array.from({ length: total }, (_, i) => `C${i}`));
      expect(server.seen.map((r) => r.url)).toEqual([
        '/api/1.1/baselayout/component?offset=0&limit=1000',
        '/api/1.1/baselayout/component?offset=1000&limit=1000',
        '/api/1.1/baselayout/component?offset=2000&limit=1000',
      ]);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('ends the walk on an empty page even if total says more (a list that shrank)', async () => {
    const server = await startScriptedServer((req, res) => {
      const offset = Number(new URL(req.url, 'http://x').searchParams.get('offset'));
      const result = offset === 0 ? [{ messagebaseId: 'SCS00000' }] : [];
      sendJson(res, 200, { code: '20000000', status: 200, desc: null, result, pagination: { total: 5000, offset, limit: 1000 }, links: { prev: null, next: null } });
    });
    const client = createClient({ baseUrl: server.url, credentials: { token: MASTER_TOKEN } });
    try {
      expect(await collect(client.messagebases.listCommon())).toHaveLength(1);
      expect(server.seen).toHaveLength(2);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
