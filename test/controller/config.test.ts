// The controller's configuration file (--config): every error names the file,
// line, column and field; the file's settings reach a running controller, a
// flag given on the command line wins over the file, and a destination's URL
// taken from the environment never reaches the log.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadControllerConfig, parseControllerConfig } from '../../src/controller/config.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, Capture, cli, EXAMPLE, ROOT, TOKEN } from '../e2e/helpers.js';
import { get, useControllerSuite, waitFor, WEBHOOK_TOKEN } from './helpers.js';

let emu: RunningEmulator;
const { tmp } = useControllerSuite('rcsctl-controller-config-', (e) => {
  emu = e;
});

const HEAD = 'apiVersion: rcsctl/v1\nkind: ControllerConfig\n';

function errorOf(text: string, env: Record<string, string> = {}): string {
  try {
    parseControllerConfig(text, 'controller.yaml', '/etc/rcsctl', env);
  } catch (err) {
    return (err as Error).message;
  }
  return 'no error';
}

describe('rcsctl controller --config', () => {
  it('names the file, line, column and field of each problem', () => {
    const cases: [string, string][] = [
      ['', 'controller.yaml:1:1: the configuration file is empty'],
      ['apiVersion: rcsctl/v2\nkind: ControllerConfig\n', 'controller.yaml:1:13: apiVersion: must be "rcsctl/v1"'],
      [`${HEAD}controller:\n  mode: fix\n`, 'controller.yaml:4:9: controller.mode: must be one of "observe", "apply"'],
      [`${HEAD}controller:\n  interval: often\n`, 'controller.yaml:4:13: controller.interval: must be a duration like 30s, 5m, 1h or 2d'],
      [`${HEAD}controller:\n  interval: 2d\n`, 'controller.yaml:4:13: controller.interval: is at most 24h, not "2d"'],
      [`${HEAD}controller:\n  lsten: 127.0.0.1:0\n`, 'controller.yaml:4:3: controller.lsten: unknown field'],
      [`${HEAD}syncWindows:\n  - kind: deny\n    duration: 1h\n`, 'controller.yaml:4:5: syncWindows[0]: missing schedule'],
      [`${HEAD}syncWindows:\n  - kind: deny\n    schedule: "0 25 * * *"\n    duration: 1h\n`, 'controller.yaml:5:15: syncWindows[0].schedule: "0 25 * * *" is not a cron expression'],
      [`${HEAD}syncWindows:\n  - kind: deny\n    schedule: "0 22 * * *"\n    duration: 1h\n    timeZone: Mars/Olympus\n`, 'controller.yaml:7:15: syncWindows[0].timeZone: "Mars/Olympus" is not a time zone'],
      [`${HEAD}notifications:\n  - name: ops\n    type: slack\n    url: \${env:SLACK_URL}\n`, 'controller.yaml:6:10: notifications[0].url: ${env:SLACK_URL} is not set'],
      [`${HEAD}notifications:\n  - name: ops\n    type: slack\n    url: http://127.0.0.1:1/x\n    triggers: [drifted, drifting]\n`, 'controller.yaml:7:25: notifications[0].triggers[1]: must be one of'],
      [`${HEAD}notifications:\n  - name: ops\n    type: slack\n    url: http://127.0.0.1:1/x\n    message: "{{brand}} {{status}}"\n`, 'controller.yaml:7:14: notifications[0].message: {{status}} is not a field; a message may use {{brand}}, {{event}}'],
      [`${HEAD}controller:\n  mode: apply\n  mode: observe\n`, 'controller.yaml:5:3: Map keys must be unique'],
      [`${HEAD}controller:\n  history: 0\n`, 'controller.yaml:4:12: controller.history: must be >= 1'],
    ];
    for (const [text, message] of cases) expect(errorOf(text), text).toContain(message);
  });

  it('the file\'s settings run the controller; a flag on the command line wins; a destination\'s URL from the environment stays out of the log', async () => {
    const file = join(tmp, 'controller.yaml');
    const secretUrl = 'http://127.0.0.1:9/services/T000/B000/secretpathvalue';
    writeFileSync(
      file,
      `${HEAD}controller:\n  paths: [${JSON.stringify(EXAMPLE)}]\n  listen: 127.0.0.1:0\n  logFormat: text\n  interval: 1h\nnotifications:\n  - name: ops\n    type: webhook\n    url: \${env:HOOK_URL}\n`,
    );
    const stdout = new Capture();
    const stderr = new Capture();
    const stop = new AbortController();
    const env = { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN, RCSCTL_WEBHOOK_TOKEN: WEBHOOK_TOKEN, RCSCTL_LOCK_DIR: join(tmp, 'locks'), HOME: tmp, HOOK_URL: secretUrl };
    const done = main(['controller', '--config', file, '--log-format', 'json', '--no-cache'], { stdout, stderr, env, cwd: tmp, signal: stop.signal });
    let ended = false;
    void done.finally(() => (ended = true));
    const started = await waitFor('the started line', async () => (ended ? 'ended' : /"event":"started","url":"([^"]+)"/.exec(stdout.text)?.[1]));
    expect(started, stderr.text).not.toBe('ended');
    // The flag (json) won over the file (text); the file's paths and listen were taken.
    const status = (await get(started, '/status')).body;
    expect(status.brands.map((b: { brandId: string }) => b.brandId)).toEqual([BRAND]);
    stop.abort();
    expect(await done, stderr.text).toBe(0);
    expect(stdout.text.split('\n').filter((l) => l !== '').every((l) => l.startsWith('{'))).toBe(true);
    expect(stdout.text + stderr.text).not.toContain('secretpathvalue');
  });

  it('the example in examples/ reads, every section of it', () => {
    const env = { SLACK_WEBHOOK_URL: 'https://hooks.example.com/services/T0/B0/x1', AUDIT_WEBHOOK_URL: 'https://audit.example.com/rcsctl', AUDIT_TOKEN: 'audit-token-0123' };
    const c = loadControllerConfig(join(ROOT, 'examples', 'controller-config.yaml'), ROOT, env);
    expect(c.controller).toMatchObject({ mode: 'apply', intervalMs: 600_000, reviewWarningMs: 7 * 86_400_000, paths: [join(ROOT, 'examples', 'brand')] });
    expect(c.suspend).toEqual([{ brand: 'BR.0000000002', reason: 'migrating to the new agency account' }]);
    expect(c.syncWindows.map((w) => [w.kind, w.durationMs, w.timeZone, w.brands, w.manualSync])).toEqual([
      ['deny', 60 * 3_600_000, 'Asia/Seoul', ['*'], true],
      ['deny', 4 * 3_600_000, 'Asia/Seoul', ['BR.shop*'], false],
    ]);
    expect(c.notifications.map((d) => [d.name, d.type, d.url, [...d.triggers].length])).toEqual([
      ['ops-slack', 'slack', env.SLACK_WEBHOOK_URL, 5],
      ['audit', 'webhook', env.AUDIT_WEBHOOK_URL, 3],
    ]);
    expect(c.notifications[1]!.headers).toEqual({ authorization: 'Bearer audit-token-0123' });
    expect(c.secrets.map((s) => s.value)).toContain('audit-token-0123');
  });

  it('an error in the file stops the command before it connects, naming file, line and field', async () => {
    const file = join(tmp, 'broken.yaml');
    writeFileSync(file, `${HEAD}controller:\n  mode: fix\n`);
    const r = await cli(['controller', EXAMPLE, '--config', file], { env: { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN, RCSCTL_WEBHOOK_TOKEN: WEBHOOK_TOKEN } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:4:9: controller.mode: must be one of "observe", "apply"`);
  });
});
