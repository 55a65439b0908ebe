import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadSeed, startEmulator } from '../../src/emulator/index.js';
import { defaultSeedPath } from '../../src/util/paths.js';
import { call, start } from './helpers.js';

function io(signal?: AbortSignal) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d.toString()));
  stderr.on('data', (d) => (err += d.toString()));
  return { io: { stdout, stderr, env: {}, cwd: process.cwd(), ...(signal ? { signal } : {}) }, out: () => out, err: () => err };
}

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

describe('rcsctl emulator', () => {
  it('prints "listening on http://HOST:PORT", serves, and stops when the signal aborts', async () => {
    const ac = new AbortController();
    const t = io(ac.signal);
    const run = main(['emulator', '--port', '0', '--latency', '0'], t.io);
    await waitFor(() => t.out().includes('\n'));
    const m = /^listening on (http:\/\/127\.0\.0\.1:(\d+))\n$/.exec(t.out());
    expect(m).not.toBeNull();
    const url = m?.[1] as string;
    const emu = { url, port: Number(m?.[2]) } as never;
    const a = await call(emu, 'GET', '/api/1.1/brand/BR.demo000001/chatbot/0212345678');
    expect(a.body.result[0].subTitle).toBe('Coffee Co');
    ac.abort();
    expect(await run).toBe(0);
    await expect(call(emu, 'GET', '/api/1.1/messagebase/common')).rejects.toThrow();
  });

  it('takes --seed and reports a bad seed naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcsctl-emu-'));
    dirs.push(dir);
    const good = join(dir, 'seed.yaml');
    writeFileSync(good, 'accounts:\n  - { userId: u, role: master, token: tok, brands: [{ brandId: BR.x, role: operator }] }\nbrands:\n  - { brandId: BR.x, brandKey: BK.x, chatbots: [{ chatbotId: "0300000000", subTitle: Mine }] }\n');
    const ac = new AbortController();
    const t = io(ac.signal);
    const run = main(['emulator', '--seed', good], t.io);
    await waitFor(() => t.out().includes('\n'));
    const url = t.out().trim().replace('listening on ', '');
    const a = await call({ url } as never, 'GET', '/api/1.1/brand/BR.x/chatbot', { token: 'tok' });
    expect(a.body.result[0].subTitle).toBe('Mine');
    ac.abort();
    expect(await run).toBe(0);

    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'accounts:\n  - { userId: u, role: boss }\nbrands: []\n');
    const t2 = io();
    expect(await main(['emulator', '--seed', bad], t2.io)).toBe(1);
    expect(t2.err()).toContain('accounts[0].role must be one of "master", "manager", "agency"');
  });

  it('refuses a bad --port', async () => {
    const t = io();
    expect(await main(['emulator', '--port', 'abc'], t.io)).toBe(1);
    expect(t.err()).toContain('--port must be a whole number');
  });
});

describe('seed', () => {
  it('the example seed holds exactly the documented accounts, brand and rooms', () => {
    const seed = loadSeed(defaultSeedPath());
    expect(seed.accounts.map((a) => [a.userId, a.role, a.token, a.clientId ?? null])).toEqual([
      ['master', 'master', 'emulator-master-token', null],
      ['agency', 'agency', 'emulator-agency-token', 'emulator-agency'],
    ]);
    expect(seed.brands).toHaveLength(1);
    const b = seed.brands[0]!;
    expect([b.brandId, b.brandKey, typeof b.templateColor]).toEqual(['BR.demo000001', 'BK.demo0000000001', 'string']);
    expect(b.chatbots?.map((c) => [c.chatbotId, c.approvalResult, c.rcsReply])).toEqual([
      ['0212345678', '승인', '1'],
      ['0298765432', '검수시작', '0'],
    ]);
    expect(b.autoReplies ?? []).toEqual([]);
    expect(b.logos ?? []).toEqual([]);
  });

  it('names the bad field', () => {
    expect(() => loadSeed('accounts: []\nbrands:\n  - { brandId: BR.x }\n')).toThrow('brands[0].brandKey is required');
    expect(() => loadSeed('accounts: {}\n')).toThrow('accounts must be a list');
    expect(() => loadSeed('clock: soon\naccounts: []\n')).toThrow('clock must be a date-time');
    expect(() => loadSeed('/no/such/seed.yaml')).toThrow('cannot read the emulator seed');
  });

  it('seeds every kind: files, logos, auto-replies with states and dates, menus, agency files, a fixed clock', async () => {
    const emu = await startEmulator({
      seed: `
clock: "2026-11-21T10:00:00.000+09"
accounts:
  - { userId: u, role: agency, token: tok, brands: [{ brandId: BR.s, role: operator }] }
brands:
  - brandId: BR.s
    brandKey: BK.s
    templateColor: "#112233"
    files: [{ fileId: ARF-hero, fileName: hero.png, content: aGVsbG8= }]
    logos: [{ name: Main, fileName: logo.png, approvalResult: 반려, approvalReason: blurry }]
    autoReplies:
      - { autoReplyMsgId: ARM-hours, autoReplyMsgName: Hours, messagebaseId: SCwThT00, body: { title: t, description: d, media: ARF-hero }, approvalResult: 처리중, registerDate: "2025-01-01T00:00:00.000+09", updateDate: "2025-02-01T00:00:00.000+09" }
    chatbots:
      - chatbotId: "0300000000"
        subTitle: Seeded
        service: chat
        persistentMenu: [{ type: reply, title: Hours, ordNo: 1, autoReplyMsgId: ARM-hours }]
    agencyFiles: [{ fileId: BR.s.banner, mimeType: image/png, fileName: banner.png, registerDate: "2026-01-01T12:00:00.000+09" }]
`,
    });
    try {
      const h = { token: 'tok', brandKey: 'BK.s' };
      const ar = (await call(emu, 'GET', '/api/1.1/brand/BR.s/autoreplymsg/ARM-hours', h)).body.result[0];
      expect(ar).toMatchObject({ messagebaseId: 'SCwThM00', approvalResult: '처리중', registerDate: '2025-01-01T00:00:00.000+09', updateDate: '2025-02-01T00:00:00.000+09' });
      const file = (await call(emu, 'GET', '/api/1.1/brand/BR.s/autoreplymsg/file/ARF-hero', h)).body.result[0];
      expect(file.fileName).toBe('hero.png');
      expect((await call(emu, 'GET', new URL(file.url).pathname, { token: null })).text).toBe('hello');
      const logo = (await call(emu, 'GET', '/api/1.1/brand/BR.s/logo', h)).body.result[0];
      expect(logo).toMatchObject({ name: 'Main', approvalResult: '반려', approvalReason: 'blurry', fileId: 'BLG-BR.s-aaaa' });
      const room = (await call(emu, 'GET', '/api/1.1/brand/BR.s/bidirectional/chatbot/0300000000', h)).body.result[0];
      expect(room).toMatchObject({ service: 'chat', psMenuUse: true, persistentMenu: [{ type: 'reply', autoReplyMsgId: 'ARM-hours', postbackId: expect.any(String) }] });
      const af = (await call(emu, 'GET', '/ag/1.2/file/BR.s.banner', { token: 'tok' })).body.data.fileInfo;
      expect(af).toMatchObject({ status: 'ready', expiryDate: '2027-01-01T00:00:00.000+09' });
      expect((await call(emu, 'GET', '/api/1.1/messagebase/common')).status).toBe(401);
    } finally {
      await emu.close();
    }
  });

  it('two emulators given the same calls give the same ids', async () => {
    const ids: string[][] = [];
    for (let i = 0; i < 2; i++) {
      const emu = await start();
      try {
        const one: string[] = [];
        for (const name of ['a', 'b']) one.push((await call(emu, 'POST', '/api/1.1/brand/BR.demo000001/autoreplymsg', { json: { autoReplyMsgName: name, messagebaseId: 'SCS00000', body: { description: name } } })).body.result[0].autoReplyMsgId);
        ids.push(one);
      } finally {
        await emu.close();
      }
    }
    expect(ids[0]).toEqual(ids[1]);
  });
});
