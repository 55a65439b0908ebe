// What `--help` tells: the environment variables rcsctl reads, each option
// once, and what --allow-review lets through, from the kinds' own declarations.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KINDS, reviewedOf } from '../../src/kinds/index.js';
import { cli, ROOT } from './helpers.js';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('rcsctl --help', () => {
  it('names every RCSCTL_ environment variable the sources read, and NO_COLOR', async () => {
    const help = await cli(['--help'], { env: {} });
    expect(help.code).toBe(0);
    const names = new Set(sources(join(ROOT, 'src')).flatMap((f) => readFileSync(f, 'utf8').match(/\bRCSCTL_[A-Z_]+/g) ?? []));
    expect(names).toContain('RCSCTL_TOKEN');
    for (const name of [...names, 'NO_COLOR']) expect(help.stdout, name).toContain(name);
    expect(help.stdout).toMatch(/^Environment \(docs\/configuration\.md\):\n {2}RCSCTL_BASE_URL /m);
  });

  it('lists each option once in every command\'s help (emulator --seed was listed twice)', async () => {
    const top = await cli(['--help'], { env: {} });
    const commands = [...top.stdout.matchAll(/^ {2}([a-z]+)(?: \[options\]| \S+)* {2,}/gm)].map((m) => m[1] as string).filter((c) => c !== 'help');
    expect(commands).toContain('emulator');
    for (const command of commands) {
      const help = await cli([command, '--help'], { env: {} });
      const longs = [...help.stdout.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1] as string);
      const twice = longs.filter((l, i) => longs.indexOf(l) !== i);
      expect(twice, `${command} --help`).toEqual([]);
    }
    const emulator = await cli(['emulator', '--help'], { env: {} });
    expect(emulator.stdout).toContain('--seed <file>');
  });

  it('--allow-review names everything that goes to review: room, logo, template, brand name and profile image', async () => {
    for (const command of ['apply', 'controller']) {
      const help = (await cli([command, '--help'], { env: {} })).stdout.replace(/\s+/g, ' ');
      const line = /--allow-review (.*?) to operator review/.exec(help)?.[1] ?? '';
      for (const thing of ['room', 'logo', 'template', 'brand name', 'profile image']) expect(line, `${command} --allow-review`).toContain(thing);
    }
  });

  it('every kind whose gates can send to review declares what it sends (--allow-review lists it)', () => {
    for (const kind of KINDS) {
      const dir = join(ROOT, 'src', 'kinds', kind.name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
      const text = sources(dir).map((f) => readFileSync(f, 'utf8')).join('\n');
      expect(text.length, dir).toBeGreaterThan(0);
      if (/type: 'review'/.test(text)) expect(reviewedOf(kind), kind.name).toBeDefined();
    }
  });
});
