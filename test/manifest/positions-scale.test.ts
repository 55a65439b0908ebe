// Positions in a large map: keys are looked up through a per-map index and
// duplicate keys are found with one pass per map, and both still give the
// exact line and column, also for the last of thousands of items.

import { describe, expect, it } from 'vitest';
import { parseManifestText } from '../../src/manifest/read-yaml.js';
import { checkSchema, loadSchemaValidator } from '../../src/manifest/schema-check.js';
import { diagAt } from '../../src/manifest/source.js';

const HEAD = 'apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: BR.test000001 }\nautoReplies:\n';
const item = (i: number, extra = ''): string => `  ar${i}:\n    name: "Reply ${i}"\n    messagebaseId: SCS00000\n    body: { description: "Text ${i}"${extra} }\n`;
const N = 1500;

describe('positions in a map of thousands of keys', () => {
  it('points at the last item exactly', async () => {
    await loadSchemaValidator();
    const text = HEAD + Array.from({ length: N }, (_, i) => item(i, i === N - 1 ? ', colour: red' : '')).join('');
    const { docs, diagnostics } = parseManifestText(text, '/x/big.yaml', 'big.yaml');
    expect(diagnostics).toEqual([]);
    const src = docs[0]!;
    // Each item takes 4 lines after the 4 header lines; the body line is the item's fourth.
    const bodyLine = 4 + (N - 1) * 4 + 4;
    expect(checkSchema(src).map((d) => `${d.code} ${d.line}:${d.col} ${d.path}`)).toEqual([`RCS201 ${bodyLine}:39 /autoReplies/ar${N - 1}/body/colour`]);
    const name = diagAt(src, 'RCS503', ['autoReplies', `ar${N - 2}`, 'name'], 'x');
    expect([name.line, name.col]).toEqual([4 + (N - 2) * 4 + 2, 11]);
  });

  it('reports a duplicate key where the second one stands, in block and flow maps', () => {
    const block = parseManifestText(HEAD + item(0) + item(1) + item(0), '/x/a.yaml', 'a.yaml');
    expect(block.diagnostics.map((d) => `${d.code} ${d.line}:${d.col}`)).toEqual(['RCS102 13:3']);
    const flow = parseManifestText(HEAD + item(0, ', description: "again"'), '/x/b.yaml', 'b.yaml');
    expect(flow.diagnostics.map((d) => `${d.code} ${d.line}:${d.col}`)).toEqual(['RCS102 8:36']);
    // Keys that differ only in type are different keys, as the YAML rule has it.
    expect(parseManifestText(HEAD + '  "1": {}\n  1: {}\n', '/x/c.yaml', 'c.yaml').diagnostics).toEqual([]);
  });
});
