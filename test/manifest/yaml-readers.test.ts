// The two YAML readers agree: whatever text the fast reader (js-yaml's event
// parser) takes, the full reader (the `yaml` package, whose diagnostics users
// see) parses without an error into the same values. Anything the fast reader
// cannot vouch for goes to the full reader, so a manifest means the same, and
// is refused the same, whichever reads it.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { isScalar, LineCounter, parseAllDocuments, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseManifestText, plainValues } from '../../src/manifest/read-yaml.js';
import { MAX_DEPTH } from '../../src/manifest/text-checks.js';
import { offsetOf, position, type SourceDoc } from '../../src/manifest/source.js';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** The full reader's values of the non-empty documents, or undefined when it finds an error. */
function fullValues(text: string): unknown[] | undefined {
  const docs = parseAllDocuments(text, { uniqueKeys: true, merge: false });
  if (docs.some((d) => d.errors.length > 0)) return undefined;
  return docs.filter((d) => !(d.contents === null || (isScalar(d.contents) && d.contents.value === null))).map((d) => d.toJS({ maxAliasCount: 100 }) as unknown);
}

/** The property: the fast reader declines, or both readers give the same values. */
function agree(text: string): boolean {
  const fast = plainValues(text);
  if (fast === undefined) return false;
  expect(fullValues(text), `the full reader refuses or reads differently:\n${text}`).toStrictEqual(fast);
  return true;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : yamlFiles(full);
    return /\.ya?ml$/.test(name) ? [full] : [];
  });
}

describe('the fast and the full YAML reader', () => {
  it('read every manifest in the repository alike', () => {
    const files = [...yamlFiles(join(ROOT, 'examples')), ...yamlFiles(join(ROOT, 'test'))];
    expect(files.length).toBeGreaterThan(50);
    let taken = 0;
    for (const f of files) if (agree(readFileSync(f, 'utf8'))) taken++;
    // Most manifests are plain data: the fast reader must actually be used.
    expect(taken).toBeGreaterThan(files.length / 2);
  });

  it('resolve scalars by the YAML 1.2 core schema alike', () => {
    const scalars = ['0b101', '1_000', '0o17', '017', '0x1F', '0X1f', '+12', '-0', '1.', '.5', '1e3', '1E+3', '1.5e-3', '.inf', '-.Inf', '+.INF', '.nan', '.NaN', 'NaN', 'inf'];
    const words = ['true', 'True', 'TRUE', 'tRue', 'yes', 'no', 'on', 'off', 'y', 'n', 'null', 'Null', 'NULL', '~', '', '2001-12-14', '12:30', '1:20:30', '<<', '=', '12345678901234567890', '1e400', "'0212345678'", '"\\t\\u00e9"'];
    for (const s of [...scalars, ...words]) {
      expect(agree(`k: ${s}\nlist: [${s === '' ? '""' : s}]\n`), s).toBe(true);
      expect(agree(`"${s.replace(/["\\]/g, '')}": v\n`), s).toBe(true);
    }
  });

  it('leave to the full reader what only it can report: tags, anchors, aliases, directives, non-text keys, duplicates, depth', () => {
    const declined = [
      'a: !!str 1\n',
      'a: !custom x\n',
      'a: &x 1\nb: *x\n',
      '%YAML 1.1\n---\na: yes\n',
      '0212345678: room\n',
      'true: x\n',
      'null: x\n',
      '~: x\n',
      '? [a]\n: b\n',
      '{[a]: b}\n',
      'a: 1\na: 2\n',
      '__proto__: x\n',
      'a: [1,\n',
      'a: b: c\n',
      'a: "\\q"\n',
      // Text right after a closing quote: js-yaml took `k` as a key of the top map (found by the fuzz test below).
      "\\: \n- 'it''s'k: >",
      "a:\n- 'x'k: 1\n",
      'a:\n- "x"k: 1\n',
      // A plain value on its own line below a comment: the full reader joins it with the next line.
      'a:\n#x\n b\nc: 1\n',
      'a: #y\n\n b\nc: 1\n',
      '- \n#x\n b\n- c\n',
      `${'['.repeat(MAX_DEPTH + 1)}${']'.repeat(MAX_DEPTH + 1)}\n`,
      Array.from({ length: MAX_DEPTH + 1 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' x\n',
    ];
    for (const text of declined) expect(plainValues(text), text).toBeUndefined();
    // And the full reader's diagnostics come out as before.
    expect(parseManifestText('chatbots:\n  0212345678: {}\n', '/x.yaml', 'x.yaml').docs[0]?.keysAreText).toBeUndefined();
    expect(parseManifestText('a: 1\na: 2\n', '/x.yaml', 'x.yaml').diagnostics.map((d) => [d.code, d.line])).toEqual([['RCS102', 2]]);
    expect(parseManifestText('a: &x 1\nb: *x\n', '/x.yaml', 'x.yaml').docs[0]?.value).toEqual({ a: 1, b: 1 });
  });

  it('keep the nesting limit exactly: MAX_DEPTH levels are plain data', () => {
    const deepest = Array.from({ length: MAX_DEPTH - 1 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' x\n';
    expect(agree(deepest)).toBe(true);
  });

  it('give positions from the full reader for documents the fast reader took', () => {
    const text = 'apiVersion: rcsctl/v1\n---\n\n---\nkind: Brand\nlist:\n  - a\n  - b\n';
    const { docs } = parseManifestText(text, '/x.yaml', 'x.yaml');
    expect(docs.map((d) => d.keysAreText)).toEqual([true, true]);
    expect(docs[1]?.value).toEqual({ kind: 'Brand', list: ['a', 'b'] });
    // The second non-empty document is the file's third: its tree is that one.
    expect(docs[1]?.lines.linePos(docs[1]?.doc.contents?.range?.[0] ?? -1)).toEqual({ line: 5, col: 1 });
  });

  it('agree on random YAML written in every style', () => {
    const key = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('0212345678', '1', 'true', 'null', '~', '', 'a b', '- x', '#', 'a: b'));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.string({ maxLength: 12 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), tie('list'), tie('map')),
      list: fc.array(tie('node'), { maxLength: 3 }),
      map: fc.dictionary(key, tie('node'), { maxKeys: 3 }),
    })).node;
    // A manifest is a map at the top; a document that is one scalar goes to the full reader anyway.
    const root = fc.dictionary(key, value, { minKeys: 1, maxKeys: 4 });
    const style = fc.record({
      collectionStyle: fc.constantFrom('any', 'block', 'flow'),
      defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'),
      defaultKeyType: fc.constantFrom(null, 'PLAIN', 'QUOTE_DOUBLE'),
      indent: fc.integer({ min: 1, max: 4 }),
    });
    let taken = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(root, style), { minLength: 1, maxLength: 3 }), (docs) => {
        const text = docs.map(([v, s]) => stringify(v, { ...s, defaultKeyType: s.defaultKeyType as 'PLAIN' | null })).join('---\n');
        if (agree(text)) taken++;
      }),
      { numRuns: 400 },
    );
    expect(taken).toBeGreaterThan(100);
  });

  it('agree on hand-broken YAML: whatever the fast reader takes, the full reader takes alike', () => {
    const piece = fc.constantFrom(': ', '- ', '? ', '&a ', '*a', '!t ', '{', '}', '[', ']', ',', '"', "'", '#', ' #', '|', '>', '|-', '>+', '---\n', '...\n', '\n', '\n  ', '\t', ' ', 'a', 'b: c', '%', '@', '`', '\\', '\r\n', '\u00e9', '0x1', '.inf', 'a:', 'k: |-', 'k: >', '\n- ', '\n    ', '"a\\\n b"', "'it''s'", 'x\n  y');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        agree(pieces.join(''));
      }),
      { numRuns: Number(process.env.YAML_FUZZ_RUNS ?? 3000) },
    );
  });

  it('agree on the example brand with pieces of YAML spliced in anywhere', () => {
    const example = readFileSync(join(ROOT, 'examples', 'brand', 'brand.yaml'), 'utf8');
    const piece = fc.constantFrom(': ', '- ', '? ', '{', '}', '[', ']', ', ', '"', "'", ' #', '|', '>-', '---\n', '\n', '\n  ', ' ', 'x', '${env:A}', '0212345678', '\\');
    let taken = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), piece), { minLength: 1, maxLength: 3 }), (edits) => {
        let text = example;
        for (const [at, p] of edits) text = text.slice(0, at % (text.length + 1)) + p + text.slice(at % (text.length + 1));
        if (agree(text)) taken++;
      }),
      { numRuns: Number(process.env.YAML_FUZZ_RUNS ?? 500) },
    );
    expect(taken).toBeGreaterThan(0);
  }, 120_000);

  it("place each resource's key where the full reader does, without building its tree", () => {
    const files = [...yamlFiles(join(ROOT, 'examples')), ...yamlFiles(join(ROOT, 'test'))];
    let compared = 0;
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const counted = new LineCounter();
      parseAllDocuments(text, { lineCounter: counted });
      for (const doc of parseManifestText(text, f, f).docs) {
        for (const [key, offset] of doc.keyOffsets ?? []) {
          const path = key.split('\u0000');
          // The tree's answer, with the fast reader's offsets set aside.
          const viaTree = offsetOf({ ...doc, keyOffsets: undefined } as SourceDoc, path, 'key');
          expect(offset, `${f} ${path.join('.')}`).toBe(viaTree);
          expect(position(doc.lines, offset)).toEqual(position(counted, offset));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(100);

    // A document whose tree cannot be built still gives every resource's position.
    const text = 'apiVersion: rcsctl/v1\nautoReplies:\n  first: {}\n  "second":\n    name: x\n';
    const [doc] = parseManifestText(text, '/x.yaml', 'x.yaml').docs;
    const noTree = Object.defineProperty({ ...doc } as SourceDoc, 'doc', {
      get: () => {
        throw new Error('the tree was built');
      },
    });
    expect(position(noTree.lines, offsetOf(noTree, ['autoReplies', 'second'], 'key'))).toEqual({ line: 4, col: 3 });
    expect(position(noTree.lines, offsetOf(noTree, ['autoReplies'], 'key'))).toEqual({ line: 2, col: 1 });
  });
});
