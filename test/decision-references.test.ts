// A clone of this repository has no outside documents: where the code says a
// service shape is assumed, it points at an entry of docs/decisions.md, and
// that entry exists. The client, the service facts and the docs cite no
// unnamed "recorded assumptions", no section sign of a document the
// repository does not hold, and no file outside it.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './e2e/helpers.js';

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, ext) : ext.test(name) ? [path] : [];
  });
}

const DECISIONS = readFileSync(join(ROOT, 'docs', 'decisions.md'), 'utf8');
/** The decision log's headings and entry titles (`- **Token issuance.**`). */
const ENTRIES = new Set([...DECISIONS.matchAll(/^## (.+)$/gm), ...DECISIONS.matchAll(/^- \*\*(.+?)\.?\*\*/gm)].map((m) => (m[1] as string).replace(/\.$/, '')));

const SCANNED = [...['api', 'spec', 'contract', 'emulator'].flatMap((d) => files(join(ROOT, 'src', d), /\.ts$/)), ...files(join(ROOT, 'docs'), /\.md$/), join(ROOT, 'README.md'), join(ROOT, 'CONTRIBUTING.md')];

/** The entry titles a text cites: `docs/decisions.md, "Logos"` or `[decisions](decisions.md), "Logos"`. */
const citations = (text: string): string[] => [...text.matchAll(/decisions(?:\.md)?\]?(?:\([^)]*\))?, "([^"]+)"/g)].map((m) => m[1] as string);

describe('references to decisions', () => {
  it.each(SCANNED.map((p) => relative(ROOT, p)))('%s', (path) => {
    const text = readFileSync(join(ROOT, path), 'utf8');
    const cited = citations(text);
    expect(cited.filter((title) => !ENTRIES.has(title))).toEqual([]);
    const dangling = text.split('\n').filter((l) => /recorded assumptions|§|assumptions\.md|service-api\.md|shared\/spec/.test(l));
    expect(dangling).toEqual([]);
  });

  it('finds the entries it checks against', () => {
    expect(ENTRIES.has('Token issuance')).toBe(true);
    expect(ENTRIES.has('Service shapes rcsctl assumes where the reference shows none')).toBe(true);
    expect(ENTRIES.has('No such entry')).toBe(false);
    expect(citations('see [decisions](decisions.md), "Logos" and docs/decisions.md, "Rooms"')).toEqual(['Logos', 'Rooms']);
    expect(SCANNED.flatMap((p) => citations(readFileSync(p, 'utf8'))).length).toBeGreaterThan(15);
  });
});
