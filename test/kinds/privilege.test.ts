// The privilege kind's pure part on in-memory objects: the section expanded
// into the representative role and each account's access, the live list read
// the same way (a console request is not access), and the gates that make a
// grant, a removal and the delegation what they are: the delegation behind
// --allow-delegate, the account rcsctl runs as never removed, a request never
// removed, nothing changed by an account that is not the representative.

import { describe, expect, it } from 'vitest';
import { desiredPrivileges, livePrivileges, privilegePlanning, type LivePrivilege } from '../../src/kinds/privilege/kind.js';

const source = { file: 'brand.yaml', line: 4, col: 3, path: '/privileges' };
const section = (personId: string, entries: [string, 'Manager' | 'SubManager' | 'Agency', ('Ok' | 'Processing' | 'Waiting')?][]) => ({
  personId,
  entries: entries.map(([id, privilegeType, status]) => ({ id, privilegeType, status: status ?? 'Ok' })),
});
const byKey = (live: LivePrivilege[], key: string): LivePrivilege => live.find((l) => l.key === key) as LivePrivilege;

describe('privileges, the pure part', () => {
  it('expands the section: the representative role, then each account once (the representative is an operator too)', () => {
    const d = desiredPrivileges({ representative: 'boss', operators: ['mgr', 'boss'], agencies: ['ag1'], source, at: new Map(), account: 'boss' });
    expect(d.map((x) => [x.key, x.account, x.role])).toEqual([
      ['representative', 'boss', 'representative'],
      ['boss', 'boss', 'operator'],
      ['mgr', 'mgr', 'operator'],
      ['ag1', 'ag1', 'agency'],
    ]);
    expect(d[0]?.actAs).toBe('boss');
  });

  it('reads the list the same way; a request waiting is listed but matched as missing, so a grant approves it', () => {
    const live = livePrivileges(section('boss', [['boss', 'Manager'], ['mgr', 'SubManager'], ['kim', 'SubManager', 'Waiting']]));
    expect(live.map((l) => [l.key, l.role, l.status, l.callerRepresents])).toEqual([
      ['boss', 'operator', 'Ok', true],
      ['mgr', 'operator', 'Ok', true],
      ['kim', 'operator', 'Waiting', true],
      ['representative', 'representative', 'Ok', true],
    ]);
    const desired = desiredPrivileges({ representative: 'boss', operators: ['kim'], agencies: [], source, at: new Map() });
    const m = privilegePlanning.diff.match(desired, live, {} as never);
    expect(m.missing.map((d) => d.key)).toEqual(['kim']);
    expect(m.extra.map((l) => l.key)).toEqual(['mgr']);
    expect(livePrivileges({ personId: null, entries: [] })).toEqual([]);
  });

  it('gates: the delegation needs --allow-delegate; rcsctl never removes itself, a request or the representative; a Processing one waits', () => {
    const live = livePrivileges(section('boss', [['boss', 'Manager'], ['mgr', 'SubManager', 'Processing'], ['ag1', 'Agency'], ['kim', 'SubManager', 'Waiting']]));
    const rep = byKey(live, 'representative');
    expect(privilegePlanning.gates.update(rep, [], { key: 'representative', account: 'other', role: 'representative', source })).toEqual({
      type: 'option',
      option: 'allow-delegate',
      reason: 'hands the representative role from boss to other, who may then change who operates the brand (boss stays an operator)',
    });
    expect(privilegePlanning.gates.delete(byKey(live, 'boss'))).toMatchObject({ type: 'blocked', state: 'refused' });
    expect(privilegePlanning.gates.delete(byKey(live, 'kim'))).toMatchObject({ type: 'blocked', state: 'Waiting' });
    expect(privilegePlanning.gates.delete(byKey(live, 'mgr'))).toMatchObject({ type: 'blocked', state: 'Processing' });
    expect(privilegePlanning.gates.delete(byKey(live, 'ag1'))).toEqual({ type: 'destructive' });
    // As an operator, nothing is removed.
    const asMgr = livePrivileges(section('mgr', [['boss', 'Manager'], ['mgr', 'SubManager'], ['ag1', 'Agency']]));
    expect(privilegePlanning.gates.delete(byKey(asMgr, 'ag1'))).toMatchObject({ type: 'blocked', state: 'not representative' });
    // The representative itself, if rcsctl runs as another account, is never removed.
    expect(privilegePlanning.gates.delete(byKey(asMgr, 'boss'))).toMatchObject({ type: 'blocked', state: 'representative' });
  });

  it('words each change for what it is, and adds --allow-delegate to plan and apply', () => {
    expect(privilegePlanning.words).toEqual({
      create: { plan: 'will be granted access', done: 'granted access' },
      update: { plan: 'will be handed the representative role (a delegation)', done: 'handed the representative role' },
      delete: { plan: 'access will be removed', done: 'access removed' },
    });
    expect(privilegePlanning.options.map((o) => o.flag)).toEqual(['allow-delegate']);
  });
});
