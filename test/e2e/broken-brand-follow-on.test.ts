// A broken manifest's follow-on errors stay in its own brand, issue 35 §3: when
// every brand of an agency uses the same handles (welcome, r1, r2) and one
// brand's auto-reply file has a YAML error, its menu's links are not reported
// as belonging to another brand; a handle is looked up in its own brand.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rcsctl-follow-on-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const replies = (id: string, indent = '  '): string =>
  `apiVersion: rcsctl/v1
kind: Brand
brand: { id: ${id} }
autoReplies:
  welcome: { name: Welcome, messagebaseId: SCS00000, body: { description: Hi } }
${indent}r1: { name: R1, messagebaseId: SCS00000, body: { description: One } }
  r2: { name: R2, messagebaseId: SCS00000, body: { description: Two } }
`;
const rooms = (id: string, room: string): string =>
  `apiVersion: rcsctl/v1
kind: Brand
brand: { id: ${id} }
chatbots:
  "${room}":
    rcsReply: "1"
    persistentMenu:
      - { type: reply, title: Welcome, autoReply: welcome }
      - { type: reply, title: One, autoReply: r1 }
      - { type: reply, title: Two, autoReply: r2 }
`;

interface Diag {
  code: string;
  file: string;
  message: string;
}

function agency(name: string, brands: { id: string; room: string; indent?: string; noReplies?: boolean }[]): string {
  const root = join(dir, name);
  for (const b of brands) {
    mkdirSync(join(root, b.id), { recursive: true });
    if (b.noReplies !== true) writeFileSync(join(root, b.id, 'replies.yaml'), replies(b.id, b.indent));
    writeFileSync(join(root, b.id, 'rooms.yaml'), rooms(b.id, b.room));
  }
  return root;
}

describe('a broken brand among brands that share handles', () => {
  it('reports the YAML error alone: no link of the broken brand is said to belong to another brand', async () => {
    const root = agency('shared', [
      { id: 'BR.agcy000001', room: '021234561' },
      // One key indented a space too far: the file cannot be read.
      { id: 'BR.agcy000002', room: '021234562', indent: '   ' },
      { id: 'BR.agcy000003', room: '021234563' },
    ]);
    const r = await cli(['validate', root, '--json'], { env: {} });
    expect(r.code).toBe(1);
    const diags = (JSON.parse(r.stdout) as { diagnostics: Diag[] }).diagnostics;
    // Beside it, only each room's note (RCS514: no certificate), which never fails a run.
    expect(diags.map((d) => `${d.code} ${d.file.slice(root.length + 1)}`)).toEqual(['RCS514 BR.agcy000001/rooms.yaml', 'RCS101 BR.agcy000002/replies.yaml', 'RCS514 BR.agcy000002/rooms.yaml', 'RCS514 BR.agcy000003/rooms.yaml']);
    const text = await cli(['validate', root], { env: {} });
    const all = text.stdout + text.stderr;
    expect(all).not.toContain('belongs to brand');
    expect(all).toContain('BR.agcy000001: valid');
    expect(all).toContain('BR.agcy000002: invalid (1 error)');
    expect(all).toContain('BR.agcy000003: valid');
  });

  it('looks a handle up in its own brand first, naming the brands that do declare it', async () => {
    // BR.agcy000002 has no auto-replies at all: its links are missing here, and the others' handles say why.
    const root = agency('missing', [
      { id: 'BR.agcy000001', room: '021234561' },
      { id: 'BR.agcy000002', room: '021234562', noReplies: true },
      { id: 'BR.agcy000003', room: '021234563' },
    ]);
    const r = await cli(['validate', root, '--json'], { env: {} });
    const diags = (JSON.parse(r.stdout) as { diagnostics: Diag[] }).diagnostics;
    // The rooms' notes (RCS514: no certificate) aside, the three links.
    const links = diags.filter((d) => d.code !== 'RCS514');
    expect(diags.filter((d) => d.code === 'RCS514')).toHaveLength(3);
    expect(links.map((d) => d.code)).toEqual(['RCS510', 'RCS510', 'RCS510']);
    expect(links[0]?.message).toBe('no auto-reply "welcome" in brand BR.agcy000002; brands BR.agcy000001, BR.agcy000003 declare one, but a link cannot leave its brand');
  });
});
