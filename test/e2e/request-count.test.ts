// Cost (issue 38): every summary gives the requests the run made and how many
// were answered 429; the numbers are the emulator's own count of what it
// received (its request log), in plan, drift, apply, doctor and report merge,
// in each of their formats (and the one-line summaries `--output` leaves on
// stdout), and with the rate limit refusing some.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { admin, cli, emulator, EXAMPLE } from './helpers.js';

let emu: RunningEmulator;
const env = { RCSCTL_CACHE_DIR: '', RCSCTL_PERSON_ID: 'master' };

/** The emulator's log since the last call: how many requests, how many refused with 429. */
async function served(): Promise<{ requests: number; rateLimited: number }> {
  const log = (await admin(emu, 'GET', 'requests')) as { requests: { status: number }[] };
  await admin(emu, 'DELETE', 'requests');
  return { requests: log.requests.length, rateLimited: log.requests.filter((r) => r.status === 429).length };
}

beforeAll(async () => {
  emu = await emulator();
});
afterAll(async () => {
  await emu.close();
});

describe('requests in every summary', () => {
  it('plan: the JSON plan gives the emulator\'s count', async () => {
    await served();
    const json = await cli(['plan', EXAMPLE, '--format', 'json', '--no-cache'], { emu, env });
    const file = JSON.parse(json.stdout) as { requests: { requests: number; rateLimited: number } };
    const count = await served();
    expect(count.requests).toBeGreaterThan(5);
    expect(file.requests).toEqual(count);
  });

  it('drift: the JSON report gives the count', async () => {
    await served();
    const json = await cli(['drift', EXAMPLE, '--format', 'json', '--no-cache'], { emu, env });
    expect((JSON.parse(json.stdout) as { requests: unknown }).requests).toEqual(await served());
  });

  it('plan: the text and Markdown views give the count in their summary', async () => {
    await served();
    const text = await cli(['plan', EXAMPLE, '--no-cache'], { emu, env });
    const t = await served();
    // Above the summary line, which stays the last.
    expect(text.stdout.trimEnd().split('\n').slice(-2)).toEqual([`Requests: ${t.requests} requests, ${t.rateLimited} answered 429.`, expect.stringMatching(/^Plan: /)]);
    const md = await cli(['plan', EXAMPLE, '--format', 'markdown', '--no-cache'], { emu, env });
    const m = await served();
    expect(md.stdout).toContain(`\nRequests: ${m.requests} requests, ${m.rateLimited} answered 429.\n`);
  });

  it('drift: the text, Markdown and JUnit views give the count', async () => {
    for (const format of ['text', 'markdown', 'junit']) {
      await served();
      const out = await cli(['drift', EXAMPLE, '--format', format, '--no-cache'], { emu, env });
      const c = await served();
      expect(out.stdout, format).toContain(`Requests: ${c.requests} requests, ${c.rateLimited} answered 429.`);
    }
  });

  it('apply, with the rate limit refusing some: the 429s are counted too', async () => {
    await admin(emu, 'POST', 'rate-limit', { perSecond: 15 });
    try {
      await served();
      const json = await cli(['apply', EXAMPLE, '--yes', '--format', 'json', '--no-cache', '--allow-review'], { emu, env });
      const doc = JSON.parse(json.stdout) as { requests: { requests: number; rateLimited: number } };
      const count = await served();
      expect(count.rateLimited, 'the limit refused nothing: the test says nothing about 429s').toBeGreaterThan(0);
      expect(doc.requests).toEqual(count);
    } finally {
      await admin(emu, 'POST', 'rate-limit', { perSecond: 0 });
    }
  });

  // After the apply above (which must meet the rate limit on a brand with changes): nothing left to apply, still counted.
  it('apply: the text view gives the count above its verdict', async () => {
    await served();
    const run = await cli(['apply', EXAMPLE, '--yes', '--no-cache', '--allow-review'], { emu, env });
    const c = await served();
    expect(run.stdout.trimEnd().split('\n').slice(-3)).toEqual([`Requests: ${c.requests} requests, ${c.rateLimited} answered 429.`, '', expect.stringMatching(/^(Apply complete|Nothing to apply|Apply finished)/)]);
  });

  it('doctor: the text and JSON reports give the count, 429s included', async () => {
    await served();
    const text = await cli(['doctor', EXAMPLE], { emu, env });
    const t = await served();
    expect(text.code, text.stdout).toBe(0);
    expect(t.requests).toBeGreaterThan(5);
    // Above the verdict, which stays the last line.
    expect(text.stdout.trimEnd().split('\n').slice(-3)).toEqual([`Requests: ${t.requests} requests, ${t.rateLimited} answered 429.`, '', 'Every assumption checked holds.']);
    const json = await cli(['doctor', EXAMPLE, '--format', 'json'], { emu, env });
    expect((JSON.parse(json.stdout) as { requests: unknown }).requests).toEqual(await served());
    await admin(emu, 'POST', 'rate-limit', { perSecond: 4 });
    try {
      await served();
      const limited = await cli(['doctor', EXAMPLE, '--format', 'json'], { emu, env });
      const c = await served();
      expect(c.rateLimited, 'the limit refused nothing: the test says nothing about 429s').toBeGreaterThan(0);
      expect((JSON.parse(limited.stdout) as { requests: unknown }).requests).toEqual(c);
    } finally {
      await admin(emu, 'POST', 'rate-limit', { perSecond: 0 });
    }
  }, 60_000);

  it('drift --output: the summary line on stdout gives the count', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcsctl-request-count-'));
    try {
      await served();
      const run = await cli(['drift', EXAMPLE, '--format', 'json', '--output', join(dir, 'drift.json'), '--no-cache'], { emu, env });
      const c = await served();
      expect(run.stdout.split('\n')[1]).toBe(`Requests: ${c.requests} requests, ${c.rateLimited} answered 429.`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('report merge: the shards\' counts added up, in every format and in the line --output leaves on stdout, 429s included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcsctl-request-count-'));
    try {
      // Two runs of the drift check and one plan, the second drift under a rate limit that refuses some.
      await served();
      await cli(['drift', EXAMPLE, '--format', 'json', '--output', join(dir, 'a.json'), '--no-cache'], { emu, env });
      const a = await served();
      await admin(emu, 'POST', 'rate-limit', { perSecond: 4 });
      let b: { requests: number; rateLimited: number };
      try {
        await cli(['drift', EXAMPLE, '--format', 'json', '--output', join(dir, 'b.json'), '--no-cache'], { emu, env });
        b = await served();
      } finally {
        await admin(emu, 'POST', 'rate-limit', { perSecond: 0 });
      }
      expect(b.rateLimited, 'the limit refused nothing: the test says nothing about 429s').toBeGreaterThan(0);
      const sum = { requests: a.requests + b.requests, rateLimited: a.rateLimited + b.rateLimited };
      const line = `Requests: ${sum.requests} requests, ${sum.rateLimited} answered 429.`;
      const doc = (n: string) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as { requests: unknown; brands: unknown[] };
      expect(doc('a.json').requests).toEqual(a);
      expect(doc('b.json').requests).toEqual(b);
      // Two reports of one brand would be refused as overlapping shards: the second keeps its count, not the brand.
      for (const [n, c] of [['a', a], ['b', b]] as const) writeFileSync(join(dir, `${n}-only.json`), JSON.stringify({ ...doc(`${n}.json`), ...(n === 'b' ? { brands: [] } : {}), requests: c }));
      const files = [join(dir, 'a-only.json'), join(dir, 'b-only.json')];
      for (const format of ['text', 'markdown', 'junit']) {
        const out = await cli(['report', 'merge', ...files, '--format', format]);
        expect(out.stdout, format).toContain(line);
      }
      const json = await cli(['report', 'merge', ...files, '--format', 'json']);
      expect((JSON.parse(json.stdout) as { requests: unknown }).requests).toEqual(sum);
      const written = await cli(['report', 'merge', ...files, '--output', join(dir, 'merged.txt')]);
      expect(written.stdout.split('\n')[1]).toBe(line);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
