// examples/controller/rcsctl-controller.service, the unit for a plain VM:
// parsed, its ExecStart checked against the CLI's own option definitions and
// then run (the program path and the folders swapped for the test's, nothing
// else) until the controller is ready; its hardening options are there, and
// none that breaks Node (MemoryDenyWriteExecute stops V8's JIT); no
// credential is written in it. `systemd-analyze verify` passes and `security
// --offline` rates its exposure at most 2.5 ("OK"); without systemd-analyze
// that test is skipped, loudly, and CI (.ci/run installs it) fails.

import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { EXAMPLE, ROOT, TOKEN, emulator } from '../e2e/helpers.js';
import { get, waitFor } from '../controller/helpers.js';
import { checkArgs, controllerOptions, hasTool, startCli, toolPresent } from './helpers.js';

const FILE = join(ROOT, 'examples', 'controller', 'rcsctl-controller.service');
const text = readFileSync(FILE, 'utf8');

/** The unit's sections: each key's values, in order (a key may repeat). */
function parseUnit(unit: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  unit.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) return;
    const section = /^\[(\w+)\]$/.exec(line);
    if (section !== null) {
      current = new Map();
      sections.set(section[1] as string, current);
      return;
    }
    const kv = /^(\w+)=(.*)$/.exec(line);
    if (kv === null || current === undefined) throw new Error(`${FILE}:${i + 1}: not a key=value line in a section: ${line}`);
    current.set(kv[1] as string, [...(current.get(kv[1] as string) ?? []), kv[2] as string]);
  });
  return sections;
}

const unit = parseUnit(text);
const service = unit.get('Service')!;
const one = (key: string): string | undefined => service.get(key)?.at(-1);
const execStart = (one('ExecStart') ?? '').split(/\s+/);

const SYSTEMD_ANALYZE = hasTool('systemd-analyze');

describe('examples/controller/rcsctl-controller.service', () => {
  it('has the three sections, and starts after the network', () => {
    expect([...unit.keys()]).toEqual(['Unit', 'Service', 'Install']);
    expect(unit.get('Unit')!.get('After')).toEqual(['network-online.target']);
    expect(unit.get('Install')!.get('WantedBy')).toEqual(['multi-user.target']);
  });

  it('ExecStart is `rcsctl controller` with real options', async () => {
    expect(execStart.slice(0, 2)).toEqual(['/usr/bin/rcsctl', 'controller']);
    const { problems, flags, positional } = checkArgs(execStart.slice(2), await controllerOptions());
    expect(problems).toEqual([]);
    // Behind a reverse proxy on the VM: loopback only.
    expect(flags.get('--listen')?.[0]).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(positional.length).toBeGreaterThan(0);
  });

  it('hardened, stops within the controller\'s shutdown timeout, and keeps credentials in an EnvironmentFile', () => {
    const want: Record<string, string> = {
      DynamicUser: 'yes',
      NoNewPrivileges: 'yes',
      ProtectSystem: 'strict',
      ProtectHome: 'yes',
      PrivateTmp: 'yes',
      PrivateDevices: 'yes',
      RestrictAddressFamilies: 'AF_INET AF_INET6 AF_UNIX',
      CapabilityBoundingSet: '',
      SystemCallFilter: '@system-service',
      KillSignal: 'SIGTERM',
      Restart: 'on-failure',
    };
    for (const [k, v] of Object.entries(want)) expect(one(k), k).toBe(v);
    // V8 writes and then runs machine code: MemoryDenyWriteExecute would kill node.
    expect(service.has('MemoryDenyWriteExecute')).toBe(false);
    // Longer than --shutdown-timeout (30 s by default), so a pass in flight can finish.
    expect(Number(one('TimeoutStopSec'))).toBeGreaterThan(30);
    expect(one('EnvironmentFile')).toBe('/etc/rcsctl/controller.env');
    for (const e of service.get('Environment') ?? []) expect(e).not.toMatch(/TOKEN|SECRET|CLIENT_ID/);
  });

  toolPresent('systemd-analyze', SYSTEMD_ANALYZE, 'the unit was not verified nor rated by systemd-analyze (apt-get install systemd)');
  it.skipIf(!SYSTEMD_ANALYZE)('systemd-analyze verify passes, and security rates it OK', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcsctl-unit-'));
    try {
      // verify checks that ExecStart's program exists: the repository's bin stands in for the installed one.
      const copy = join(dir, 'rcsctl-controller.service');
      writeFileSync(copy, text.replace('ExecStart=/usr/bin/rcsctl ', `ExecStart=${join(ROOT, 'bin', 'rcsctl.js')} `));
      execFileSync('systemd-analyze', ['verify', copy], { stdio: 'pipe' });
      execFileSync('systemd-analyze', ['security', '--offline=yes', '--threshold=25', copy], { stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the unit\'s ExecStart, run', () => {
  let emu: RunningEmulator;
  let tmp: string;
  beforeAll(async () => {
    emu = await emulator();
    tmp = mkdtempSync(join(tmpdir(), 'rcsctl-unit-run-'));
    cpSync(EXAMPLE, join(tmp, 'brands'), { recursive: true });
  });
  afterAll(async () => {
    await emu.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('starts a controller that becomes ready, and stops with exit 0', async () => {
    // systemd sets CACHE_DIRECTORY from CacheDirectory=; the checkout is the test's copy of the example brand.
    const argv = execStart
      .slice(1)
      .map((w) => w.replace('${CACHE_DIRECTORY}', join(tmp, 'cache')).replace(/^127\.0\.0\.1:\d+$/, '127.0.0.1:0').replace(/^\/srv\/rcs-brands\/brands$/, join(tmp, 'brands')));
    expect(argv.filter((w) => w.includes('$'))).toEqual([]);
    const ctl = await startCli(argv, { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN, RCSCTL_WEBHOOK_TOKEN: 'unit-webhook-token', RCSCTL_LOCK_DIR: join(tmp, 'locks') });
    try {
      await waitFor('/readyz to answer 200', async () => ((await get(ctl.url, '/readyz')).status === 200 ? true : undefined));
      expect((await get(ctl.url, '/status')).body.brands.length).toBeGreaterThan(0);
    } finally {
      expect(await ctl.stop()).toBe(0);
    }
  });
});
