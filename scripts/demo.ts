// `npm run demo`: the main job of rcsctl, end to end, on an embedded emulator.
// Nothing leaves the machine: the emulator listens on 127.0.0.1 and the
// example brand is copied to a temporary directory so the checkout stays clean.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../src/cli/main.js';
import { startEmulator, type RunningEmulator } from '../src/emulator/index.js';
import { packageRoot } from '../src/util/paths.js';

const TOKEN = 'emulator-master-token';
const ROOM = '0212345678';
const BRAND = 'BR.demo000001';

async function demo(): Promise<number> {
  const started = Date.now();
  const emu = await startEmulator({ port: 0 });
  const work = mkdtempSync(join(tmpdir(), 'rcsctl-demo-'));
  const brandDir = join(work, 'brand');
  cpSync(join(packageRoot(), 'examples', 'brand'), brandDir, { recursive: true });
  const env = { ...process.env, RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN };
  const run = async (title: string, argv: string[], expect: number[]): Promise<void> => {
    say(title, `rcsctl ${argv.join(' ').replace(work, '$DEMO')}`);
    const code = await main(argv, { stdout: process.stdout, stderr: process.stderr, env, cwd: work });
    if (!expect.includes(code)) throw new Error(`step failed: rcsctl ${argv[0]} exited ${code}, expected ${expect.join(' or ')}`);
  };

  try {
    console.log(`rcsctl demo: an emulator of the service is listening on ${emu.url} (loopback only).`);
    console.log('The example brand (Coffee Co, BR.demo000001) is copied to a temporary directory.\n');

    await run('1. Validate the manifests: schema, files, references and lint, offline.', ['validate', 'brand'], [0]);
    await run('2. Plan: read the live brand and show, field by field, what apply would change.', ['plan', 'brand'], [0]);
    await run('3. Apply: uploads, then auto-replies, then links and the room menu, in dependency order.', ['apply', 'brand', '--yes', '--allow-review'], [0]);

    const yaml = join(brandDir, 'brand.yaml');
    writeFileSync(yaml, readFileSync(yaml, 'utf8').replace('subTitle: Coffee Co\n', 'subTitle: Coffee Co Seoul\n'));
    await run(`4. Rename room ${ROOM} in the manifest. The plan flags it: an approved room goes back to operator review.`, ['plan', 'brand'], [0]);
    await run(
      '5. Apply with --allow-review: the rename is sent; the room waits in 승인대기(수정). In the emulator no review ever ends by itself: it waits until an operator moves it.',
      ['apply', 'brand', '--yes', '--allow-review'],
      [0],
    );

    say('6. The operator approves the rename and the new logo (the emulator\'s admin API plays the operator; docs/getting-started.md shows the curl).', `POST ${emu.url}/_emulator/review {action: complete}`);
    const brand = emu.store.brands.get(BRAND);
    const logoId = [...(brand?.logos.keys() ?? [])][0];
    await approve(emu, 'chatbot', ROOM);
    if (logoId !== undefined) await approve(emu, 'logo', logoId);
    console.log(`Room ${ROOM} is now ${brand?.chatbots.get(ROOM)?.approvalResult ?? '?'}; logo ${logoId ?? '?'} is ${logoId !== undefined ? brand?.logos.get(logoId)?.approvalResult : '?'}.`);

    await run('7. Drift: no drift (exit 0). The one informational finding is the seeded second room, still under review.', ['drift', 'brand'], [0]);
    console.log(`\nDone in ${((Date.now() - started) / 1000).toFixed(1)} s. Next: npm test, docs/getting-started.md, and rcsctl --help.`);
    return 0;
  } finally {
    await emu.close();
    rmSync(work, { recursive: true, force: true });
  }
}

function say(title: string, command: string): void {
  console.log(`\n\u2500\u2500 ${title}\n$ ${command}\n`);
}

async function approve(emu: RunningEmulator, kind: 'chatbot' | 'logo', id: string): Promise<void> {
  const res = await fetch(`${emu.url}/_emulator/review`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind, brandId: BRAND, id, action: 'complete' }),
  });
  if (!res.ok) throw new Error(`approval failed: ${res.status} ${await res.text()}`);
}

demo().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
