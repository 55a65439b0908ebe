// The privilege routes over real HTTP (routes/privileges.ts): the list with
// its statuses, a grant (approving a console request; 64348 for an account
// with access, 64337 for the wrong type), the delegation (64349 for an
// account that is not a master), a removal (64347 for an account without
// access, 64352 for the representative), the roles each route needs, and the
// console admin route and seed section that set what the console does.

import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, call, errorOf, useEmulator } from './helpers.js';

const BRAND = 'BR.priv000001';
const SEED = `
accounts:
  - { userId: boss, role: master, token: t-boss, brands: [{ brandId: ${BRAND}, role: representative }] }
  - { userId: mgr, role: manager, token: t-mgr, brands: [{ brandId: ${BRAND}, role: operator }] }
  - { userId: kim, role: manager, token: t-kim }
  - { userId: other, role: master, token: t-other }
  - { userId: ag1, role: agency, token: t-ag1, brands: [{ brandId: ${BRAND}, role: operator }] }
brands:
  - brandId: ${BRAND}
    brandKey: BK.priv0000000001
    privileges: { ag1: Processing }
`;

let emu: RunningEmulator;
useEmulator((e) => (emu = e), { seed: SEED, reset: true });

const PATH = `/api/1.1/corp/boss/brand/${BRAND}/privilege`;
const boss = (method: string, path: string, opts: { json?: unknown } = {}) => call(emu, method, path, { token: 't-boss', ...opts });

describe('privileges', () => {
  it('lists the representative, operators and agencies with their status; an operator reads it, an agency account may not', async () => {
    const all = [
      { privilegeType: 'Manager', id: 'boss', status: 'Ok' },
      { privilegeType: 'SubManager', id: 'mgr', status: 'Ok' },
      { privilegeType: 'Agency', id: 'ag1', status: 'Processing' },
    ];
    expect((await boss('GET', PATH)).body.result).toEqual(all);
    expect((await call(emu, 'GET', `/api/1.1/corp/mgr/brand/${BRAND}/privilege`, { token: 't-mgr' })).body.result).toEqual(all);
    expect(errorOf(await call(emu, 'GET', `/api/1.1/corp/ag1/brand/${BRAND}/privilege`, { token: 't-ag1' })).code).toBe('63002');
    expect(errorOf(await call(emu, 'GET', `/api/1.1/corp/kim/brand/${BRAND}/privilege`, { token: 't-kim' })).code).toBe('63001');
  });

  it('a grant approves a request made in the console; an account with access is 64348, the wrong type 64337, Manager is for PUT', async () => {
    await admin(emu, 'POST', `privilege/${BRAND}`, { id: 'kim', action: 'request' });
    expect((await boss('GET', PATH)).body.result).toContainEqual({ privilegeType: 'SubManager', id: 'kim', status: 'Waiting' });
    expect((await boss('POST', PATH, { json: { regPrivileges: [{ privilegeType: 'SubManager', id: 'kim' }] } })).body.result).toEqual([{ privilegeType: 'SubManager', id: 'kim', status: 'Ok' }]);
    expect(errorOf(await boss('POST', PATH, { json: { regPrivileges: [{ privilegeType: 'SubManager', id: 'mgr' }] } }))).toEqual({ status: 400, code: '64348', message: 'mgr is already registered' });
    expect(errorOf(await boss('POST', PATH, { json: { regPrivileges: [{ privilegeType: 'Agency', id: 'other' }] } })).code).toBe('64337');
    expect(errorOf(await boss('POST', PATH, { json: { regPrivileges: [{ privilegeType: 'Manager', id: 'other' }] } })).code).toBe('64337');
    // Only the representative grants.
    expect(errorOf(await call(emu, 'POST', `/api/1.1/corp/mgr/brand/${BRAND}/privilege`, { token: 't-mgr', json: { regPrivileges: [{ privilegeType: 'SubManager', id: 'other' }] } })).code).toBe('63002');
  });

  it('the representative role goes to a master only (64349); a removal of an account without access is 64347, of the representative 64352', async () => {
    expect(errorOf(await boss('PUT', PATH, { json: { regPrivilege: { privilegeType: 'Manager', id: 'kim' } } }))).toEqual({ status: 400, code: '64349', message: 'kim has not qualified' });
    expect(errorOf(await boss('DELETE', `${PATH}/kim`))).toEqual({ status: 400, code: '64347', message: 'kim is not registered' });
    expect(errorOf(await boss('DELETE', `${PATH}/boss`)).code).toBe('64352');
    expect((await boss('PUT', PATH, { json: { regPrivilege: { privilegeType: 'Manager', id: 'other' } } })).body.result).toEqual([{ privilegeType: 'Manager', id: 'other', status: 'Ok' }]);
    expect(errorOf(await boss('DELETE', `${PATH}/mgr`)).code).toBe('63001');
  });

  it('the console admin route grants, removes, and sets a status; the store shows the statuses', async () => {
    await admin(emu, 'POST', `privilege/${BRAND}`, { id: 'kim', action: 'grant' });
    await admin(emu, 'POST', `privilege/${BRAND}`, { id: 'ag1', action: 'ok' });
    await admin(emu, 'POST', `privilege/${BRAND}`, { id: 'mgr', action: 'remove' });
    expect((await boss('GET', PATH)).body.result).toEqual([
      { privilegeType: 'Manager', id: 'boss', status: 'Ok' },
      { privilegeType: 'SubManager', id: 'kim', status: 'Ok' },
      { privilegeType: 'Agency', id: 'ag1', status: 'Ok' },
    ]);
    expect(errorOf(await admin(emu, 'POST', `privilege/${BRAND}`, { id: 'boss', action: 'remove' })).message).toContain('the representative cannot be removed');
    expect(errorOf(await admin(emu, 'POST', `privilege/${BRAND}`, { id: 'kim', action: 'promote' })).message).toContain('action is grant, remove, request, processing or ok');
    await admin(emu, 'POST', `privilege/${BRAND}`, { id: 'kim', action: 'processing' });
    expect(((await admin(emu, 'GET', 'store')).body.brands as { brandId: string; privileges: unknown }[]).find((b) => b.brandId === BRAND)?.privileges).toEqual({ kim: 'Processing' });
  });
});
