// Privileges, the pure part. The section is one object; the kind plans it as
// one desired object per account with access (keyed by the account) and one
// for the representative role (`privilege.representative`). So each change is
// a step of its own, shown for what it is: a grant (create), a removal
// (delete, a prune) and the representative's delegation (the one update).
// Every change needs the representative's account: rcsctl running as another
// is blocked, as is a change to an account whose privilege is Processing;
// removing the account rcsctl runs as is refused, as is removing an agency a
// bidirectional room names (blocked until the room is unlinked); a delegation is refused
// unless the run sets --allow-delegate, and waits for a plan of its own.

import { ERRORS } from '../../contract/codes.js';
import type { PrivilegeInfo, RegPrivilegeInfo } from '../../contract/wire.js';
import { NO_GATE, type FieldChange, type Gate } from '../../core/step.js';
import { liveSection, type LiveBrand } from '../../core/live.js';
import type { DesiredBrand } from '../../manifest/types.js';
import { roomsOfAgency } from '../bidirectional-room/kind.js';
import type { Drawn, KindPlanning, MatchResult, Optioned, Worded } from '../resource-kind.js';
import { REPRESENTATIVE_KEY, type AccessRole, type DesiredPrivilege, type DesiredPrivileges } from './types.js';

/** The flag that lifts the delegation's gate. */
export const DELEGATE_FLAG = 'allow-delegate';

/** The privilege list as read, with the account it was read as. */
export interface LivePrivilegeSection {
  /** The account (personId) rcsctl read and changes privileges as; null when there is none. */
  personId: string | null;
  entries: PrivilegeInfo[];
  /** Set when nothing was read, and why. */
  unread?: string;
}

/** One live object: an account's access (or request), or the representative role. */
export interface LivePrivilege {
  key: string;
  account: string;
  role: AccessRole | 'representative';
  type: PrivilegeInfo['privilegeType'];
  status: string;
  /** The account rcsctl runs as, and whether it is the brand's representative (only it may change privileges). */
  caller: string;
  callerRepresents: boolean;
  /** An agency's: the live bidirectional rooms that name it as their agency (the service will not remove its access meanwhile: 64393). */
  agencyOf?: string[];
}

/** What a step sends: the account it acts as, and the grant, the new representative or the account removed. */
export interface PrivilegeRequest {
  personId: string;
  grant?: RegPrivilegeInfo;
  delegateTo?: string;
}

/** The section's live objects: every entry's access (a Waiting request included), and the representative role. */
export function livePrivileges(section: LivePrivilegeSection | undefined): LivePrivilege[] {
  if (section === undefined || section.personId === null || section.unread !== undefined) return [];
  const caller = section.personId;
  const representative = section.entries.find((e) => e.privilegeType === 'Manager' && e.status !== 'Waiting')?.id;
  const base = { caller, callerRepresents: representative === caller };
  const out: LivePrivilege[] = section.entries.map((e) => ({ key: e.id, account: e.id, role: e.privilegeType === 'Agency' ? 'agency' : 'operator', type: e.privilegeType, status: e.status, ...base }));
  const manager = section.entries.find((e) => e.id === representative);
  if (manager !== undefined) out.push({ key: REPRESENTATIVE_KEY, account: manager.id, role: 'representative', type: 'Manager', status: manager.status, ...base });
  return out;
}

/** The desired objects of the section as written: the representative role, then each account's access (the representative's first). */
export function desiredPrivileges(p: DesiredPrivileges | undefined): DesiredPrivilege[] {
  if (p === undefined) return [];
  const at = (id: string) => p.at.get(id) ?? p.source;
  const out: DesiredPrivilege[] = [{ key: REPRESENTATIVE_KEY, account: p.representative, role: 'representative', source: at(p.representative), ...(p.account !== undefined ? { actAs: p.account } : {}) }];
  const seen = new Set<string>();
  for (const [id, role] of [[p.representative, 'operator'], ...p.operators.map((o) => [o, 'operator']), ...p.agencies.map((a) => [a, 'agency'])] as [string, AccessRole][]) {
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ key: id, account: id, role, source: at(id) });
  }
  return out;
}

/** How plans name one: the account, with its role (`mgr (operator)`), or the account holding the representative role. */
function nameOf(x: { account: string; role: AccessRole | 'representative' }): string {
  return x.role === 'representative' ? x.account : `${x.account} (${x.role})`;
}

const sectionOf = (live: LiveBrand): LivePrivilegeSection | undefined => liveSection(live, 'privileges') as LivePrivilegeSection | undefined;
const roleName = (role: AccessRole | 'representative'): string => (role === 'agency' ? 'an agency' : role === 'operator' ? 'an operator' : 'the representative');

/** Why no change can be sent now, whatever it is: rcsctl is not the representative, or the account's privilege is still Processing. */
function blockedFor(l: { callerRepresents: boolean; caller: string; status: string; account: string } | undefined, section: LivePrivilegeSection | undefined): Gate | undefined {
  const caller = l?.caller ?? section?.personId ?? undefined;
  const represents = l?.callerRepresents ?? (caller !== undefined && section?.entries.some((e) => e.id === caller && e.privilegeType === 'Manager') === true);
  if (caller !== undefined && !represents) {
    return { type: 'blocked', state: 'not representative', reason: `rcsctl runs as ${caller}, which is not the brand's representative: only the representative may change who operates the brand (set privileges.account or RCSCTL_PERSON_ID to the representative)` };
  }
  if (l !== undefined && l.status === 'Processing') return { type: 'blocked', state: 'Processing', reason: `the privilege of ${l.account} is being passed on to the carriers; run again once it is Ok` };
  return undefined;
}

/** The privileges kind's pure part. */
export const privilegePlanning: KindPlanning<DesiredPrivilege, LivePrivilege, 'privilege'> & Drawn<DesiredPrivilege> & Worded & Optioned = {
  name: 'privilege',
  label: 'privilege',
  words: {
    create: { plan: 'will be granted access', done: 'granted access' },
    update: { plan: 'will be handed the representative role (a delegation)', done: 'handed the representative role' },
    delete: { plan: 'access will be removed', done: 'access removed' },
  },
  options: [{ flag: DELEGATE_FLAG, description: "run the step that hands the brand's representative role to another master (privileges.representative; refused without it)" }],
  drawing: {
    colour: ['#e8e0ff', '#4b2a8a'],
    name: (d) => d.account,
    details: (d) => [d.role === 'representative' ? 'representative role' : d.role],
    links: (d) => (d.role === 'representative' ? [{ to: `privilege.${d.account}`, label: 'held by' }] : []),
  },

  desired: (brand: DesiredBrand) => [...(brand.privileges?.values() ?? [])],
  live: (live) => livePrivileges(sectionOf(live)).map((l) => withRooms(l, live)),
  identity: {
    key: (d) => d.key,
    desiredName: (d) => nameOf(d),
    liveId: (l) => l.key,
    liveName: (l) => nameOf(l),
    liveState: (l) => l.status,
  },

  diff: {
    match(desired, live): MatchResult<DesiredPrivilege, LivePrivilege> {
      // A brand always has its representative: no live entry at all is a list not read (privilegeProblems says why), not accounts to grant.
      if (live.length === 0) return { pairs: [], missing: [], extra: [], problems: [] };
      const byKey = new Map(live.map((l) => [l.key, l]));
      const pairs: [DesiredPrivilege, LivePrivilege][] = [];
      const missing: DesiredPrivilege[] = [];
      const claimed = new Set<string>();
      for (const d of desired) {
        const l = byKey.get(d.key);
        // A request waiting in the console is not access yet: a grant approves it.
        if (l === undefined || l.status === 'Waiting') missing.push(d);
        else pairs.push([d, l]);
        if (l !== undefined) claimed.add(l.key);
      }
      return { pairs, missing, extra: live.filter((l) => !claimed.has(l.key)), problems: [] };
    },

    normaliseLive: (l) => (l.role === 'representative' ? { account: l.account } : { account: l.account, role: l.role }),
    normaliseDesired: (d) => (d.role === 'representative' ? { account: d.account } : { account: d.account, role: d.role }),

    createStep(d, ctx, seed) {
      const section = sectionOf(ctx.live);
      if (section?.personId === null || section?.personId === undefined || d.role === 'representative') return undefined;
      const desiredRep = ctx.brand.privileges?.get(REPRESENTATIVE_KEY)?.account;
      const liveRep = livePrivileges(section).find((l) => l.key === REPRESENTATIVE_KEY)?.account;
      // The new representative gets access by the delegation itself.
      if (d.account === desiredRep && liveRep !== d.account) return undefined;
      const request: PrivilegeRequest = { personId: section.personId, grant: { privilegeType: d.role === 'agency' ? 'Agency' : 'SubManager', id: d.account } };
      return { ...seed, gate: blockedFor(undefined, section) ?? seed.gate, op: 'create', request, readAs: section.personId };
    },
    updateStep(d, l, ctx, seed) {
      if (d.role !== 'representative' || l.role !== 'representative') {
        const gate: Gate = { type: 'blocked', state: 'role', reason: `the service decides an account's role by the account: ${l.account} is ${roleName(l.role)} there; list it where it belongs` };
        return { ...seed, gate, op: 'update', liveId: l.key, request: { personId: l.caller } };
      }
      const request: PrivilegeRequest = { personId: l.caller, delegateTo: d.account };
      const target = livePrivileges(sectionOf(ctx.live)).find((x) => x.key === d.account);
      const others = otherChanges(ctx.brand, ctx.live);
      const gate: Gate =
        blockedFor(l, sectionOf(ctx.live)) ??
        blockedFor(target, undefined) ??
        (others.length > 0
          ? { type: 'blocked', state: 'one change at a time', reason: `this plan also changes ${others.join(', ')}, which only the representative may do: apply those first, then the delegation in a plan of its own` }
          : seed.gate);
      return { ...seed, gate, op: 'update', liveId: l.key, request, readAs: l.caller };
    },
  },

  gates: {
    create: () => NO_GATE,
    update: (l: LivePrivilege, _changes: FieldChange[], d: DesiredPrivilege) =>
      l.role === 'representative'
        ? { type: 'option', option: DELEGATE_FLAG, reason: `hands the representative role from ${l.account} to ${d.account}, who may then change who operates the brand (${l.account} stays an operator)` }
        : NO_GATE,
    delete(l) {
      if (l.account === l.caller) return { type: 'blocked', state: 'refused', reason: `rcsctl runs as ${l.account}: removing its own access would lock rcsctl out of the brand; list it, or remove it from another account` };
      if (l.status === 'Waiting') return { type: 'blocked', state: 'Waiting', reason: `${l.account} asked for access in the console: list it to grant it (rcsctl does not refuse requests)` };
      if (l.type === 'Manager') return { type: 'blocked', state: 'representative', reason: `${l.account} is the representative, whom the service never removes: a delegation makes it an operator, which a later apply can remove` };
      const rooms = l.agencyOf ?? [];
      if (rooms.length > 0) {
        return { type: 'blocked', state: 'bidirectional agency', reason: `${l.account} is the agency of bidirectional room${rooms.length === 1 ? '' : 's'} ${rooms.join(', ')}, and the service keeps its access while a room names it (${ERRORS.agencyInBidirectionalRoom.code}): unlink it there first (botAgencyId under bidirectionalRooms:, or remove the room), then a later plan removes its access` };
      }
      return blockedFor(l, undefined) ?? { type: 'destructive' };
    },
  },
};

/** An agency's live access, with the bidirectional rooms that name it as their agency. */
function withRooms(l: LivePrivilege, live: LiveBrand): LivePrivilege {
  if (l.role !== 'agency') return l;
  const rooms = roomsOfAgency(live, l.account);
  return rooms.length === 0 ? l : { ...l, agencyOf: rooms };
}

/** The accounts whose access this plan grants or removes besides the delegation (by address). */
function otherChanges(brand: DesiredBrand, live: LiveBrand): string[] {
  const desired = [...(brand.privileges?.values() ?? [])].filter((d) => d.role !== 'representative');
  const current = livePrivileges(sectionOf(live)).filter((l) => l.role !== 'representative' && l.status !== 'Waiting');
  const rep = brand.privileges?.get(REPRESENTATIVE_KEY)?.account;
  const pruned = brand.prune.includes('privileges');
  const added = desired.filter((d) => d.account !== rep && !current.some((l) => l.key === d.key));
  const removed = pruned ? current.filter((l) => l.type !== 'Manager' && l.account !== l.caller && !desired.some((d) => d.key === l.key)) : [];
  return [...added.map((d) => `privilege.${d.key}`), ...removed.map((l) => `privilege.${l.key}`)];
}
