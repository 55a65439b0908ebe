// Each brand's pass history, in apply mode against the emulator over real
// HTTP: a console change the controller reverts is in the history with the
// notification that triggered it, the step's address, operation, the field
// before and after, its result and the manifest revision of the checkout;
// each applied step is one log line; a sensitive value is `(sensitive)` in
// /status and the log. The ring and its folding are checked on their own.

import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RcsClient } from '../../src/api/index.js';
import type { AutoReplyRequest } from '../../src/contract/wire.js';
import { CHANGES_KEPT, CHANGES_PER_PASS, changeRecords, PassHistory, stepsOf, STEPS_KEPT, type PassRecord } from '../../src/controller/history.js';
import type { StepResult } from '../../src/apply/execute.js';
import type { FieldChange } from '../../src/core/step.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { main } from '../../src/cli/main.js';
import { BRAND, Capture, EXAMPLE, TOKEN } from '../e2e/helpers.js';
import { brandStatus, get, pointWebhook, postWebhook, startFor, useControllerSuite, waitFor, waitState, WEBHOOK_TOKEN } from './helpers.js';

let emu: RunningEmulator;
let client: RcsClient;
const { running, tmp } = useControllerSuite('rcsctl-history-', (e, c) => {
  emu = e;
  client = c;
});

const FIRST = '1111111111111111111111111111111111111111';
const SECOND = '2222222222222222222222222222222222222222';
const CANARY = 'canary-7Hq2xZ';
const ORIGINAL = 'Mon-Fri 7:00-20:00, Sat-Sun 9:00-18:00. Closed on public holidays.';
const WANTED = `Mon-Fri 7:00-20:00. Door code \${env:RCS_SECRET}.`;
const SHOWN = 'Mon-Fri 7:00-20:00. Door code (sensitive).';

/** The example brand in a checkout at `commit` (a `.git` whose HEAD names main), its hours description from a sensitive variable. */
function checkoutAt(commit: string): { brands: string; commit(next: string): void } {
  const root = join(tmp, 'repo');
  const brands = join(root, 'brands');
  cpSync(EXAMPLE, brands, { recursive: true });
  const yaml = readFileSync(join(EXAMPLE, 'brand.yaml'), 'utf8');
  expect(yaml).toContain(ORIGINAL);
  writeFileSync(join(brands, 'brand.yaml'), yaml.replace(`"${ORIGINAL}"`, JSON.stringify(WANTED)));
  mkdirSync(join(root, '.git', 'refs', 'heads'), { recursive: true });
  writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(root, '.git', 'refs', 'heads', 'main'), `${commit}\n`);
  return { brands, commit: (next) => writeFileSync(join(root, '.git', 'refs', 'heads', 'main'), `${next}\n`) };
}

async function hoursId(): Promise<string> {
  for await (const item of client.autoReplies.list({ id: BRAND })) if (item.autoReplyMsgName === 'Opening hours') return item.autoReplyMsgId;
  throw new Error('no Opening hours auto-reply');
}

describe('the pass history', () => {
  it('a console change reverted in apply mode: trigger, step, fields before and after, result and revision', async () => {
    const repo = checkoutAt(FIRST);
    const { ctl, logs } = await startFor(emu, client, [repo.brands], { mode: 'apply', lockDir: join(tmp, 'locks'), env: { RCS_SECRET: CANARY } });
    running.push(ctl);
    await waitState(ctl.url, BRAND, ['waiting-review']);
    await pointWebhook(emu, ctl.url);
    const id = await hoursId();
    const hours = await client.autoReplies.get({ id: BRAND }, id);
    expect(hours.body.description).toBe(`Mon-Fri 7:00-20:00. Door code ${CANARY}.`);
    // Only the description changes in the console: the buttons and chips go back as they were.
    const { buttons, chipList } = hours as typeof hours & Pick<AutoReplyRequest, 'buttons' | 'chipList'>;
    await client.autoReplies.update({ id: BRAND }, id, { autoReplyMsgName: hours.autoReplyMsgName, messagebaseId: hours.messagebaseId, body: { ...hours.body, description: 'Closed for renovation' }, ...(buttons !== undefined ? { buttons } : {}), ...(chipList !== undefined ? { chipList } : {}) });
    // (A late event of the checkout's creation may bring a pass of its own first: wait for the revert itself.)
    await waitFor('the change to be reverted', async () => ((await client.autoReplies.get({ id: BRAND }, id)).body.description === `Mon-Fri 7:00-20:00. Door code ${CANARY}.` ? true : undefined));
    const raw = await waitFor('the revert in the history', async () => {
      const r = await get(ctl.url, `/status/${BRAND}`);
      return (r.body.history as PassRecord[]).some((p) => p.triggers.some((t) => t.kind === 'notification') && (p.steps ?? []).length > 0) ? r : undefined;
    });
    expect(JSON.stringify(raw.body)).not.toContain(CANARY);
    const history = raw.body.history as PassRecord[];
    // Newest first: the revert, after the first pass that applied the manifest's text over the example's.
    // (The revert's own write is notified too, and may have brought a quiet pass since.)
    const revert = history.find((p) => p.triggers.some((t) => t.kind === 'notification') && p.steps !== undefined && p.steps.length > 0);
    expect(revert).toMatchObject({ mode: 'apply', outcome: 'waiting-review', revision: { commit: FIRST, source: 'git', ref: 'refs/heads/main' } });
    expect(revert!.triggers).toContainEqual({ kind: 'notification', type: 'autoreplymsg', method: 'modified' });
    expect(revert!.steps).toEqual([{ address: 'autoReply.hours', op: 'update', result: 'done', message: expect.any(String), changes: [{ path: 'body.description', type: 'change', before: 'Closed for renovation', after: SHOWN }] }]);
    expect(Date.parse(revert!.startedAt)).toBeGreaterThanOrEqual(Date.parse(history.at(-1)!.startedAt));
    expect(revert!.durationMs).toBeGreaterThanOrEqual(0);
    // The pass that first applied the manifest over the example's text (a resync's, at start).
    const start = history.find((p) => (p.steps ?? []).some((st) => st.changes[0]?.before === ORIGINAL));
    expect(start, JSON.stringify(history, null, 1)).toMatchObject({ outcome: 'waiting-review', revision: { commit: FIRST } });
    expect(start!.triggers).toContainEqual({ kind: 'resync' });
    expect(start!.steps).toContainEqual(expect.objectContaining({ address: 'autoReply.hours', op: 'update', result: 'done', changes: [{ path: 'body.description', type: 'change', before: ORIGINAL, after: SHOWN }] }));

    // One structured log line per step sent, through the same redaction.
    expect(logs.join('\n')).not.toContain(CANARY);
    const lines = logs.map((l) => JSON.parse(l)).filter((l) => l.event === 'apply.step' && l.address === 'autoReply.hours');
    expect(lines.at(-1)).toMatchObject({ level: 'info', brand: BRAND, op: 'update', result: 'done', revision: FIRST, why: expect.arrayContaining(['notification autoreplymsg modified']), changes: [{ path: 'body.description', before: 'Closed for renovation', after: SHOWN }] });
    expect(lines).toHaveLength(2);

    // A new commit: the next pass records it.
    repo.commit(SECOND);
    writeFileSync(join(repo.brands, 'brand.yaml'), readFileSync(join(repo.brands, 'brand.yaml'), 'utf8').replace('Door code', 'Gate code'));
    // (The revert's own write may still bring a quiet pass first: wait for the one that applies the commit.)
    const next = await waitFor('the new commit applied', async () => ((await get(ctl.url, `/status/${BRAND}`)).body.history as PassRecord[]).find((p) => p.revision?.commit === SECOND && (p.steps ?? []).length > 0));
    expect(next.triggers).toContainEqual({ kind: 'manifests' });
    expect(next.steps?.[0]?.changes).toEqual([{ path: 'body.description', type: 'change', before: 'Mon-Fri 7:00-20:00. Door code (sensitive).', after: 'Mon-Fri 7:00-20:00. Gate code (sensitive).' }]);
  });

  it('observe mode records each pass without steps; quiet repeats fold into one entry', async () => {
    const { ctl } = await startFor(emu, client, [EXAMPLE], { intervalMs: 300 });
    running.push(ctl);
    const s = await waitFor('three resyncs', async () => {
      const b = await brandStatus(ctl.url, BRAND);
      return b.passes >= 3 && b.state !== 'reconciling' ? b : undefined;
    });
    const history = (s as unknown as { history: PassRecord[] }).history;
    expect(history).toHaveLength(1);
    // The first test left the live brand as its own manifest says, not as the example does: each pass finds the same step.
    expect(history[0]).toMatchObject({ mode: 'observe', outcome: s.state, planned: s.counts!.steps, triggers: [{ kind: 'resync' }] });
    expect(history[0]!.steps).toBeUndefined();
    expect(history[0]!.count).toBeGreaterThanOrEqual(2);
    expect(Date.parse(history[0]!.lastStartedAt!)).toBeGreaterThan(Date.parse(history[0]!.startedAt));
  });
});

describe('--history and the configuration file', () => {
  it("the file's history: 1 keeps one entry per brand, where the default keeps two passes triggered differently", async () => {
    const file = join(tmp, 'controller.yaml');
    writeFileSync(file, `apiVersion: rcsctl/v1\nkind: ControllerConfig\ncontroller:\n  listen: 127.0.0.1:0\n  interval: 1h\n  history: 1\n`);
    for (const [args, entries] of [[['--config', file], 1], [['--listen', '127.0.0.1:0', '--interval', '1h'], 2]] as const) {
      const stdout = new Capture();
      const stop = new AbortController();
      const env = { RCSCTL_BASE_URL: emu.url, RCSCTL_TOKEN: TOKEN, RCSCTL_WEBHOOK_TOKEN: WEBHOOK_TOKEN, RCSCTL_LOCK_DIR: join(tmp, 'locks'), HOME: tmp };
      const done = main(['controller', EXAMPLE, ...args, '--no-cache'], { stdout, stderr: new Capture(), env, cwd: tmp, signal: stop.signal });
      try {
        const url = await waitFor('the started line', async () => /"event":"started","url":"([^"]+)"/.exec(stdout.text)?.[1]);
        const first = await waitFor('the first pass', async () => ((await brandStatus(url, BRAND)).passes > 0 ? brandStatus(url, BRAND) : undefined));
        // A pass of another trigger: an entry of its own, unless only one is kept.
        await postWebhook(url, JSON.stringify([{ notiType: 'autoreplymsg', method: 'modified', brandId: BRAND }]));
        await waitFor('the notified pass', async () => ((await brandStatus(url, BRAND)).passes > first.passes ? true : undefined));
        const history = (await get(url, `/status/${BRAND}`)).body.history as PassRecord[];
        expect(history, args.join(' ')).toHaveLength(entries);
        expect(history[0]!.triggers).toEqual([{ kind: 'notification', type: 'autoreplymsg', method: 'modified' }]);
      } finally {
        stop.abort();
        await done;
      }
    }
  });
});

describe('PassHistory', () => {
  const pass = (over: Partial<PassRecord>): PassRecord => ({ startedAt: '2026-01-01T00:00:00.000Z', durationMs: 5, mode: 'apply', triggers: [{ kind: 'resync' }], outcome: 'in-sync', planned: 0, ...over });

  it('keeps the last `size` entries, newest first', () => {
    const h = new PassHistory(3);
    for (let i = 0; i < 5; i++) h.add(pass({ startedAt: `2026-01-01T00:00:0${i}.000Z`, steps: [{ address: `autoReply.a${i}`, op: 'update', result: 'done', message: '', changes: [] }] }));
    expect(h.list().map((p) => p.startedAt)).toEqual(['2026-01-01T00:00:04.000Z', '2026-01-01T00:00:03.000Z', '2026-01-01T00:00:02.000Z']);
  });

  it('folds a quiet pass into the one before only when it ended the same way', () => {
    const h = new PassHistory(10);
    h.add(pass({}));
    h.add(pass({ startedAt: '2026-01-01T00:10:00.000Z', durationMs: 7 }));
    expect(h.list()).toEqual([pass({ count: 2, lastStartedAt: '2026-01-01T00:10:00.000Z', durationMs: 7 })]);
    // Another outcome, trigger kind, revision or error is an entry of its own; so is any pass that ran a step.
    h.add(pass({ outcome: 'drifted', planned: 1 }));
    h.add(pass({ outcome: 'drifted', planned: 1, triggers: [{ kind: 'notification', type: 'autoreplymsg' }] }));
    h.add(pass({ outcome: 'drifted', planned: 1, triggers: [{ kind: 'notification', type: 'chatbot' }] }));
    h.add(pass({ outcome: 'drifted', planned: 1, triggers: [{ kind: 'notification', type: 'chatbot' }], revision: { commit: FIRST, source: 'git' } }));
    h.add(pass({ outcome: 'failed', error: { code: 'E_NETWORK', message: 'refused' } }));
    h.add(pass({ outcome: 'failed', error: { code: 'E_NETWORK', message: 'reset' } }));
    h.add(pass({ steps: [{ address: 'autoReply.a', op: 'update', result: 'done', message: '', changes: [] }] }));
    h.add(pass({ steps: [{ address: 'autoReply.a', op: 'update', result: 'done', message: '', changes: [] }] }));
    expect(h.list().map((p) => p.count ?? 1)).toEqual([1, 1, 1, 1, 1, 2, 1, 2]);
  });

  it('bounds what a pass keeps: steps, changes a step and a pass, long values shortened', () => {
    const change = (i: number): FieldChange => ({ path: `body.f${i}`, type: 'change', before: 'x'.repeat(10_000), after: `v${i}` });
    const one = changeRecords(Array.from({ length: CHANGES_KEPT + 10 }, (_, i) => change(i)));
    expect(one.changes).toHaveLength(CHANGES_KEPT);
    expect(one.changesOmitted).toBe(10);
    expect(JSON.stringify(one.changes[0]!.before).length).toBeLessThan(400);
    const step = (i: number, changes: number): StepResult => ({ status: 'done', message: 'updated', step: { address: `autoReply.a${i}`, op: 'update', changes: Array.from({ length: changes }, (_, j) => change(j)) } as unknown as StepResult['step'] });
    const { steps, stepsOmitted } = stepsOf(Array.from({ length: STEPS_KEPT + 5 }, (_, i) => step(i, CHANGES_KEPT)));
    expect(steps).toHaveLength(STEPS_KEPT);
    expect(stepsOmitted).toBe(5);
    expect(steps!.reduce((n, s) => n + s.changes.length, 0)).toBe(CHANGES_PER_PASS);
    expect(steps!.at(-1)).toMatchObject({ changes: [], changesOmitted: CHANGES_KEPT });
    expect(JSON.stringify(steps).length).toBeLessThan(500_000);
  });
});
