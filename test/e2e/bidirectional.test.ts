// Bidirectional rooms end to end, through the CLI against the emulator over
// HTTP: apply registers a room with a bidirectional ID and converts a
// sender-number room, then plans nothing; drift reports the review, a console
// change and a room made in the console; export writes them back and a plan of
// the export is empty; removing a conversion unlinks the agency and never
// deletes the sender-number room, even when the link is already gone; a warm
// plan takes the rooms' details from the live cache, and still sees a console change.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { bidirectionalRoomKind } from '../../src/kinds/index.js';
import type { DeleteStep } from '../../src/core/step.js';
import type { DriftReport } from '../../src/report/types.js';
import { admin, BRAND, clientFor, cli, emulator, ROOT } from './helpers.js';

const CASE = join(ROOT, 'test', 'plan-cases', '048-bidirectional-from-nothing');

let emu: RunningEmulator;
let tmp: string;

beforeEach(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'rcsctl-bidi-'));
  cpSync(CASE, join(tmp, 'brand'), { recursive: true });
  emu = await emulator(join(CASE, 'seed.yaml'));
});
afterEach(async () => {
  await emu.close();
  rmSync(tmp, { recursive: true, force: true });
});

const manifest = (): string => join(tmp, 'brand', 'manifest.yaml');
const room = (id: string) => emu.store.brands.get(BRAND)?.chatbots.get(id);
const api = async (method: string, path: string, json?: unknown): Promise<{ status: number; body: any }> => {
  const res = await fetch(`${emu.url}/api/1.1/brand/${BRAND}${path}`, {
    method,
    headers: { authorization: 'Bearer emulator-master-token', ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
  });
  return { status: res.status, body: await res.json() };
};
const drift = async (): Promise<{ code: number; report: DriftReport }> => {
  const r = await cli(['drift', manifest(), '--format', 'json'], { emu });
  return { code: r.code, report: JSON.parse(r.stdout) as DriftReport };
};
const findingsOf = (report: DriftReport, address: string): string[] => report.brands[0]?.resources.find((r) => r.address === address)?.findings.map((f) => f.code) ?? [];

describe('bidirectional rooms end to end', () => {
  it('apply, then nothing to plan; drift: the review, a console change, a room made in the console; export round trip', async () => {
    const applied = await cli(['apply', manifest(), '--yes', '--allow-review'], { emu });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('✓ bidirectionalRoom.bot-coffee: created (bot-coffee)');
    expect(room('bot-coffee')).toMatchObject({ service: 'chat', subNum: '0212345678', approvalResult: '승인대기', botAgencyId: 'relay-one', rcsReply: '1' });
    expect(room('0298765432')).toMatchObject({ service: 'a2p', botAgencyId: 'relay-two', approvalResult: '승인', subTitle: 'Coffee Co Events' });
    expect((await cli(['plan', manifest(), '--detailed-exitcode'], { emu })).code).toBe(0);

    // Waiting for review: a finding, not a difference.
    const waiting = await drift();
    expect(waiting.code).toBe(0);
    expect(findingsOf(waiting.report, 'bidirectionalRoom.bot-coffee')).toEqual(['BIDI_ROOM_REVIEW_PENDING']);
    await admin(emu, 'POST', 'review', { kind: 'chatbot', brandId: BRAND, id: 'bot-coffee', action: 'complete' });

    // The console: a managed field of the room changed (display is not managed: the manifest leaves it out), and a room made there.
    expect((await api('PUT', '/bidirectional/chatbot/bot-coffee', { chatbot: { display: '00', subDescr: 'Changed in the console' } })).status).toBe(200);
    expect((await api('POST', '/bidirectional/chatbot', { chatbot: { chatbotId: 'bot-console', service: 'chat', subTitle: 'Console room', subNum: '0212345678', inputField: 1 } })).status).toBe(200);
    const edited = await drift();
    expect(edited.code).toBe(2);
    expect(findingsOf(edited.report, 'bidirectionalRoom.bot-coffee')).toEqual(['DRIFT_CHANGED']);
    expect(edited.report.brands[0]?.resources.find((r) => r.address === 'bidirectionalRoom.bot-coffee')?.findings[0]?.changes).toEqual([{ path: 'subDescr', type: 'change', before: 'Changed in the console', after: 'Order ahead and ask us anything' }]);
    expect(findingsOf(edited.report, 'bidirectionalRoom.bot-console')).toEqual(['DRIFT_UNMANAGED', 'BIDI_ROOM_REVIEW_PENDING']);

    // Export writes every room back; the export plans nothing.
    const out = join(tmp, 'export');
    const exp = await cli(['export', '--brand', BRAND, '--out', out], { emu });
    expect(exp.code, exp.stderr).toBe(0);
    expect(exp.stdout).toContain(', 2 rooms, 3 bidirectional rooms, ');
    const written = parse(readFileSync(join(out, 'brand.yaml'), 'utf8')) as { bidirectionalRooms: Record<string, unknown> };
    expect(written.bidirectionalRooms).toEqual({
      '0298765432': { botAgencyId: 'relay-two' },
      'bot-coffee': { subTitle: 'Coffee chat', subNum: '0212345678', display: '00', inputField: 1, subDescr: 'Changed in the console', saftyStatusYn: 'Y', botAgencyId: 'relay-one' },
      'bot-console': { subTitle: 'Console room', subNum: '0212345678', display: '01', inputField: 1, saftyStatusYn: 'Y' },
    });
    const again = await cli(['plan', out, '--detailed-exitcode'], { emu });
    expect(again.code, again.stdout + again.stderr).toBe(0);

    // Pruned: the console room is deleted and the conversion removed; the sender-number room stays.
    writeFileSync(manifest(), `${readFileSync(manifest(), 'utf8').replace('bidirectionalRooms:\n', 'prune: [bidirectionalRooms]\nbidirectionalRooms:\n').replace(/  "0298765432":\n    botAgencyId: relay-two\n/, '')}`);
    const pruned = await cli(['apply', manifest(), '--yes', '--allow-delete', '--allow-review'], { emu });
    expect(pruned.code, pruned.stdout + pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain('bidirectionalRoom.0298765432 "Coffee Co Events"  will be removed');
    expect(room('bot-console')).toBeUndefined();
    expect(room('0298765432')).toMatchObject({ service: 'a2p', botAgencyId: null, approvalResult: '승인' });
    // The console change is set back (no review: only a name is reviewed).
    expect(room('bot-coffee')).toMatchObject({ subDescr: 'Order ahead and ask us anything', display: '00', approvalResult: '승인' });
    expect((await cli(['plan', manifest(), '--detailed-exitcode'], { emu })).code).toBe(0);
  });

  it('a warm plan reads the bidirectional list alone: each room comes from the live cache while its list item holds; a console change is read again and shown', async () => {
    const env = { XDG_CACHE_HOME: join(tmp, 'cache') };
    const detailReads = async (): Promise<string[]> => {
      const log = (await admin(emu, 'GET', 'requests')) as { requests: { method: string; path: string }[] };
      await admin(emu, 'DELETE', 'requests');
      return log.requests.filter((r) => r.method === 'GET' && /\/bidirectional\/chatbot\/[^/]+$/.test(r.path)).map((r) => r.path.slice(r.path.lastIndexOf('/') + 1));
    };
    expect((await cli(['apply', manifest(), '--yes', '--allow-review'], { emu, env })).code).toBe(0);
    await admin(emu, 'POST', 'review', { kind: 'chatbot', brandId: BRAND, id: 'bot-coffee', action: 'complete' });
    await detailReads();
    // The apply and the review changed both rooms: the first plan reads them, and keeps them.
    expect((await cli(['plan', manifest(), '--detailed-exitcode'], { emu, env })).code).toBe(0);
    expect((await detailReads()).sort()).toEqual(['0298765432', 'bot-coffee']);
    expect((await cli(['plan', manifest(), '--detailed-exitcode'], { emu, env })).code).toBe(0);
    expect(await detailReads()).toEqual([]);
    // A change made in the console moves the room's list item: that room is read again, and the plan shows the change.
    expect((await api('PUT', '/bidirectional/chatbot/bot-coffee', { chatbot: { subDescr: 'Changed in the console' } })).status).toBe(200);
    await detailReads();
    const plan = await cli(['plan', manifest()], { emu, env });
    expect(plan.stdout).toContain('~ bidirectionalRoom.bot-coffee "Coffee chat"  will be updated');
    expect(plan.stdout).toContain('~ subDescr: "Changed in the console" → "Order ahead and ask us anything"');
    expect(await detailReads()).toEqual(['bot-coffee']);
  });

  it('removing a conversion whose agency was already unlinked leaves the sender-number room alone (a DELETE would delete it)', async () => {
    expect((await cli(['apply', manifest(), '--yes', '--allow-review'], { emu })).code).toBe(0);
    // Unlinked in the console after the plan was made.
    expect((await api('PUT', '/bidirectional/chatbot/0298765432', { chatbot: { botAgencyId: '' } })).status).toBe(200);
    const step: DeleteStep = { id: 'bidirectionalRoom.0298765432:delete', kind: 'bidirectionalRoom', address: 'bidirectionalRoom.0298765432', name: 'Coffee Co Events', op: 'delete', liveId: '0298765432', gate: { type: 'destructive' }, changes: [], dependsOn: [] };
    const handler = bidirectionalRoomKind.handlers.delete;
    await handler?.(step, { client: clientFor(emu), brand: { id: BRAND }, ids: new Map(), uploads: new Map() });
    expect(room('0298765432')).toMatchObject({ service: 'a2p', botAgencyId: null, subTitle: 'Coffee Co Events' });
  });
});
