// The live cache through the CLI: on by default in the per-user cache directory
// ($XDG_CACHE_HOME/rcsctl, else ~/.cache/rcsctl), used by plan and by apply, off
// with --no-cache. A warm plan reads no sender-number room's detail either;
// a room or a menu changed in the console is read again.

import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { cacheDirFor } from '../../src/util/cache-dir.js';
import { admin, BRAND, cli, clientFor, emulator, ROOT } from './helpers.js';

const CASE = join(ROOT, 'test', 'plan-cases', '026-example-brand-after-apply');
const MANIFESTS = join(CASE, 'manifests');

let emu: RunningEmulator;
let home: string;
beforeAll(async () => {
  emu = await emulator(join(CASE, 'seed.yaml'));
  home = mkdtempSync(join(tmpdir(), 'rcsctl-cache-home-'));
});
afterAll(async () => {
  await emu.close();
  rmSync(home, { recursive: true, force: true });
});

const detailReads = async (on: RunningEmulator = emu): Promise<number> => {
  const log = (await admin(on, 'GET', 'requests')) as { requests: { method: string; path: string }[] };
  await admin(on, 'DELETE', 'requests');
  return log.requests.filter((r) => r.method === 'GET' && /\/autoreplymsg\/ARM/.test(r.path)).length;
};

describe('the live cache from the CLI', () => {
  it('is kept under $XDG_CACHE_HOME/rcsctl by default; a repeat plan and a no-op apply read no auto-reply detail', async () => {
    const env = { XDG_CACHE_HOME: join(home, 'xdg') };
    await admin(emu, 'DELETE', 'requests');
    expect((await cli(['plan', MANIFESTS], { emu, env })).code).toBe(0);
    expect(await detailReads()).toBe(6);
    // One live-cache file for the brand, and the parsed manifests (src/manifest/parse-cache.ts).
    expect(readdirSync(join(home, 'xdg', 'rcsctl')).sort()).toEqual([expect.stringMatching(/^[0-9a-f]{24}\.json$/), 'manifests']);
    expect(readdirSync(join(home, 'xdg', 'rcsctl', 'manifests'))).toHaveLength(1);
    expect((await cli(['plan', MANIFESTS], { emu, env })).code).toBe(0);
    expect(await detailReads()).toBe(0);
    const noop = await cli(['apply', '--yes', MANIFESTS], { emu, env });
    expect(noop.stdout).toContain('Nothing to apply');
    expect(await detailReads()).toBe(0);
  });

  it('--no-cache reads every detail and writes nothing', async () => {
    const env = { XDG_CACHE_HOME: join(home, 'none') };
    expect((await cli(['plan', '--no-cache', MANIFESTS], { emu, env })).code).toBe(0);
    expect(await detailReads()).toBe(6);
    expect(() => readdirSync(join(home, 'none'))).toThrow();
  });

  it('finds its directory: the flag, RCSCTL_CACHE_DIR, XDG_CACHE_HOME, then HOME', () => {
    expect(cacheDirFor({ cacheDir: 'c' }, { RCSCTL_CACHE_DIR: '/x' }, '/w')).toBe('/w/c');
    expect(cacheDirFor({}, { RCSCTL_CACHE_DIR: 'rel', XDG_CACHE_HOME: '/xdg' }, '/w')).toBe('/w/rel');
    expect(cacheDirFor({}, { XDG_CACHE_HOME: '/xdg', HOME: '/h' }, '/w')).toBe('/xdg/rcsctl');
    expect(cacheDirFor({}, { XDG_CACHE_HOME: 'relative', HOME: '/h' }, '/w')).toBe('/h/.cache/rcsctl');
    expect(cacheDirFor({ cache: false, cacheDir: 'c' }, { HOME: '/h' }, '/w')).toBeUndefined();
    // An environment that names no home (as tests pass to the in-process CLI) keeps no cache.
    expect(cacheDirFor({}, {}, '/w')).toBeUndefined();
  });

  it('keeps what an apply created, so the no-op apply right after reads no detail; a later change by someone else is still read and shown', async () => {
    const own = await emulator(join(CASE, 'seed.yaml'));
    const dir = mkdtempSync(join(tmpdir(), 'rcsctl-cache-creates-'));
    try {
      const env = { XDG_CACHE_HOME: join(home, 'creates') };
      cpSync(MANIFESTS, dir, { recursive: true });
      const more = ['one', 'two', 'three'].map((h) => `  cache-${h}:\n    name: Cached ${h}\n    messagebaseId: SCS00000\n    body: { description: "Created ${h}" }\n    chipList: [{ action: { displayText: Web, urlAction: { openUrl: { url: "https://example.com/${h}" } } } }]\n`);
      // One with an image (a file the other document declares), a call button and copyAllowed left out.
      more.push('  cache-image:\n    name: Cached image\n    messagebaseId: SCwThM00\n    body: { title: Shop, description: "With a picture", media: { file: hero } }\n    buttons:\n      - suggestions: [{ action: { displayText: Call, dialerAction: { dialPhoneNumber: { phoneNumber: "0212345678" } } } }]\n');
      writeFileSync(join(dir, 'more.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand:\n  id: ${BRAND}\nautoReplies:\n${more.join('')}`);
      const created = await cli(['apply', '--yes', dir], { emu: own, env });
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout).toContain('Apply complete');
      expect(created.stdout).toContain('autoReply.cache-image');
      // The plan read the six auto-replies there were; verification read none of the four it created.
      expect(await detailReads(own)).toBe(6);

      const noop = await cli(['apply', '--yes', dir], { emu: own, env });
      expect(noop.stdout).toContain('Nothing to apply');
      expect(await detailReads(own)).toBe(0);

      // Someone else writes over one of them: its list item moves, so the cache no longer serves it.
      const client = clientFor(own);
      try {
        let id: string | undefined;
        for await (const a of client.autoReplies.list({ id: BRAND })) if (a.autoReplyMsgName === 'Cached two') id = a.autoReplyMsgId;
        await client.autoReplies.update({ id: BRAND }, id as string, { autoReplyMsgName: 'Cached two', messagebaseId: 'SCS00000', body: { description: 'Changed by someone else' } });
      } finally {
        await client.close();
      }
      await detailReads(own);
      const plan = await cli(['plan', dir], { emu: own, env });
      expect(plan.stdout).toContain('autoReply.cache-two');
      expect(plan.stdout).toContain('Changed by someone else');
      expect(plan.stdout).not.toContain('autoReply.cache-one');
      expect(await detailReads(own)).toBe(1);
    } finally {
      await own.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('a warm plan reads the room list alone: each sender-number room comes from the live cache while its list item holds; a console change to a room or to its menu is read again and shown', async () => {
    const own = await emulator(join(CASE, 'seed.yaml'));
    const env = { XDG_CACHE_HOME: join(home, 'rooms') };
    const client = clientFor(own);
    const roomReads = async (): Promise<string[]> => {
      const log = (await admin(own, 'GET', 'requests')) as { requests: { method: string; path: string }[] };
      await admin(own, 'DELETE', 'requests');
      return log.requests.filter((r) => r.method === 'GET' && /\/brand\/[^/]+\/chatbot\/[^/]+$/.test(r.path)).map((r) => r.path.slice(r.path.lastIndexOf('/') + 1)).sort();
    };
    try {
      await roomReads();
      expect((await cli(['plan', MANIFESTS, '--detailed-exitcode'], { emu: own, env })).code).toBe(0);
      expect(await roomReads()).toEqual(['0212345678', '0298765432']);
      expect((await cli(['plan', MANIFESTS, '--detailed-exitcode'], { emu: own, env })).code).toBe(0);
      expect(await roomReads()).toEqual([]);
      // A room changed in the console: its list item moves, so that room alone is read again.
      await client.chatbots.update({ id: BRAND }, '0212345678', { mdn: '0212345678', subTitle: 'Coffee Co', subDescr: 'Changed in the console' });
      await roomReads();
      const changed = await cli(['plan', MANIFESTS], { emu: own, env });
      expect(changed.stdout).toContain('~ subDescr: "Changed in the console" → "Fresh coffee daily"');
      expect(await roomReads()).toEqual(['0212345678']);
      // Its menu removed in the console: the room's detail (the menu in it) is read again, and the menu is to be made again.
      await client.menus.delete({ id: BRAND }, '0212345678');
      await roomReads();
      const menu = await cli(['plan', MANIFESTS], { emu: own, env });
      expect(menu.stdout).toContain('+ persistentMenu.0212345678');
      expect(menu.stdout).toContain('will be created');
      expect(await roomReads()).toEqual(['0212345678']);
    } finally {
      await client.close();
      await own.close();
    }
  });
});
