// The one redaction: a secret is found however a format escaped it, sealed
// files keep a marker that only the same value restores, and the live cache
// never holds a secret yet serves a warm run.

import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dotText, mermaidText } from '../../src/graph/graph.js';
import { cachePart, LiveCache } from '../../src/kinds/live-cache.js';
import { esc } from '../../src/kinds/handset-draw.js';
import { cell, inline } from '../../src/util/markdown.js';
import { writeOutputFile } from '../../src/util/output-file.js';
import { Redaction, restoreFrom, sealStrings, SENSITIVE, unsealStrings } from '../../src/util/redaction.js';
import { loadSealKey, sealKey } from '../../src/util/seal-key.js';
import { xmlAttr, xmlText } from '../../src/util/xml.js';

const MARKUP = 'Mk9pqW&Vq3zzJ"<b>\'|\\ #`\n%é';
const redaction = new Redaction();
redaction.add([{ name: 'RCS_SECRET', value: MARKUP }, { name: 'PLAIN_KEY', value: 'plainValue42' }]);

const dir = mkdtempSync(join(tmpdir(), 'rcsctl-redaction-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Redaction.text', () => {
  const json = (s: string): string => JSON.stringify(s).slice(1, -1);
  const escapes: [string, (s: string) => string][] = [
    ['as written', (s) => s],
    ['JSON', json],
    ['JSON twice', (s) => json(json(s))],
    ['HTML (the preview)', esc],
    ['JSON, then HTML', (s) => esc(json(s))],
    ['as XML text (JUnit)', xmlText],
    ['as an XML attribute', xmlAttr],
    ['in a Markdown cell', cell],
    ['on a Markdown line', inline],
    ['Mermaid', mermaidText],
    ['DOT', dotText],
    ['a URL component', encodeURIComponent],
    ['a URL', encodeURI],
  ];
  it.each(escapes)('finds the value %s', (_name, escape) => {
    const text = `before ${escape(MARKUP)} after`;
    expect(redaction.text(text)).toBe(`before ${SENSITIVE} after`);
  });

  it('leaves other text alone, and finds a plain value by plain search', () => {
    expect(redaction.text('Mk9pqW & Vq3zzJ plainValue4')).toBe('Mk9pqW & Vq3zzJ plainValue4');
    expect(redaction.text('a plainValue42 b plainValue42')).toBe(`a ${SENSITIVE} b ${SENSITIVE}`);
    expect(redaction.holds('x plainValue42')).toBe(true);
  });
});

describe('one redactor', () => {
  it('also hides any Bearer credential, and leaves prose about bearer tokens alone', () => {
    const r = new Redaction();
    expect(r.text('authorization: Bearer eyJhbGciOi.x-y_z')).toBe(`authorization: Bearer ${SENSITIVE}`);
    expect(r.text('curl -H "Authorization: bearer tok-3f9a"')).toBe(`curl -H "Authorization: bearer ${SENSITIVE}"`);
    expect(r.text('wrong bearer token; a valid Bearer token is required')).toBe('wrong bearer token; a valid Bearer token is required');
  });

  it('is the only one: no other module in src prints a marker of its own or replaces secrets by hand', () => {
    const root = join(import.meta.dirname, '..', '..', 'src');
    const offenders: string[] = [];
    for (const e of readdirSync(root, { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || !e.name.endsWith('.ts')) continue;
      const path = join(e.parentPath, e.name);
      const where = relative(root, path);
      if (where === join('util', 'redaction.ts')) continue;
      const text = readFileSync(path, 'utf8');
      if (/\[redacted\]|'\(sensitive\)'|createRedactor|redactSecrets/.test(text)) offenders.push(where);
    }
    expect(offenders).toEqual([]);
  });
});

describe('sealing', () => {
  const key = sealKey(Buffer.from('k'.repeat(32)), 'test');
  it('replaces each value, in keys too, by a keyed marker the same value and key restore; another value or key cannot', () => {
    const sealed = sealStrings({ [`file:${'plainValue42'}.png`]: ['x plainValue42 y', 3] }, redaction.secrets(), key);
    expect(JSON.stringify(sealed)).not.toContain('plainValue42');
    expect(JSON.stringify(sealed)).toContain(`<sensitive:PLAIN_KEY:${key.id}:`);
    // Not a plain hash of the value: that would let anyone test guesses.
    expect(JSON.stringify(sealed)).not.toContain(createHash('sha256').update('plainValue42').digest('hex'));
    expect(unsealStrings(sealed, restoreFrom(redaction.secrets(), key))).toEqual({ value: { 'file:plainValue42.png': ['x plainValue42 y', 3] }, missing: [] });
    const other = unsealStrings(sealed, restoreFrom([{ name: 'PLAIN_KEY', value: 'anotherValue' }], key));
    expect(other.missing).toEqual(['PLAIN_KEY']);
    const otherKey = unsealStrings(sealed, restoreFrom(redaction.secrets(), sealKey(Buffer.from('j'.repeat(32)), 'other')));
    expect(otherKey.missing).toEqual(['PLAIN_KEY']);
  });

  it('asks for the key only when there is something to seal', () => {
    const never = (): never => {
      throw new Error('asked for a key');
    };
    expect(sealStrings({ a: 'nothing secret here' }, redaction.secrets(), never)).toEqual({ a: 'nothing secret here' });
  });

  it("this machine's key: made once, owner-only, the same for every later run; RCSCTL_PLAN_KEY wins; a key readable by others is refused", () => {
    const keys = join(dir, 'keys');
    const first = loadSealKey({}, keys);
    expect(statSync(join(keys, 'seal.key')).mode & 0o777).toBe(0o600);
    expect(loadSealKey({}, keys).id).toBe(first.id);
    const fromEnv = loadSealKey({ RCSCTL_PLAN_KEY: 'x'.repeat(40) }, keys);
    expect(fromEnv.id).not.toBe(first.id);
    expect(fromEnv.source).toBe('RCSCTL_PLAN_KEY');
    expect(() => loadSealKey({ RCSCTL_PLAN_KEY: 'short' }, keys)).toThrow(/RCSCTL_PLAN_KEY must be at least 32 characters/);
    expect(() => loadSealKey({}, undefined)).toThrow(/set RCSCTL_PLAN_KEY/);
    chmodSync(join(keys, 'seal.key'), 0o644);
    expect(() => loadSealKey({}, keys)).toThrow(/readable by others/);
    // Neither inspect nor JSON reaches the key's secret.
    expect(JSON.stringify(first)).not.toMatch(/[0-9a-f]{64}/);
  });
});

describe('writeOutputFile', () => {
  it('writes text through the redaction, bytes as they are, and refuses a name that holds a secret', () => {
    const path = join(dir, 'out', 'report.txt');
    writeOutputFile(path, `x ${esc(MARKUP)} y`, redaction);
    expect(readFileSync(path, 'utf8')).toBe(`x ${SENSITIVE} y`);
    writeOutputFile(join(dir, 'out', 'bytes.bin'), Buffer.from('plainValue42'), redaction);
    expect(readFileSync(join(dir, 'out', 'bytes.bin'), 'utf8')).toBe('plainValue42');
    expect(() => writeOutputFile(join(dir, 'out', 'plainValue42.txt'), 'x', redaction)).toThrow(`holds a sensitive value: ${join(dir, 'out', SENSITIVE)}.txt`);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['bytes.bin', 'report.txt']);
  });
});

describe('the live cache', () => {
  const part = cachePart<{ description: string }>('secretTest');
  const entry = { description: 'Code plainValue42' };

  it('seals the secret in its file and serves the entry to a run that knows the same value; a run with another value reads it again', () => {
    const cacheDir = join(dir, 'cache');
    const writer = new LiveCache(cacheDir, 'http://127.0.0.1:1', redaction);
    writer.set('BR.demo000001', part, 'ARM000000000001', entry);
    writer.save();
    const [file] = readdirSync(cacheDir);
    const text = readFileSync(join(cacheDir, file as string), 'utf8');
    expect(text).not.toContain('plainValue42');
    expect(text).toMatch(/Code <sensitive:PLAIN_KEY:[0-9a-f]{8}:[0-9a-f]{64}>/);

    expect(new LiveCache(cacheDir, 'http://127.0.0.1:1', redaction).get('BR.demo000001', part, 'ARM000000000001')).toEqual(entry);
    const changed = new Redaction();
    changed.add([{ name: 'PLAIN_KEY', value: 'anotherValue' }]);
    expect(new LiveCache(cacheDir, 'http://127.0.0.1:1', changed).get('BR.demo000001', part, 'ARM000000000001')).toBeUndefined();
    expect(new LiveCache(cacheDir, 'http://127.0.0.1:1').get('BR.demo000001', part, 'ARM000000000001')).toBeUndefined();
  });
});
