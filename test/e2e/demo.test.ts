// `npm run demo` as a newcomer runs it: the built script in a child process,
// its output checked step by step.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const run = promisify(execFile);

describe('npm run demo', () => {
  it('validates, plans, applies, renames for review, approves, and ends with a clean drift report', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env.RCSCTL_BASE_URL;
    delete env.RCSCTL_TOKEN;
    const { stdout, stderr } = await run(process.execPath, [join(ROOT, 'dist', 'scripts', 'demo.js')], { cwd: ROOT, env, timeout: 60_000 });
    // Only step 1's notes (RCS514: the example's rooms declare no certificate; they exist, as the plan shows): no error, no warning.
    expect(stderr.match(/^\S+: (error|warning|note) RCS\d+/gm)).toEqual(['brand/brand.yaml:118:3: note RCS514', 'brand/brand.yaml:135:3: note RCS514']);
    expect(stderr.endsWith('\n0 errors, 0 warnings, 2 notes\n')).toBe(true);
    const steps = [
      ['1. Validate', 'BR.demo000001: valid (2 auto-reply files, 6 auto-replies'],
      ['2. Plan', 'Plan: 11 to create, 5 to update, 0 to delete; 0 blocked, 1 needs review; 0 unmanaged.'],
      ['3. Apply', 'Apply complete: the live service matches the manifests.'],
      ['4. Rename room', '~ subTitle: "Coffee Co" → "Coffee Co Seoul"'],
      ['5. Apply with --allow-review', '✓ chatbot.0212345678: updated'],
      ['6. The operator approves', 'Room 0212345678 is now 승인; logo BLG-BR.demo000001-aaaa is 승인.'],
      ['7. Drift', 'No drift: 0 changed, 0 missing, 0 unmanaged'],
    ] as const;
    let from = 0;
    for (const [title, evidence] of steps) {
      const at = stdout.indexOf(title, from);
      expect(at, `step "${title}" is missing or out of order`).toBeGreaterThanOrEqual(0);
      const next = stdout.indexOf('\u2500\u2500 ', at + title.length);
      const section = stdout.slice(at, next === -1 ? undefined : next);
      expect(section, `step "${title}"`).toContain(evidence);
      from = at + title.length;
    }
    expect(stdout).toContain('⚑ chatbot.0212345678 "Coffee Co Seoul"');
    // A newcomer is told not to wait for the emulator's review: nothing moves it but the operator.
    expect(stdout).toContain('the room waits in 승인대기(수정). In the emulator no review ever ends by itself: it waits until an operator moves it.');
    expect(stdout).toMatch(/Done in \d+\.\d s\./);
  });
});
