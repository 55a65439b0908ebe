// rcsctl controller with one brand's file broken from the start: the file
// names no brand and no earlier load knew it, yet it lies in that brand's
// folder, so that brand is failed (never reconciled without the file) and
// the other brand reconciles as usual.

import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, EXAMPLE } from '../e2e/helpers.js';
import { brandStatus, startFor, waitState, useControllerSuite } from './helpers.js';

let emu: RunningEmulator;
let client: RcsClient;
const { running, tmp } = useControllerSuite('rcsctl-controller-broken-', (e, c) => {
  emu = e;
  client = c;
});

const ACME = 'BR.acme000001';

describe('rcsctl controller, one brand with a file that does not parse', () => {
  it('fails that brand with the file, line and column, and reconciles the other', async () => {
    const dir = join(tmp, 'brands');
    cpSync(EXAMPLE, join(dir, 'coffee'), { recursive: true });
    mkdirSync(join(dir, 'acme'));
    writeFileSync(join(dir, 'acme', 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${ACME} }\nprune: [autoReplies]\n`);
    writeFileSync(join(dir, 'acme', 'replies.yaml'), 'autoReplies: [\n  hi: 1\n');
    const { ctl, logs } = await startFor(emu, client, [dir], { mode: 'apply' });
    running.push(ctl);

    const coffee = await waitState(ctl.url, BRAND, ['waiting-review']);
    expect(coffee.lastError).toBeUndefined();
    const acme = await brandStatus(ctl.url, ACME);
    expect(acme.state).toBe('failed');
    expect(acme.lastError).toMatchObject({ code: 'E_MANIFEST' });
    expect(acme.pendingReasons[0]).toMatch(/acme\/replies\.yaml:1:14: RCS101 /);
    // Never read nor applied: a brand whose file is missing from its manifests is not reconciled.
    expect(acme.passes).toBe(0);
    expect(logs.some((l) => l.includes('manifest.error') && l.includes(ACME))).toBe(true);
  });
});
