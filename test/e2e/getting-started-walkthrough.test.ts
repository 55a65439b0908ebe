// docs/getting-started.md, sections 1 to 4 and 6: every `rcsctl` command of
// their sh blocks runs with its arguments as written, in order, in a directory
// holding a copy of examples/brand, against an emulator started as section 3
// says (on port 0 here, not 8080). A trailing `# exit N` comment is checked as
// the exit code, and a comment that shows output (`# BR.demo000001: valid (…)`,
// `# no changes`) is looked for in what the command printed; the curl that
// moves a review along is sent as written, and its answer compared with the one
// shown. Section 5 runs as
// a script in test/e2e/getting-started.test.ts; section 7 needs the real service.
// The apply that "asks before it starts" is answered `yes` on a terminal.

import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, EXAMPLE, ROOT } from './helpers.js';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

const DOC = readFileSync(join(ROOT, 'docs', 'getting-started.md'), 'utf8');

/** The sh blocks of the section whose heading starts with `## N.`. */
function blocks(n: number): string[] {
  const start = DOC.indexOf(`\n## ${n}. `);
  expect(start, `section ${n}`).toBeGreaterThan(-1);
  const end = DOC.indexOf('\n## ', start + 1);
  const section = DOC.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string);
}

interface Line {
  argv: string[];
  comment: string;
}

/** The `rcsctl …` lines of a block (`npx rcsctl` too), split into words, with their comment. */
function commands(block: string): Line[] {
  return block
    .split('\n')
    .map((l) => /^(?:npx )?rcsctl (.*?)\s*(?:#\s*(.*))?$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ argv: (m[1] as string).split(/\s+/).filter((w) => w !== ''), comment: m[2] ?? '' }));
}

const dir = mkdtempSync(join(tmpdir(), 'rcsctl-walkthrough-'));
let emu: RunningEmulator;
beforeAll(async () => {
  cpSync(EXAMPLE, join(dir, 'examples', 'brand'), { recursive: true });
  emu = await emulator();
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Run one documented line; `env` as the section sets it up. */
async function run(line: Line, env: Record<string, string>): Promise<{ code: number; out: string }> {
  const stdout = new Capture();
  const stderr = new Capture();
  // A person at a terminal answers the confirmation question.
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  setTimeout(() => stdin.write('yes\n'), 50);
  const code = await main(line.argv, { stdin, stdout, stderr, env: { NO_COLOR: '1', ...env }, cwd: dir });
  const out = stdout.text + stderr.text;
  const exit = /^exit (\d+)/.exec(line.comment);
  if (exit !== null) expect(code, `rcsctl ${line.argv.join(' ')}\n${out}`).toBe(Number(exit[1]));
  else expect(code, `rcsctl ${line.argv.join(' ')}\n${out}`).toBe(0);
  return { code, out };
}

describe('getting started, as written', () => {
  it('1-3: the version, validate of the example with the output shown, and the sandbox', async () => {
    const install = commands(blocks(1)[0] as string);
    expect(install.map((l) => l.argv.join(' '))).toEqual(['--version']);
    expect((await run(install[0] as Line, {})).out).toMatch(/\d+\.\d+\.\d+/);

    const [validate] = commands(blocks(2)[0] as string);
    const shown = ((blocks(2)[0] as string).split('\n').find((l) => l.startsWith('# ')) ?? '').slice(2);
    expect(shown).toMatch(/^BR\.demo000001: valid \(/);
    expect((await run(validate as Line, {})).out).toContain(shown);

    const sandbox = commands(blocks(3)[0] as string);
    expect(sandbox.map((l) => l.argv.slice(0, 2).join(' '))).toEqual(['--sandbox plan', '--sandbox drift']);
    // The sandbox's drift of a brand it has not applied finds differences: exit 2, as drift.md says.
    expect((await run(sandbox[0] as Line, {})).out).toContain('Brand BR.demo000001');
    const drift = await main(sandbox[1]?.argv ?? [], { stdout: new Capture(), stderr: new Capture(), env: { NO_COLOR: '1' }, cwd: dir });
    expect(drift).toBe(2);
  });

  it('3-4 and 6: against an emulator, plan, apply, a plan with nothing left, a clean drift, then export and a plan with no changes', async () => {
    // Section 3's second block: the emulator, and the two variables it exports.
    const setup = blocks(3)[1] as string;
    expect(commands(setup).map((l) => l.argv[0])).toEqual(['emulator']);
    const exported = Object.fromEntries([...setup.matchAll(/^export (\w+)=(\S+)/gm)].map((m) => [m[1] as string, m[2] as string]));
    expect(Object.keys(exported)).toEqual(['RCSCTL_BASE_URL', 'RCSCTL_TOKEN']);
    const env = { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: exported.RCSCTL_TOKEN as string };

    const section4 = commands(blocks(4)[0] as string);
    expect(section4.map((l) => l.argv[0])).toEqual(['plan', 'apply', 'plan', 'drift', 'doctor']);
    const outs: string[] = [];
    for (const line of section4) outs.push((await run(line, env)).out);
    // `--preview` with no folder draws into preview/, as `rcsctl preview` does.
    expect(outs[0]).toContain('Preview of BR.demo000001 (');
    expect(existsSync(join(dir, 'preview', 'BR.demo000001', 'index.html'))).toBe(true);
    expect(outs[1]).toContain('Apply complete: the live service matches the manifests.');
    // doctor takes the brand from the manifests given.
    expect(outs[4]).toContain(`rcsctl doctor: ${emu.url}, brand BR.demo000001`);
    // The guide says what apply printed and that the reviews wait: they do.
    const guide = DOC.slice(DOC.indexOf('\n## 4. '), DOC.indexOf('\n## 5. '));
    const created = /`(✓ logo\.main: created \(([^)]+)\))`/.exec(guide);
    expect(created, 'the guide shows the line apply prints for the logo').not.toBeNull();
    expect(outs[1]).toContain(created?.[1]);
    expect(outs[3]).toContain('LOGO_REVIEW_PENDING');
    expect(outs[3]).toContain('ROOM_REVIEW_PENDING');

    // Section 4's second block: the curl that plays the operator, with the answer shown, then drift again.
    const review = blocks(4)[1] as string;
    const curl = /curl -s -X POST \$RCSCTL_BASE_URL(\S+) \\\n\s*-H 'content-type: application\/json' \\\n\s*-d '([^']+)'/.exec(review);
    expect(curl, review).not.toBeNull();
    const body = JSON.parse(curl?.[2] as string) as { id: string };
    expect(body.id).toBe(created?.[2]);
    const answer = await fetch(`${emu.url}${curl?.[1] as string}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: curl?.[2] as string });
    expect(await answer.json()).toEqual(JSON.parse((/^# (\{.*\})$/m.exec(review)?.[1] as string) ?? 'null'));
    const [driftAgain] = commands(review);
    expect(driftAgain?.argv[0]).toBe('drift');
    const after = (await run(driftAgain as Line, env)).out;
    expect(after).not.toContain('LOGO_REVIEW_PENDING');
    expect(after).toContain('ROOM_REVIEW_PENDING');

    const section6 = commands(blocks(6)[0] as string);
    expect(section6.map((l) => l.argv[0])).toEqual(['export', 'plan']);
    await run(section6[0] as Line, env);
    const plan = await run(section6[1] as Line, env);
    expect(section6[1]?.comment).toBe('no changes');
    expect(plan.out).toContain('No changes.');
  });
});
