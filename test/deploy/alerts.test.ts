// The alerting rules of examples/controller/prometheusrule.yaml, tested the
// way Prometheus evaluates them: the PrometheusRule's groups are written out
// as a plain rule file, `promtool check rules` checks it, and `promtool test
// rules` runs the cases of test/deploy/alerts.test.yaml (series in, alerts
// with their labels and annotations out, at given times). promtool comes
// from the Debian `prometheus` package, which .ci/run installs; elsewhere
// (a bare `npm test`) the promtool test is skipped with a warning on stderr,
// and with CI set it fails instead.

import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../e2e/helpers.js';

const RULE_FILE = join(ROOT, 'examples', 'controller', 'prometheusrule.yaml');
const CASES = join(ROOT, 'test', 'deploy', 'alerts.test.yaml');

type Obj = Record<string, any>;
const groups = (parse(readFileSync(RULE_FILE, 'utf8')) as Obj).spec.groups as Obj[];
const alerts = groups.flatMap((g) => g.rules as Obj[]).map((r) => r.alert as string);
const cases = (parse(readFileSync(CASES, 'utf8')) as Obj).tests as Obj[];

/** promtool's path: $PROMTOOL, or promtool on the PATH; undefined when neither runs. */
function findPromtool(): string | undefined {
  const candidate = process.env.PROMTOOL ?? 'promtool';
  return spawnSync(candidate, ['--version'], { stdio: 'ignore' }).status === 0 ? candidate : undefined;
}

const promtool = findPromtool();
const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
if (promtool === undefined && !inCi) {
  process.stderr.write(
    '\n*** SKIPPED: test/deploy/alerts.test.ts cannot run `promtool test rules`: promtool is not installed.\n' +
      '*** Install it (Debian: apt-get install prometheus) or set PROMTOOL to its path. With CI set, this fails.\n\n',
  );
}

const tmp = mkdtempSync(join(tmpdir(), 'rcsctl-alerts-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('examples/controller/prometheusrule.yaml: the alerts', () => {
  it('holds the alerts issue 36 asks for, and every alert has a promtool case', () => {
    for (const name of ['RcsControllerAbsent', 'RcsControllerNotReady', 'RcsBrandNoSuccessfulPass', 'RcsServiceUnreachable', 'RcsServiceUnauthorized', 'RcsBrandFailed', 'RcsReviewWaitingTooLong']) expect(alerts).toContain(name);
    const tested = new Set(cases.flatMap((c) => (c.alert_rule_test as Obj[]).map((t) => t.alertname as string)));
    expect(alerts.filter((a) => !tested.has(a))).toEqual([]);
    // Each alert also has a case where it fires.
    const fires = new Set(cases.flatMap((c) => (c.alert_rule_test as Obj[]).filter((t) => (t.exp_alerts as Obj[]).length > 0).map((t) => t.alertname as string)));
    expect(alerts.filter((a) => !fires.has(a))).toEqual([]);
  });

  it.skipIf(promtool === undefined && !inCi)('promtool check rules, then promtool test rules with the cases of test/deploy/alerts.test.yaml', () => {
    if (promtool === undefined) throw new Error('CI is set but promtool is not installed: .ci/run installs the Debian prometheus package (apt-get install prometheus)');
    writeFileSync(join(tmp, 'rules.yaml'), stringify({ groups }));
    copyFileSync(CASES, join(tmp, 'alerts.test.yaml'));
    const run = (args: string[]): string => {
      try {
        return execFileSync(promtool, args, { cwd: tmp, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (err) {
        const e = err as { stdout?: string; stderr?: string };
        throw new Error(`promtool ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
      }
    };
    expect(run(['check', 'rules', 'rules.yaml'])).toMatch(new RegExp(`SUCCESS: ${alerts.length} rules found`));
    expect(run(['test', 'rules', 'alerts.test.yaml'])).toMatch(/SUCCESS/);
  });

  it.skipIf(promtool === undefined && !inCi)('promtool fails a case the rules do not meet (the harness can fail)', () => {
    if (promtool === undefined) throw new Error('CI is set but promtool is not installed');
    // The failing-brand alert without its 15 minutes: the case expecting silence at 14m must fail.
    const hasty = groups.map((g) => ({ ...g, rules: (g.rules as Obj[]).map((r) => (r.alert === 'RcsBrandFailed' ? { ...r, for: '1m' } : r)) }));
    writeFileSync(join(tmp, 'rules.yaml'), stringify({ groups: hasty }));
    copyFileSync(CASES, join(tmp, 'alerts.test.yaml'));
    const r = spawnSync(promtool!, ['test', 'rules', 'alerts.test.yaml'], { cwd: tmp, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(`${r.stdout}${r.stderr}`).toMatch(/alertname: RcsBrandFailed, time: 14m/);
  });
});
