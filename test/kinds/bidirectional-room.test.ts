// The bidirectional room kind's manifest rules (validate, offline) and its
// pure part: what an entry is by its key, partial management, gates.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bidirectionalRoomKind } from '../../src/kinds/index.js';
import { privilegeKind } from '../../src/kinds/privilege/index.js';
import type { DesiredBidirectionalRoom } from '../../src/kinds/index.js';
import { cli } from '../e2e/helpers.js';
import { liveBrand, liveChatbot, SOURCE } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rcsctl-bidi-kind-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function validate(section: string, chatbots = '  "0212345678": { subTitle: Coffee Co }\n'): Promise<{ code: number; stderr: string }> {
  const file = join(dir, `m${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: BR.demo000001 }\nchatbots:\n${chatbots}bidirectionalRooms:\n${section}`);
  const r = await cli(['validate', file]);
  return { code: r.code, stderr: r.stderr };
}

describe('bidirectionalRooms: validate', () => {
  it('accepts a room with a bidirectional ID and a converted sender-number room', async () => {
    const r = await validate('  bot-coffee: { subTitle: Coffee chat, subNum: "0212345678", display: "11" }\n  "0212345678": { botAgencyId: relay-one }\n');
    expect(r.stderr).not.toMatch(/error RCS/);
    expect(r.code).toBe(0);
  });

  it('names what the service would refuse, at its line', async () => {
    const upper = await validate('  bot-Coffee: { subTitle: Coffee chat, subNum: "0212345678" }\n');
    expect(upper.code).toBe(1);
    expect(upper.stderr).toMatch(/:7:3: error RCS207: bidirectional ID "bot-Coffee" is not one the service keeps: .*write "bot-coffee"/);
    expect((await validate('  bot-has.dot: { subTitle: T, subNum: "0212345678" }\n')).stderr).toContain('error RCS207');
    const missing = await validate('  bot-coffee: { subTitle: Coffee chat }\n');
    expect(missing.stderr).toContain('error RCS202: bidirectional room bot-coffee needs subNum');
    const fields = await validate('  "0212345678": { subTitle: Renamed, botAgencyId: relay-one }\n');
    expect(fields.stderr).toContain('error RCS201: subTitle of sender-number room 0212345678 is the room\'s own: declare it under chatbots.0212345678');
    expect((await validate('  "0212345678": {}\n')).stderr).toContain('error RCS202: converting sender-number room 0212345678 needs botAgencyId');
    const twice = await validate('  bot-coffee: { subTitle: Coffee chat, subNum: "0212345678" }\n', '  bot-coffee: { subTitle: Coffee chat }\n');
    expect(twice.stderr).toContain('error RCS404: room bot-coffee is declared under chatbots: too');
  });
});

const chat = (over: Partial<DesiredBidirectionalRoom> = {}): DesiredBidirectionalRoom => ({ chatbotId: 'bot-coffee', service: 'chat', subTitle: 'Coffee chat', subNum: '0212345678', source: SOURCE, ...over });
const liveChat = (over = {}) => liveChatbot('bot-coffee', { service: 'chat', subNum: '0212345678', subTitle: 'Coffee chat', approvalResult: '승인', ...over });

describe('bidirectional rooms: the pure part', () => {
  it('compares a chat room field by field, keeping the fields the manifest leaves out', () => {
    const l = liveChat({ display: '10', subDescr: 'Live text' });
    expect(bidirectionalRoomKind.diff.normaliseDesired(chat({ subDescr: 'New text' }), {} as never, l)).toEqual({ ...(bidirectionalRoomKind.diff.normaliseLive(l, {} as never) as object), subDescr: 'New text' });
    expect(bidirectionalRoomKind.diff.normaliseDesired(chat({ subDescr: '' }), {} as never, l)).not.toHaveProperty('subDescr');
  });

  it('compares a converted room by its agency link alone', () => {
    const l = liveChatbot('0212345678', { service: 'a2p', botAgencyId: 'relay-one', subTitle: 'Coffee Co' });
    expect(bidirectionalRoomKind.diff.normaliseLive(l, {} as never)).toEqual({ botAgencyId: 'relay-one' });
    expect(bidirectionalRoomKind.diff.normaliseDesired({ chatbotId: '0212345678', service: 'a2p', botAgencyId: 'relay-two', source: SOURCE }, {} as never, l)).toEqual({ botAgencyId: 'relay-two' });
  });

  it('gates: a rename of an approved room is reviewed (the name only), a rejected room requests review, other states block', () => {
    const rename = [{ path: 'subTitle', type: 'change' as const, before: 'a', after: 'b' }];
    const other = [{ path: 'display', type: 'change' as const, before: '01', after: '11' }];
    expect(bidirectionalRoomKind.gates.update(liveChat(), rename, chat())).toMatchObject({ type: 'review', fields: ['subTitle'] });
    expect(bidirectionalRoomKind.gates.update(liveChat(), other, chat())).toEqual({ type: 'none' });
    expect(bidirectionalRoomKind.gates.update(liveChat({ approvalResult: '반려' }), other, chat())).toMatchObject({ type: 'review' });
    for (const state of ['승인대기', '검수시작', '검수완료', '승인대기(수정)', '검수완료(수정)']) {
      expect(bidirectionalRoomKind.gates.update(liveChat({ approvalResult: state }), other, chat())).toMatchObject({ type: 'blocked', state });
    }
    expect(bidirectionalRoomKind.gates.create(chat())).toMatchObject({ type: 'review' });
    expect(bidirectionalRoomKind.gates.delete(liveChat())).toEqual({ type: 'destructive' });
  });

  it('orders a room after the sender-number room it replies from or converts; its live link holds that room', () => {
    expect(bidirectionalRoomKind.after(chat())).toEqual(['chatbot:0212345678']);
    expect(bidirectionalRoomKind.after({ chatbotId: '0298765432', service: 'a2p', botAgencyId: 'x', source: SOURCE })).toEqual(['chatbot:0298765432']);
    expect(bidirectionalRoomKind.liveRefs(liveChat())).toEqual(['chatbot:0212345678']);
  });
});

describe('bidirectional rooms: the doctor check', () => {
  // The service's answers as given (the doctor reads with GETs only); the emulator's own is checked in test/e2e/doctor.test.ts.
  const answers = (bidi: unknown[], rooms: unknown[]) => ({
    get: async (path: string) => ({ status: 200, body: { result: path.endsWith('/bidirectional/chatbot') ? bidi : rooms } }),
    issueToken: () => undefined,
  });
  const env = (bidi: unknown[], rooms: unknown[]) => ({ inspect: answers(bidi, rooms), brand: { id: 'BR.demo000001' }, base: '/api/1.1/brand/BR.demo000001' });
  const chatRoom = { chatbotId: 'bot-coffee', service: 'chat', approvalResult: '승인' };

  it('holds when rooms with a bidirectional ID are only in the bidirectional list', async () => {
    const [check] = await bidirectionalRoomKind.doctor(env([chatRoom], [{ chatbotId: '0212345678', service: 'a2p', approvalResult: '승인' }]));
    expect(check).toMatchObject({ id: 'bidirectional-list', status: 'ok', said: 'HTTP 200, 1 room (1 with a bidirectional ID), none in the sender-number list' });
  });

  it('differs when the sender-number list holds one too (the chatbot kind would see it), or the list is not of rooms', async () => {
    const [both] = await bidirectionalRoomKind.doctor(env([chatRoom], [chatRoom]));
    expect(both).toMatchObject({ status: 'differs', said: expect.stringContaining('1 room with a bidirectional ID also in the sender-number list (bot-coffee)') });
    const [shape] = await bidirectionalRoomKind.doctor(env([{ id: 1 }], []));
    expect(shape).toMatchObject({ status: 'differs', said: 'HTTP 200, not a list of rooms in that shape' });
  });
});

describe("an agency's access while a bidirectional room names it", () => {
  it('reads, on the privilege, the live rooms that name the agency, and blocks its removal with the reason (the service: 64393)', () => {
    const section = { personId: 'boss', entries: [{ privilegeType: 'Manager' as const, id: 'boss', status: 'Ok' as const }, { privilegeType: 'Agency' as const, id: 'relay', status: 'Ok' as const }, { privilegeType: 'Agency' as const, id: 'idle', status: 'Ok' as const }, { privilegeType: 'SubManager' as const, id: 'mgr', status: 'Ok' as const }] };
    const live = { ...liveBrand(), privileges: section, bidirectionalRooms: [liveChatbot('bot-a', { service: 'chat', botAgencyId: 'relay' }), liveChatbot('0212345678', { botAgencyId: 'relay' })] };
    const byKey = new Map(privilegeKind.live(live).map((l) => [l.key, l]));
    expect(byKey.get('relay')?.agencyOf).toEqual(['bot-a', '0212345678']);
    expect(byKey.get('idle')?.agencyOf).toBeUndefined();
    expect(privilegeKind.gates.delete(byKey.get('relay') as never)).toEqual({
      type: 'blocked',
      state: 'bidirectional agency',
      reason: 'relay is the agency of bidirectional rooms bot-a, 0212345678, and the service keeps its access while a room names it (64393): unlink it there first (botAgencyId under bidirectionalRooms:, or remove the room), then a later plan removes its access',
    });
    expect(privilegeKind.gates.delete(byKey.get('idle') as never)).toEqual({ type: 'destructive' });
    // What the plan compares (and a saved plan's staleness check) is not changed by it.
    expect(privilegeKind.diff.normaliseLive(byKey.get('relay') as never, undefined as never)).toEqual({ account: 'relay', role: 'agency' });
  });
});
