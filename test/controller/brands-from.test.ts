// A brand seeded with `emulator --brands-from` (or `--sandbox`) belongs to the
// seed's agency, so the controller hears of its changes as it does of the
// example brand's (issue 35 §4: it belonged to no agency, and no notification
// for it ever came, silently).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import { loadSeed, type RunningEmulator } from '../../src/emulator/index.js';
import { withDeclaredBrands } from '../../src/emulator/seed-brands.js';
import { defaultSeedPath } from '../../src/util/paths.js';
import { admin, cli, TOKEN } from '../e2e/helpers.js';
import { brandStatus, pointWebhook, startFor, waitState, useControllerSuite } from './helpers.js';

const NEW = 'BR.fromman001';

let emu: RunningEmulator;
let client: RcsClient;
const { running, tmp } = useControllerSuite(
  'rcsctl-controller-brands-from-',
  (e, c) => {
    emu = e;
    client = c;
  },
  () => withDeclaredBrands(loadSeed(defaultSeedPath()), [{ brandId: NEW }], TOKEN).seed,
);

describe('a brand seeded from the manifests', () => {
  it('belongs to the seed\'s agency: a console change to it reaches the controller as a notification', async () => {
    const agencies = ((await admin(emu, 'GET', 'messaging')) as { agencies: { agencyId: string; brands: string[] }[] }).agencies;
    expect(agencies.find((a) => a.agencyId === 'agency')?.brands).toContain(NEW);

    const dir = join(tmp, 'new');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'brand.yaml'), `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${NEW} }\nautoReplies:\n  hi: { name: Hi, messagebaseId: SCS00000, body: { description: "Hello" } }\n`);
    const applied = await cli(['apply', dir, '--yes'], { emu });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);

    const { ctl } = await startFor(emu, client, [dir]);
    running.push(ctl);
    const first = await waitState(ctl.url, NEW, ['in-sync']);
    await pointWebhook(emu, ctl.url);
    // Someone edits the reply in the console: only its notification can tell the controller (the resync is an hour away).
    let id: string | undefined;
    for await (const item of client.autoReplies.list({ id: NEW })) id = item.autoReplyMsgId;
    const hi = await client.autoReplies.get({ id: NEW }, id as string);
    await client.autoReplies.update({ id: NEW }, id as string, { autoReplyMsgName: hi.autoReplyMsgName, messagebaseId: hi.messagebaseId, body: { ...hi.body, description: 'Changed in the console' } });
    await waitState(ctl.url, NEW, ['drifted'], first.passes, 15_000);
    expect((await brandStatus(ctl.url, NEW)).pendingReasons).toContain('autoReply.hi update');
  });
});
