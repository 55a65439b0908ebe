// Who may operate a brand, end to end through the CLI against the emulator
// over HTTP: validate checks the section; plan and apply grant and remove
// access; drift finds a grant and a request made in the console; the
// representative's delegation is refused without --allow-delegate and runs
// with it (a saved plan made with it runs without); rcsctl never removes the
// account it runs as; export writes the section back and a plan of it is
// empty; graph draws who holds the representative role; doctor reads the list.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { withContract } from '../contract-recorder.js';
import { admin, cli } from './helpers.js';

const BRAND = 'BR.priv000001';
const OP = `{ brandId: ${BRAND}, role: operator }`;
const SEED = `accounts:
  - { userId: master, role: master, token: emulator-master-token, brands: [{ brandId: ${BRAND}, role: representative }] }
  - { userId: mgr, role: manager, token: t-mgr, brands: [${OP}] }
  - { userId: kim, role: manager, token: t-kim }
  - { userId: other, role: master, token: t-other }
  - { userId: ag1, role: agency, token: t-ag1 }
  - { userId: ag2, role: agency, token: t-ag2 }
brands:
  - { brandId: ${BRAND}, brandKey: BK.priv0000000001 }
`;

const manifest = (privileges: string, prune = false): string => `apiVersion: rcsctl/v1
kind: Brand
brand: { id: ${BRAND} }
${prune ? 'prune: [privileges]\n' : ''}privileges:
${privileges}`;

const PRIVILEGES = `  account: master
  representative: master
  operators: [mgr]
  agencies: [ag1]
`;

let emu: RunningEmulator;
let dir: string;
let file: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-privileges-'));
  writeFileSync(join(dir, 'seed.yaml'), SEED);
  file = join(dir, 'brand.yaml');
  writeFileSync(file, manifest(PRIVILEGES));
  const contract = withContract({ seed: join(dir, 'seed.yaml'), port: 0 });
  emu = contract.adopt(await startEmulator(contract.opts));
});
afterEach(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Each account with a role on the brand, and the role. */
const roles = (): Record<string, string> => Object.fromEntries([...emu.store.accounts.values()].flatMap((a) => (a.brands.has(BRAND) ? [[a.userId, a.brands.get(BRAND) as string]] : [])));
const write = (privileges: string, prune = false): void => writeFileSync(file, manifest(privileges, prune));

describe('privileges end to end', () => {
  it('validate counts them, and names the line of an account listed twice or a representative listed as an agency', async () => {
    const ok = await cli(['validate', file]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(', 4 privileges)\n');
    write('  representative: master\n  operators: [mgr]\n  agencies: [mgr, master]\n');
    const bad = await cli(['validate', file]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('brand.yaml:7:14: error RCS213: "mgr" is listed twice: an account is an operator or an agency, once');
    expect(bad.stderr).toContain('brand.yaml:7:19: error RCS204: "master" is the representative, a master of the company: it cannot be an agency');
    write('  representative: a-name-longer-than-twenty\n');
    const long = await cli(['validate', file]);
    expect(long.code).toBe(1);
    expect(long.stderr).toMatch(/brand\.yaml:5:\d+: error RCS205: .*representative/);
  });

  it('plans and applies the grants, then plans nothing; drift finds a grant and a request made in the console, and a prune removes the grant', async () => {
    const plan = await cli(['plan', file], { emu });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('  + privilege.ag1 "ag1 (agency)"  will be granted access\n');
    expect(plan.stdout).not.toContain('privilege.mgr');
    const applied = await cli(['apply', file, '--yes'], { emu });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('privilege.ag1: granted access');
    expect(roles()).toEqual({ master: 'representative', mgr: 'operator', ag1: 'operator' });
    expect((await cli(['plan', file, '--detailed-exitcode'], { emu })).code).toBe(0);

    await admin(emu, 'POST', `privilege/${BRAND}`, { id: 'ag2', action: 'grant' });
    await admin(emu, 'POST', `privilege/${BRAND}`, { id: 'kim', action: 'request' });
    const drift = await cli(['drift', file, '--format', 'json'], { emu });
    expect(drift.code).toBe(2);
    const resources = (JSON.parse(drift.stdout) as { brands: { resources: { address: string; findings: { code: string }[] }[] }[] }).brands[0]?.resources ?? [];
    const codes = Object.fromEntries(resources.filter((r) => r.findings.length > 0).map((r) => [r.address, r.findings.map((f) => f.code).sort()]));
    expect(codes).toEqual({ 'privilege.ag2': ['DRIFT_UNMANAGED'], 'privilege.kim': ['DRIFT_UNMANAGED', 'PRIVILEGE_REQUESTED'] });

    write(PRIVILEGES, true);
    const prune = await cli(['plan', file], { emu });
    expect(prune.stdout).toContain('  - privilege.ag2 "ag2 (agency)"  access will be removed\n');
    expect(prune.stdout).toContain('  ! privilege.kim "kim (operator)"  access will be removed\n      blocked (Waiting): kim asked for access in the console: list it to grant it (rcsctl does not refuse requests)');
    const held = await cli(['apply', file, '--yes'], { emu });
    expect(held.code).toBe(3);
    expect(roles().ag2).toBe('operator');
    const removed = await cli(['apply', file, '--yes', '--allow-delete'], { emu });
    expect(removed.code).toBe(3);
    expect(removed.stdout).toContain('privilege.ag2: access removed');
    expect(roles()).toEqual({ master: 'representative', mgr: 'operator', ag1: 'operator' });

    // Listing the account that asked grants it: the request is approved.
    write(PRIVILEGES.replace('operators: [mgr]', 'operators: [mgr, kim]'), true);
    const granted = await cli(['apply', file, '--yes'], { emu });
    expect(granted.code, granted.stdout + granted.stderr).toBe(0);
    expect(roles().kim).toBe('operator');
  });

  it('a brand that declares no privileges: section costs no privilege request: its grants are not managed, so none is a finding', async () => {
    writeFileSync(file, `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${BRAND} }\n`);
    await admin(emu, 'POST', `privilege/${BRAND}`, { id: 'ag2', action: 'grant' });
    await admin(emu, 'DELETE', 'requests');
    const drift = await cli(['drift', file], { emu, env: { RCSCTL_PERSON_ID: 'master' } });
    expect(drift.code, drift.stdout + drift.stderr).toBe(0);
    const log = (await admin(emu, 'GET', 'requests')) as { requests: { path: string }[] };
    expect(log.requests.filter((r) => r.path.includes('/privilege'))).toEqual([]);
  });

  it("an agency's token fails the plan at the section, saying why, instead of leaving the brand unread", async () => {
    await admin(emu, 'POST', `privilege/${BRAND}`, { id: 'ag1', action: 'grant' });
    // The agency sends the brand key, as agencies do.
    writeFileSync(file, manifest(PRIVILEGES.replace('account: master', 'account: ag1')).replace(`id: ${BRAND} }`, `id: ${BRAND}, key: BK.priv0000000001 }`));
    const plan = await cli(['plan', file], { emu, env: { RCSCTL_TOKEN: 't-ag1' } });
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain(`error[PRIVILEGE_ACCOUNT] ${file}:6: the service lists who operates a brand to a company's masters and managers only (403 63002), and this token's account is not one (an agency's?): plan privileges with a master's or manager's token`);
    expect(plan.stdout).not.toContain('could not be read');
    // Nothing read is nothing missing: drift says why it could not check, and finds no account "to create".
    const drift = await cli(['drift', file], { emu, env: { RCSCTL_TOKEN: 't-ag1' } });
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain('error[PRIVILEGE_ACCOUNT]');
    expect(drift.stdout).not.toContain('DRIFT_MISSING');
    // A manager's token naming another account: the path must be the caller's.
    write(PRIVILEGES);
    const other = await cli(['plan', file], { emu, env: { RCSCTL_TOKEN: 't-mgr' } });
    expect(other.stdout).toContain('error[PRIVILEGE_ACCOUNT]');
    expect(other.stdout).toContain('the privileges are read as master, which is not the account of this token (400 64104): set privileges.account (or RCSCTL_PERSON_ID) to the token');
  });

  it('an account listed in the role the service does not give it fails the plan, at its line', async () => {
    await cli(['apply', file, '--yes'], { emu });
    write('  account: master\n  representative: master\n  operators: [mgr, ag1]\n');
    const plan = await cli(['plan', file], { emu });
    expect(plan.code).toBe(1);
    expect(plan.stdout + plan.stderr).toContain('ag1 is an agency in the service (Agency): list it under agencies');
    expect(plan.stdout + plan.stderr).toMatch(/brand\.yaml:7\b/);
  });

  it('as an operator, rcsctl reads but changes nothing, and never removes its own access', async () => {
    write('  account: mgr\n  representative: master\n  operators: [kim]\n', true);
    const env = { RCSCTL_TOKEN: 't-mgr' };
    const plan = await cli(['plan', file], { emu, env });
    expect(plan.stdout).toContain("blocked (not representative): rcsctl runs as mgr, which is not the brand's representative");
    expect(plan.stdout).toContain('blocked (refused): rcsctl runs as mgr: removing its own access would lock rcsctl out of the brand');
    const apply = await cli(['apply', file, '--yes', '--allow-delete'], { emu, env });
    expect(apply.code).toBe(3);
    expect(roles()).toEqual({ master: 'representative', mgr: 'operator' });
  });

  it('the delegation is refused without --allow-delegate, and runs with it; the previous representative stays an operator', async () => {
    await cli(['apply', file, '--yes'], { emu });
    write(PRIVILEGES.replace('representative: master', 'representative: other').replace('operators: [mgr]', 'operators: [master, mgr]'));
    const refused = await cli(['plan', file, '--detailed-exitcode'], { emu });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain('  ! privilege.representative "other"  will be handed the representative role (a delegation)\n');
    expect(refused.stdout).toContain('runs only with --allow-delegate; this step will not be sent');
    const held = await cli(['apply', file, '--yes'], { emu });
    expect(held.code).toBe(3);
    expect(roles().master).toBe('representative');

    // A saved plan keeps what it was made with: one made with the flag runs without it.
    const saved = join(dir, 'delegate.json');
    const planned = await cli(['plan', file, '--allow-delegate', '--out', saved], { emu });
    expect(planned.stdout).toContain('allowed by --allow-delegate: hands the representative role from master to other');
    const ran = await cli(['apply', '--plan', saved, '--yes'], { emu });
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toContain('privilege.representative: handed the representative role (master is an operator now)');
    expect(roles()).toEqual({ master: 'operator', mgr: 'operator', other: 'representative', ag1: 'operator' });
    // rcsctl's account is an operator now: it still reads the list, and nothing differs.
    expect((await cli(['plan', file, '--detailed-exitcode'], { emu })).code).toBe(0);
  });

  it('apply --allow-delegate plans and runs the delegation in one go', async () => {
    write(PRIVILEGES.replace('representative: master', 'representative: other').replace('agencies: [ag1]', 'agencies: []'));
    const r = await cli(['apply', file, '--yes', '--allow-delegate'], { emu });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(roles()).toEqual({ master: 'operator', mgr: 'operator', other: 'representative' });
  });

  it('a delegation waits for a plan of its own while the same plan grants or removes access', async () => {
    write(PRIVILEGES.replace('representative: master', 'representative: other'));
    const plan = await cli(['plan', file, '--allow-delegate'], { emu });
    expect(plan.stdout).toContain('blocked (one change at a time): this plan also changes privilege.ag1, which only the representative may do: apply those first, then the delegation in a plan of its own');
    const first = await cli(['apply', file, '--yes', '--allow-delegate'], { emu });
    expect(first.code).toBe(3);
    expect(roles()).toEqual({ master: 'representative', mgr: 'operator', ag1: 'operator' });
    const second = await cli(['apply', file, '--yes', '--allow-delegate'], { emu });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(roles().other).toBe('representative');
  });

  it('export writes the section back, requests left out, and a plan of the export is empty', async () => {
    await cli(['apply', file, '--yes'], { emu });
    await admin(emu, 'POST', `privilege/${BRAND}`, { id: 'kim', action: 'request' });
    const out = join(dir, 'exported');
    const exp = await cli(['export', '--brand', BRAND, '--account', 'master', '--out', out], { emu });
    expect(exp.code, exp.stderr).toBe(0);
    expect(parse(readFileSync(join(out, 'brand.yaml'), 'utf8')).privileges).toEqual({ account: 'master', representative: 'master', operators: ['mgr'], agencies: ['ag1'] });
    const again = await cli(['plan', out, '--detailed-exitcode'], { emu });
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it('graph draws who holds the representative role; doctor reads the list', async () => {
    const graph = await cli(['graph', file]);
    expect(graph.code, graph.stderr).toBe(0);
    expect(graph.stdout).toContain('    n0["master<br/>privilege.representative<br/>representative role"]:::privilege\n    n1["master<br/>privilege.master<br/>operator"]:::privilege\n');
    expect(graph.stdout).toContain('  n0 -->|"held by"| n1\n');
    // The kinds' checks read as the run's account (main's io.env), not the process's.
    expect(process.env.RCSCTL_PERSON_ID).toBeUndefined();
    const doctor = await cli(['doctor', '--brand', BRAND, '--format', 'json'], { emu, env: { RCSCTL_PERSON_ID: 'master' } });
    const check = (JSON.parse(doctor.stdout) as { checks: { id: string; status: string; said: string }[] }).checks.find((c) => c.id === 'privileges');
    expect(check).toEqual(expect.objectContaining({ status: 'ok', said: 'HTTP 200, 2 privileges, 1 representative' }));
  });
});
