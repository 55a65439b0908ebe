// rcsctl controller with a brand whose image lies above its folder: the
// controller's loads take the same bound as the CLI's (the repository, or
// --root), so without a repository the brand fails with RCS301 and with a root
// that holds both it is reconciled.

import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, EXAMPLE } from '../e2e/helpers.js';
import { brandStatus, startFor, waitState, useControllerSuite, waitFor } from './helpers.js';

let emu: RunningEmulator;
let client: RcsClient;
const { running, tmp } = useControllerSuite('rcsctl-controller-root-', (e, c) => {
  emu = e;
  client = c;
});

describe('rcsctl controller and files shared above a brand folder', () => {
  it('refuses the file outside the bound, and takes it with a root that holds it', async () => {
    const top = join(tmp, 'fleet');
    mkdirSync(join(top, 'common'), { recursive: true });
    mkdirSync(join(top, 'brands', 'demo'), { recursive: true });
    copyFileSync(join(EXAMPLE, 'images', 'hero.png'), join(top, 'common', 'footer.png'));
    writeFileSync(
      join(top, 'brands', 'demo', 'brand.yaml'),
      `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${BRAND} }\nfiles:\n  footer: { path: ../../common/footer.png }\n` +
        'autoReplies:\n  shared: { name: Shared footer, messagebaseId: SCwThM00, body: { title: Footer, description: "x", media: { file: footer } } }\n',
    );
    const refused = await startFor(emu, client, [join(top, 'brands')]);
    running.push(refused.ctl);
    const failed = await waitFor('the brand failed', async () => {
      const s = await brandStatus(refused.ctl.url, BRAND);
      return s.state === 'failed' ? s : undefined;
    });
    expect(failed.pendingReasons[0]).toMatch(/RCS301/);
    await refused.ctl.close();

    const taken = await startFor(emu, client, [join(top, 'brands')], { root: top });
    running.push(taken.ctl);
    const s = await waitState(taken.ctl.url, BRAND, ['drifted', 'waiting-review', 'in-sync']);
    expect(s.lastError).toBeUndefined();
  });
});
