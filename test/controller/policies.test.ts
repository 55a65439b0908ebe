// The controller checks the repository's policy rules (`kind: Policy`,
// docs/policies.md) on each brand's plan before it applies it: a plan that
// breaks a rule of severity error is not applied (the brand is blocked, the
// rule's name and message in /status, the log and the brand's page); a
// warning is reported and the plan applied; a change to a rule file checks
// every brand again; a rule file with errors applies no brand. In-process,
// against the emulator over real HTTP.

import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BRAND, EXAMPLE } from '../e2e/helpers.js';
import { brandStatus, get, startFor, useControllerSuite, waitFor, waitState } from './helpers.js';

let emu: RunningEmulator;
let client: RcsClient;
const suite = useControllerSuite('rcsctl-controller-policies-', (e, c) => {
  emu = e;
  client = c;
});

const SHORT = 'https://bit.ly/acme7';

/** The live location auto-reply's button URL. */
function liveUrl(): string | undefined {
  const found = [...(emu.store.brands.get(BRAND)?.autoReplies.values() ?? [])].find((a) => JSON.stringify(a).includes('"Location"'));
  return JSON.stringify(found).match(/https?:\/\/[^"\\]+/)?.[0];
}

const rules = (opts: { exception?: boolean } = {}): string =>
  [
    'apiVersion: rcsctl/v1',
    'kind: Policy',
    'rules:',
    '  - name: no-link-shorteners',
    '    check: value',
    '    where: type(value) == string',
    "    expression: \"!urls(value).exists(u, urlHost(u) in ['bit.ly', 'tinyurl.com'])\"",
    '    message: a link shortener hides where the link goes; link to the page itself',
    ...(opts.exception === true ? ['    exceptions:', `      - { brand: ${BRAND}, reason: "the printed flyers carry this link until March" }`] : []),
    '  - name: brand-has-owners',
    '    severity: warning',
    '    check: brand',
    '    expression: size(brand.owners) > 0',
    '    message: name the brand\'s owners (brand.owners)',
    '',
  ].join('\n');

describe('rcsctl controller and policy rules', () => {
  it('refuses to apply a plan that breaks an error rule (blocked, named in /status, the log and the page); warnings are reported; a rule file change checks the brand again', async () => {
    const repo = join(suite.tmp, 'repo');
    cpSync(EXAMPLE, join(repo, 'brand'), { recursive: true });
    mkdirSync(join(repo, 'policies'));
    const brandFile = join(repo, 'brand', 'brand.yaml');
    writeFileSync(brandFile, readFileSync(brandFile, 'utf8').replace('https://example.com/coffee-co/map', SHORT));
    const ruleFile = join(repo, 'policies', 'rules.yaml');
    writeFileSync(ruleFile, rules());
    const before = liveUrl();
    expect(before).toBe('https://example.com/coffee-co/map');

    const { ctl, logs } = await startFor(emu, client, [join(repo, 'brand'), join(repo, 'policies')], { mode: 'apply', lockDir: join(suite.tmp, 'locks') });
    suite.running.push(ctl);
    const blocked = await waitState(ctl.url, BRAND, ['blocked']);
    const urlLine = readFileSync(brandFile, 'utf8').split('\n').findIndex((l) => l.includes(SHORT)) + 1;
    const reason = blocked.pendingReasons.find((r) => r.includes('no-link-shorteners'));
    expect(reason).toBe(
      `policy error [no-link-shorteners]: /autoReplies/location/buttons/0/suggestions/0/action/urlAction/openUrl/url: a link shortener hides where the link goes; link to the page itself (${join(repo, 'brand', 'brand.yaml')}:${urlLine}; rule no-link-shorteners at ${ruleFile}:4); nothing is applied for this brand`,
    );
    // The warning is reported beside it.
    expect(blocked.pendingReasons).toContainEqual(expect.stringMatching(/^policy warning \[brand-has-owners\]: name the brand's owners \(brand\.owners\)/));
    // Nothing was sent: the live link is the one before.
    expect(liveUrl()).toBe(before);
    const detail = (await brandStatus(ctl.url, BRAND)) as unknown as { policy?: { rule: string; severity: string; message: string; ruleFile: string; ruleLine: number }[]; steps?: { address: string }[] };
    expect(detail.policy?.map((v) => [v.rule, v.severity])).toEqual([
      ['no-link-shorteners', 'error'],
      ['brand-has-owners', 'warning'],
    ]);
    expect(detail.steps?.map((s) => s.address)).toContain('autoReply.location');
    // The log: one line per violation, at its severity.
    const lines = logs.map((l) => JSON.parse(l) as { level: string; event: string; brand?: string; rule?: string; message?: string; applied?: string });
    expect(lines).toContainEqual(expect.objectContaining({ level: 'error', event: 'policy', brand: BRAND, rule: 'no-link-shorteners', applied: 'no', message: expect.stringContaining('a link shortener hides where the link goes') }));
    expect(lines).toContainEqual(expect.objectContaining({ level: 'warn', event: 'policy', brand: BRAND, rule: 'brand-has-owners', applied: 'yes' }));
    expect(lines).toContainEqual(expect.objectContaining({ event: 'brand.state', brand: BRAND, to: 'blocked' }));
    // The brand's page says why.
    const page = await get(ctl.url, `/brands/${BRAND}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('policy error [no-link-shorteners]');
    expect(page.body).toContain('a link shortener hides where the link goes');

    // An exception for the brand, in the rule file alone: the controller checks the brand again and applies.
    writeFileSync(ruleFile, rules({ exception: true }));
    await waitFor('the excepted link to be applied', async () => (liveUrl() === SHORT ? true : undefined));
    const after = await waitState(ctl.url, BRAND, ['waiting-review', 'in-sync', 'drifted'], blocked.passes);
    expect(after.pendingReasons.some((r) => r.includes('no-link-shorteners'))).toBe(false);
    expect(after.pendingReasons).toContainEqual(expect.stringMatching(/^policy warning \[brand-has-owners\]/));
  }, 60_000);

  it('a rule file with errors: no brand is applied without the rules (failed, naming the file and line)', async () => {
    const repo = join(suite.tmp, 'repo-broken');
    cpSync(EXAMPLE, join(repo, 'brand'), { recursive: true });
    mkdirSync(join(repo, 'policies'));
    const brandFile = join(repo, 'brand', 'brand.yaml');
    writeFileSync(brandFile, readFileSync(brandFile, 'utf8').replace(SHORT, 'https://example.com/coffee-co/map2').replace('https://example.com/coffee-co/map', 'https://example.com/coffee-co/map2'));
    writeFileSync(join(repo, 'policies', 'rules.yaml'), 'apiVersion: rcsctl/v1\nkind: Policy\nrules:\n  - name: typo\n    chekc: value\n    expression: "true"\n    message: x\n');
    const live = liveUrl();
    const { ctl } = await startFor(emu, client, [join(repo, 'brand'), join(repo, 'policies')], { mode: 'apply', lockDir: join(suite.tmp, 'locks-broken') });
    suite.running.push(ctl);
    // The brand fails as its manifests are read: no pass runs.
    const failed = await waitFor('the brand to fail', async () => {
      const s = await brandStatus(ctl.url, BRAND);
      return s.state === 'failed' ? s : undefined;
    });
    expect(failed.pendingReasons[0]).toBe(`the policy rules could not be read, so nothing is applied without them: ${join(repo, 'policies', 'rules.yaml')}:4:5: RCS801 the rule has no \`check:\``);
    expect(liveUrl()).toBe(live);
  }, 60_000);

  it('in observe mode, a plan that breaks an error rule reads blocked too: what apply mode would refuse', async () => {
    const repo = join(suite.tmp, 'repo-observe');
    cpSync(EXAMPLE, join(repo, 'brand'), { recursive: true });
    mkdirSync(join(repo, 'policies'));
    const brandFile = join(repo, 'brand', 'brand.yaml');
    writeFileSync(brandFile, readFileSync(brandFile, 'utf8').replace('https://example.com/coffee-co/map', 'https://tinyurl.com/acme7'));
    writeFileSync(join(repo, 'policies', 'rules.yaml'), rules());
    const live = liveUrl();
    const { ctl } = await startFor(emu, client, [join(repo, 'brand'), join(repo, 'policies')]);
    suite.running.push(ctl);
    const blocked = await waitState(ctl.url, BRAND, ['blocked']);
    expect(blocked.pendingReasons[0]).toMatch(/^policy error \[no-link-shorteners\]: \/autoReplies\/location\/.*: a link shortener hides where the link goes; link to the page itself \(.*; rule no-link-shorteners at .*rules\.yaml:4\); nothing is applied for this brand$/);
    expect(liveUrl()).toBe(live);
  }, 60_000);
});
