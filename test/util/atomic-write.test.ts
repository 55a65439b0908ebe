import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writePrivateFileAtomic } from '../../src/util/atomic-write.js';

describe('writePrivateFileAtomic (the live cache and the parse cache)', () => {
  const dirs: string[] = [];
  const dir = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'rcsctl-atomic-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('replaces the file whole, readable by the owner only, and leaves no temporary file', () => {
    const d = dir();
    const path = join(d, 'brand.json');
    writeFileSync(path, 'old');
    expect(writePrivateFileAtomic(path, '{"new":true}')).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('{"new":true}');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(d)).toEqual(['brand.json']);
  });

  it('returns false, and leaves no temporary file, when the directory is missing', () => {
    const d = dir();
    expect(writePrivateFileAtomic(join(d, 'missing', 'brand.json'), 'x')).toBe(false);
    expect(readdirSync(d)).toEqual([]);
  });

  it('returns false, and removes its temporary file, when the rename fails', () => {
    const d = dir();
    // A non-empty directory where the file should go: the temporary file is written, the rename is refused.
    const blocked = join(d, 'brand.json');
    mkdirSync(blocked);
    writeFileSync(join(blocked, 'inside'), '');
    expect(writePrivateFileAtomic(blocked, 'x')).toBe(false);
    expect(readdirSync(d)).toEqual(['brand.json']);
  });
});
