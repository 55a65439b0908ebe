// The Dockerfile, checked without a container engine (none runs here): it is
// parsed by dockerfile-ast, and the test checks what the image promises. Two
// stages; the final one on node:20-slim (or distroless) as a numeric non-root
// user; every file a COPY names exists in the repository or in what the build
// stage makes; .dockerignore keeps none of them out; EXPOSE is the default
// --listen port; no HEALTHCHECK (the Dockerfile says why); and ENTRYPOINT plus
// CMD is `rcsctl controller` with real options. Then that command line runs:
// from a folder laid out as the final stage lays out /app, as a process,
// against the emulator, until /healthz and /readyz answer.

import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { EXAMPLE, ROOT, TOKEN, emulator } from '../e2e/helpers.js';
import { get, waitFor } from '../controller/helpers.js';
import { checkArgs, controllerOptions } from './helpers.js';

const dockerfile = DockerfileParser.parse(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const stages = dockerfile.getFROMs();
const final = stages[stages.length - 1]!;
const inFinal = (i: Instruction): boolean => i.getRange().start.line > final.getRange().start.line;
const words = (i: Instruction): string[] => i.getArguments().map((a) => a.getValue());
/** An exec-form (JSON) instruction's words; shell form is refused, since it would run under /bin/sh -c. */
function execForm(keyword: 'ENTRYPOINT' | 'CMD'): string[] {
  const found = dockerfile.getInstructions().filter((i) => i.getKeyword() === keyword && inFinal(i));
  expect(found, `one ${keyword} in the final stage`).toHaveLength(1);
  const json = (found[0] as unknown as { getJSONStrings(): { getJSONValue(): string }[] }).getJSONStrings().map((s) => s.getJSONValue());
  expect(json.length, `${keyword} in exec form`).toBeGreaterThan(0);
  return json;
}

describe('Dockerfile', () => {
  it('multi-stage; the final stage on node:20-slim or distroless, as a numeric non-root user', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const image = `${final.getImageName()}:${final.getImageTag()}`;
    expect(image).toMatch(/^(node:20-slim|gcr\.io\/distroless\/nodejs20-debian\d+:[\w.-]+)$/);
    const users = dockerfile.getInstructions().filter((i) => i.getKeyword() === 'USER' && inFinal(i));
    expect(users.length).toBeGreaterThan(0);
    const user = words(users[users.length - 1]!).join(' ');
    // A number, so that Kubernetes' runAsNonRoot can check it; not 0.
    expect(user).toMatch(/^[1-9]\d*(:\d+)?$/);
  });

  it('every COPY source exists: in the repository for the build stage, in what the build makes for the final one; .dockerignore drops none', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
    const build = stages[0]!;
    const buildDir = dockerfile.getInstructions().find((i) => i.getKeyword() === 'WORKDIR' && !inFinal(i));
    const workdir = words(buildDir!)[0] as string;
    const runs = dockerfile.getInstructions().filter((i) => i.getKeyword() === 'RUN' && !inFinal(i)).map((i) => words(i).join(' '));
    const copied = new Set<string>();
    for (const copy of dockerfile.getCOPYs()) {
      const sources = words(copy).filter((w) => !w.startsWith('--')).slice(0, -1);
      const from = copy.getFromFlag()?.getValue();
      for (const src of sources) {
        if (from === undefined) {
          expect(existsSync(join(ROOT, src)), `COPY ${src}: not in the repository`).toBe(true);
          expect(ignored.filter((p) => p === src || p === src.split('/')[0]), `COPY ${src}: excluded by .dockerignore`).toEqual([]);
          copied.add(src.split('/')[0] as string);
          continue;
        }
        expect(from, `COPY --from=${from} names the build stage`).toBe(build.getBuildStage());
        expect(src.startsWith(`${workdir}/`), `COPY --from ${src}: under the build stage's ${workdir}`).toBe(true);
        const rel = posix.relative(workdir, src);
        const top = rel.split('/')[0] as string;
        // dist/ comes from `npm run build`, node_modules/ from `npm ci`; both exist here after the test build.
        const made = (top === 'dist' && runs.some((r) => r.includes('npm run build'))) || (top === 'node_modules' && runs.some((r) => r.includes('npm ci')));
        expect(copied.has(top) || copied.has(rel) || made, `COPY --from ${src}: nothing in the build stage puts it there`).toBe(true);
        expect(existsSync(join(ROOT, rel)), `COPY --from ${src}: ${rel} is not in the build output`).toBe(true);
      }
    }
    // The build stage compiles what tsconfig.json includes (src, bench, scripts): each is copied.
    const includes = (JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as { include: string[] }).include.map((p) => p.split('/')[0] as string);
    for (const dir of includes) expect(copied, `the build compiles ${dir}/`).toContain(dir);
  });

  it('EXPOSE is the default --listen port; no HEALTHCHECK', async () => {
    const expose = dockerfile.getInstructions().filter((i) => i.getKeyword() === 'EXPOSE' && inFinal(i)).flatMap(words);
    const listen = (await controllerOptions()).get('--listen')?.defaultValue;
    const port = /:(\d+)$/.exec(String(listen))?.[1];
    expect(port).toBeDefined();
    expect(expose).toEqual([port]);
    // Kubernetes ignores HEALTHCHECK and the image cannot know a deployment's --listen: the probes do this (see the Dockerfile's comment).
    expect(dockerfile.getHEALTHCHECKs()).toEqual([]);
    expect(readFileSync(join(ROOT, 'Dockerfile'), 'utf8')).toMatch(/# No HEALTHCHECK: /);
  });

  it('ENTRYPOINT and CMD are `rcsctl controller` with real options, listening on every interface', async () => {
    const argv = [...execForm('ENTRYPOINT'), ...execForm('CMD')];
    expect(argv.slice(0, 2)).toEqual(['rcsctl', 'controller']);
    const { problems, flags, positional } = checkArgs(argv.slice(2), await controllerOptions());
    expect(problems).toEqual([]);
    expect(flags.get('--listen')).toEqual(['0.0.0.0:9464']);
    expect(positional).toEqual(['/manifests']);
    // The `rcsctl` on the PATH is the package's bin.
    const link = dockerfile.getInstructions().filter((i) => i.getKeyword() === 'RUN' && inFinal(i)).map((i) => words(i).join(' '));
    expect(link).toContain('ln -s /app/bin/rcsctl.js /usr/local/bin/rcsctl');
  });
});

describe('the image\'s command, run from the final stage\'s files', () => {
  let emu: RunningEmulator;
  let app: string;
  beforeAll(async () => {
    emu = await emulator();
    app = mkdtempSync(join(tmpdir(), 'rcsctl-image-'));
    // Lay out /app as the final stage's COPY --from lines do (node_modules linked: copying it would only be slow).
    const workdir = '/src';
    for (const copy of dockerfile.getCOPYs().filter((c) => c.getFromFlag() !== null)) {
      const [src, dest] = words(copy).filter((w) => !w.startsWith('--')) as [string, string];
      const from = join(ROOT, posix.relative(workdir, src));
      const to = join(app, posix.normalize(dest));
      mkdirSync(dirname(to), { recursive: true });
      if (src.endsWith('/node_modules')) symlinkSync(from, to, 'dir');
      else cpSync(from, to, { recursive: true });
    }
  });
  afterAll(async () => {
    await emu.close();
    rmSync(app, { recursive: true, force: true });
  });

  it('starts, serves /healthz and /readyz, and stops with exit 0 on SIGTERM', async () => {
    const [, ...rest] = [...execForm('ENTRYPOINT'), ...execForm('CMD')];
    // The only changes: a free loopback port instead of 0.0.0.0:9464, and the example brand where /manifests would be mounted.
    const argv = rest.map((w) => (w === '0.0.0.0:9464' ? '127.0.0.1:0' : w === '/manifests' ? EXAMPLE : w));
    const proc = spawn(process.execPath, [join(app, 'bin', 'rcsctl.js'), ...argv, '--no-cache'], {
      cwd: app,
      env: { PATH: process.env.PATH, HOME: app, NODE_ENV: 'production', RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN, RCSCTL_WEBHOOK_TOKEN: 'image-test-token', RCSCTL_LOCK_DIR: join(app, 'locks') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    try {
      const url = await waitFor('the controller to listen', async () => /"event":"started","url":"(http:\/\/[^"]+)"/.exec(out)?.[1], 20_000);
      expect((await get(url, '/healthz')).status).toBe(200);
      await waitFor('/readyz to answer 200', async () => ((await get(url, '/readyz')).status === 200 ? true : undefined));
      proc.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out).not.toContain('image-test-token');
    } finally {
      if (proc.exitCode === null) proc.kill('SIGKILL');
    }
  });
});
