// The controller reads as the account its own environment names
// (ControllerOptions.env's RCSCTL_PERSON_ID), never the process's: a brand
// profile that names no account is read as it, in-process on port 0, against
// the emulator over real HTTP.

import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, ROOT } from '../e2e/helpers.js';
import { brandStatus, startFor, useControllerSuite, waitState } from './helpers.js';

let emu: RunningEmulator;
let client: RcsClient;
const CASE = join(ROOT, 'test', 'plan-cases', '071-profile-from-nothing');
const { running, tmp } = useControllerSuite('rcsctl-controller-person-', (e, c) => {
  emu = e;
  client = c;
});

describe('rcsctl controller and RCSCTL_PERSON_ID', () => {
  it("reads the brand page as its environment's RCSCTL_PERSON_ID when the manifest names no account", async () => {
    const dir = join(tmp, 'brand');
    // The manifest and its images, not the case's seed (the emulator has the example seed).
    cpSync(CASE, dir, { recursive: true, filter: (src) => !src.endsWith('seed.yaml') && !src.endsWith('plan.txt') });
    const manifest = join(dir, 'manifest.yaml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('  account: master\n', ''));
    expect(process.env.RCSCTL_PERSON_ID).toBeUndefined();
    const { ctl } = await startFor(emu, client, [dir], { env: { RCSCTL_PERSON_ID: 'master' } });
    running.push(ctl);
    // Whatever the pass ends in, the status says why.
    const status = await waitState(ctl.url, BRAND, ['drifted', 'waiting-review', 'in-sync', 'failed']);
    const full = await brandStatus(ctl.url, BRAND);
    expect(JSON.stringify(full)).not.toContain('PROFILE_ACCOUNT');
    expect(status.state, JSON.stringify(full)).toBe('drifted');
    expect(full.steps?.map((s) => s.address)).toEqual(['brandProfile.home']);
  });
});
