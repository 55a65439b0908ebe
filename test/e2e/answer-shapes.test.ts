// Fields without a value: the service may answer them as null, leave them out,
// or answer "", and the emulator's default answers each as the public document
// allows. rcsctl must read all three alike: apply converges, the next plan
// is empty, and a rejected logo's missing reason reads as "no reason given".

import { describe, expect, it } from 'vitest';
import { formatViolation } from '../../src/contract/check.js';
import { contractOf } from '../contract-recorder.js';
import { admin, BRAND, cli, clientFor, emulator, EXAMPLE } from './helpers.js';

// `document` is the default: rooms leave such fields out (the public document requires
// only chatbotId and brandId of a room), logos and auto-replies answer null.
describe.each(['document', 'null', 'absent', 'empty'])('unset fields answered as %s', (form) => {
  it('apply converges and the next plan is empty; unset room and logo fields read as null', async () => {
    const emu = await emulator();
    try {
      await admin(emu, 'POST', 'options', { unsetFields: form });
      expect((await cli(['apply', EXAMPLE, '--yes', '--allow-review'], { emu })).code).toBe(0);
      const plan = await cli(['plan', EXAMPLE, '--detailed-exitcode'], { emu });
      expect(plan.stdout).toContain('No changes');
      expect(plan.code).toBe(0);
      const client = clientFor(emu);
      const ref = { id: BRAND, key: 'BK.demo0000000001' };
      const room = await client.chatbots.get(ref, '0212345678');
      expect([room.groupId, room.botAgencyId, room.approvalReason, room.webhook, room.botTcPage]).toEqual([null, null, null, null, null]);
      for await (const l of client.logos.list(ref)) expect(l.approvalReason).toBeNull();
      await client.close();
      // Only the default form is the contract's; the requests must hold under every form.
      const seen = await contractOf(emu).clear();
      expect(seen.filter((v) => v.side === 'request').map(formatViolation)).toEqual([]);
    } finally {
      await emu.close();
    }
  });
});
