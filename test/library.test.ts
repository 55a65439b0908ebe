// rcsctl as a library, imported the way a user's project does: the package as
// `npm pack` makes it (the `files` list, `exports`, `types`), installed under a
// temp project's node_modules (its dependencies linked from this checkout's),
// then `import('rcsctl')`: load the example brand, plan it against an emulator
// on 127.0.0.1 port 0, apply, and see drift clean. The consumer's TypeScript
// is type-checked against the published declarations.

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './e2e/helpers.js';

const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };

// What a consumer writes: the example brand loaded, planned against an
// emulator, applied, then drift. It prints one JSON line of what it saw.
const CONSUMER = `
import { applyEachBrand, buildDrift, createClient, hasErrors, loadManifests, makeStyle, planEachBrand, renderPlan, runsOf, startEmulator, VERSION } from 'rcsctl';
import type { BrandOutcome, DriftReport, RcsClient } from 'rcsctl';

const emu = await startEmulator({ port: 0 });
try {
  const loaded = await loadManifests([process.argv[2] as string], { env: {}, cwd: process.cwd() });
  if (hasErrors(loaded.diagnostics)) throw new Error('the example has errors');
  const client: RcsClient = createClient({ baseUrl: emu.url, credentials: { token: 'emulator-master-token' } });
  const first: BrandOutcome[] = await planEachBrand(client, loaded.brands, { concurrency: 4 });
  const text = first.map((o) => renderPlan(o.plan, makeStyle(false))).join('\\n');
  const applied = await applyEachBrand(client, runsOf(first), { concurrency: 4, allowDelete: false, allowReview: true, fromSavedPlan: false });
  const second = await planEachBrand(client, loaded.brands, { concurrency: 4 });
  const drift: DriftReport = buildDrift(second, new Date());
  console.log(JSON.stringify({
    version: VERSION,
    url: emu.url,
    brands: loaded.brands.map((b) => b.brandId),
    steps: first.map((o) => o.plan.steps.length),
    summary: text.split('\\n').find((l) => l.startsWith('Plan:')),
    applied: applied.map((a) => a.status),
    unconverged: applied.flatMap((a) => (a.status === 'verified' ? a.unconverged : [])).length,
    stepsAfter: second.map((o) => o.plan.steps.length),
    clean: drift.clean,
  }));
} finally {
  await emu.close();
}
`;

/** The TypeScript source a file tsc wrote under dist/ was compiled from (`dist/src/a/b.js.map` → `src/a/b.ts`). */
function sourceOf(distPath: string): string | undefined {
  const m = /^dist\/(.+?)(\.d)?\.(js|ts)(\.map)?$/.exec(distPath);
  return m === null ? undefined : `${m[1] as string}.ts`;
}

describe('rcsctl as a library (the packed package, imported as a user does)', () => {
  let dir: string;
  /** The paths `npm pack` put in the tarball. */
  let packedFiles: string[];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rcsctl-consumer-'));
    // npm pack: exactly what a registry would serve (the files list of package.json).
    const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { filename: string; files: { path: string }[] }[];
    packedFiles = (packed[0] as { files: { path: string }[] }).files.map((f) => f.path);
    const tarball = join(dir, (packed[0] as { filename: string }).filename);
    const installed = join(dir, 'node_modules', 'rcsctl');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
    // Its dependencies, as an install would provide them (linked from this checkout: no registry in a test).
    for (const dep of Object.keys(PKG.dependencies)) {
      const at = join(dir, 'node_modules', ...dep.split('/'));
      mkdirSync(join(at, '..'), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', ...dep.split('/')), at, 'dir');
    }
    symlinkSync(join(ROOT, 'node_modules', '@types'), join(dir, 'node_modules', '@types'), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { rcsctl: PKG.version } }));
    writeFileSync(join(dir, 'consumer.ts'), CONSUMER);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: ['node'], outDir: 'out', skipLibCheck: false }, files: ['consumer.ts'] }),
    );
    cpSync(join(ROOT, 'examples', 'brand'), join(dir, 'brand'), { recursive: true });
  }, 120_000);

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('ships no file of dist/ whose source is gone (a build starts from an empty dist/)', () => {
    const dist = packedFiles.filter((p) => p.startsWith('dist/'));
    expect(dist).toContain('dist/src/index.js');
    const orphans = dist.filter((p) => {
      const src = sourceOf(p);
      return src === undefined || !existsSync(join(ROOT, src));
    });
    expect(orphans).toEqual([]);
  });

  it('resolves through exports to the built entry, with its declarations', () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', "import('rcsctl').then((m) => console.log(JSON.stringify({ keys: Object.keys(m).sort(), url: import.meta.resolve('rcsctl') })))"], { cwd: dir, encoding: 'utf8' });
    const { keys, url } = JSON.parse(out) as { keys: string[]; url: string };
    expect(url).toBe(`file://${join(dir, 'node_modules', 'rcsctl', 'dist', 'src', 'index.js')}`);
    for (const name of ['loadManifests', 'createClient', 'readLive', 'buildPlan', 'planBrands', 'planEachBrand', 'applyEachBrand', 'runApply', 'applyBrand', 'acquireBrandLocks', 'releaseAll', 'lockDir', 'startController', 'executePlan', 'verifyApplied', 'buildDrift', 'buildManifest', 'startEmulator', 'renderPlan', 'registerKind']) {
      expect(keys).toContain(name);
    }
    // Only the entry is public: deep imports are closed by `exports`.
    expect(() => execFileSync(process.execPath, ['--input-type=module', '-e', "await import('rcsctl/dist/src/cli/main.js')"], { cwd: dir, stdio: 'pipe' })).toThrow(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });

  it("type-checks a consumer's TypeScript against the package's declarations", () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
    } catch (err) {
      output = String((err as { stdout?: string }).stdout ?? err);
    }
    expect(output).toBe('');
  }, 120_000);

  it('loads, plans against an emulator on 127.0.0.1 port 0, applies, and drift is clean', () => {
    const out = execFileSync(process.execPath, [join('out', 'consumer.js'), 'brand'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    const seen = JSON.parse(out.trim()) as Record<string, unknown>;
    expect(seen.version).toBe(PKG.version);
    expect(seen.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(seen.brands).toEqual(['BR.demo000001']);
    expect(seen.summary).toBe('Plan: 11 to create, 5 to update, 0 to delete; 0 blocked, 1 needs review; 0 unmanaged.');
    expect(seen.applied).toEqual(['verified']);
    expect(seen.unconverged).toBe(0);
    expect(seen.stepsAfter).toEqual([0]);
    expect(seen.clean).toBe(true);
  }, 120_000);
});
