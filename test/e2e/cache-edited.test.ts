// A live cache edited by hand (valid JSON, wrong content). A cached detail is
// served only when the list just read shows that very version: the entry's
// own id and updateDate must be the list item's. An entry that says another
// version, or another object, is a cache miss and is read again, so neither
// plan nor apply's verdict rests on it. An edit that keeps the id and the
// updateDate and changes only the content cannot be told from a true entry
// without reading the detail; docs/configuration.md says so, and `--no-cache`
// is the way round it (shown last).

import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { cli, emulator, ROOT } from './helpers.js';

const BRAND_CASE = join(ROOT, 'test', 'plan-cases', '026-example-brand-after-apply');
const TEMPLATE_CASE = join(ROOT, 'test', 'plan-cases', '062-template-change-on-approved-needs-review');

let emu: RunningEmulator | undefined;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-cache-edited-'));
});
afterEach(async () => {
  await emu?.close();
  emu = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ XDG_CACHE_HOME: join(dir, 'cache') });

/** A cached detail with the entry that holds it (whatever the cache file's layout). */
interface Cached {
  entry: Record<string, unknown>;
  detail: Record<string, unknown>;
}

/** Let `edit` change every cached detail that `pick` selects, in every cache file, and write the files back. */
function editCache(pick: (detail: Record<string, unknown>) => boolean, edit: (found: Cached[]) => void): number {
  const root = join(dir, 'cache', 'rcsctl');
  let count = 0;
  for (const name of readdirSync(root).filter((f) => f.endsWith('.json'))) {
    const file = JSON.parse(readFileSync(join(root, name), 'utf8')) as unknown;
    const found: Cached[] = [];
    const walk = (v: unknown): void => {
      if (v === null || typeof v !== 'object') return;
      const o = v as Record<string, unknown>;
      if (o.detail !== null && typeof o.detail === 'object' && pick(o.detail as Record<string, unknown>)) found.push({ entry: o, detail: o.detail as Record<string, unknown> });
      else for (const child of Object.values(o)) walk(child);
    };
    walk(file);
    if (found.length === 0) continue;
    edit(found);
    count += found.length;
    writeFileSync(join(root, name), JSON.stringify(file));
  }
  return count;
}

/** The example brand's manifests with every auto-reply description changed: five updates the live service lacks. */
function changedManifests(): string {
  const out = join(dir, 'manifests');
  cpSync(join(BRAND_CASE, 'manifests'), out, { recursive: true });
  const yaml = readFileSync(join(out, 'brand.yaml'), 'utf8');
  writeFileSync(join(out, 'brand.yaml'), yaml.replace(/^( {6}description: ".*)"$/gm, '$1 (v2)"'));
  return out;
}

/** A cached auto-reply detail made to hold what `changedManifests` asks for. */
function claimChanged(detail: Record<string, unknown>): void {
  const body = detail.body as Record<string, unknown>;
  if (typeof body.description === 'string') body.description += ' (v2)';
}

const isAutoReply = (d: Record<string, unknown>) => typeof d.autoReplyMsgId === 'string';

async function warmPlan(manifests: string): Promise<void> {
  const warm = await cli(['plan', manifests], { emu, env: env() });
  expect(warm.code, warm.stderr).toBe(0);
}

describe('a live cache edited by hand', () => {
  it('an auto-reply entry that says another updateDate is read again: apply makes the five updates the cache claimed were made', async () => {
    emu = await emulator(join(BRAND_CASE, 'seed.yaml'));
    await warmPlan(join(BRAND_CASE, 'manifests'));
    const edited = editCache(isAutoReply, (found) => {
      for (const { detail } of found) {
        claimChanged(detail);
        detail.updateDate = '2030-01-01 00:00:00';
      }
    });
    expect(edited).toBe(6);
    const manifests = changedManifests();

    const planned = await cli(['plan', manifests], { emu, env: env() });
    expect(planned.stdout).toContain('Plan: 0 to create, 5 to update, 0 to delete');
    const applied = await cli(['apply', '--yes', manifests], { emu, env: env() });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).not.toContain('Nothing to apply');
    expect(applied.stdout).toContain('Apply complete: the live service matches the manifests.');
    // The service has them: a plan that reads every detail finds nothing to do.
    const fresh = await cli(['plan', '--no-cache', manifests], { emu, env: env() });
    expect(fresh.stdout).toContain('No changes.');
  });

  it('an auto-reply entry filed under another id (its updateDate copied too) is read again', async () => {
    emu = await emulator(join(BRAND_CASE, 'seed.yaml'));
    await warmPlan(join(BRAND_CASE, 'manifests'));
    editCache(isAutoReply, (found) => {
      // Each entry gets the next one's detail, changed as the manifests ask, dated as its own list item.
      const details = found.map(({ detail }) => structuredClone(detail));
      found.forEach(({ entry, detail }, i) => {
        const other = details[(i + 1) % details.length] as Record<string, unknown>;
        claimChanged(other);
        entry.detail = { ...other, updateDate: detail.updateDate };
      });
    });
    const planned = await cli(['plan', changedManifests()], { emu, env: env() });
    expect(planned.stdout).toContain('Plan: 0 to create, 5 to update, 0 to delete');
  });

  it('a template entry that says another updateDate is read again', async () => {
    emu = await emulator(join(TEMPLATE_CASE, 'seed.yaml'));
    // The live template, before the manifest's change: the plan shows the change and caches the detail.
    const manifest = join(TEMPLATE_CASE, 'manifest.yaml');
    const before = await cli(['plan', manifest], { emu, env: env() });
    expect(before.stdout).toContain('1 to update');
    const edited = editCache(
      (d) => typeof d.messagebaseId === 'string' && d.formattedString !== undefined,
      (found) => {
        for (const c of found) {
          const text = JSON.stringify(c.detail).replace('We open at {{open}} today.', 'We open at {{open}} and close at {{close}} today.');
          c.entry.detail = { ...(JSON.parse(text) as object), updateDate: '2030-01-01 00:00:00' };
        }
      },
    );
    expect(edited).toBe(1);
    const after = await cli(['plan', manifest], { emu, env: env() });
    expect(after.stdout).toContain('1 to update');
    expect(after.stdout).toContain('"We open at {{open}} today." → "We open at {{open}} and close at {{close}} today."');
  });

  it('an entry changed only in content (the same id and updateDate) is served as it is: the documented limit, and --no-cache reads past it', async () => {
    emu = await emulator(join(BRAND_CASE, 'seed.yaml'));
    await warmPlan(join(BRAND_CASE, 'manifests'));
    editCache(isAutoReply, (found) => found.forEach(({ detail }) => claimChanged(detail)));
    const manifests = changedManifests();
    expect((await cli(['plan', manifests], { emu, env: env() })).stdout).toContain('No changes.');
    const applied = await cli(['apply', '--yes', '--no-cache', manifests], { emu, env: env() });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply complete: the live service matches the manifests.');
  });
});
