// Bidirectional rooms on the preview, drawn through the kinds' open drawing
// interface: a section of their own after the rooms, a room with a
// bidirectional ID as a room handset naming its reply number and agency, a
// converted sender-number room under the name its room has under chatbots:.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../e2e/helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'rcsctl-bidi-preview-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('bidirectional rooms on the preview', () => {
  it('draws each declared one as a room handset in its own section, counted in the header', async () => {
    const r = await cli(['preview', join(ROOT, 'test', 'plan-cases', '048-bidirectional-from-nothing', 'manifest.yaml'), '-o', join(tmp, 'site')], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('BR.demo000001: 0 auto-replies, 2 rooms, 2 bidirectional rooms, 0 findings');
    const html = readFileSync(join(tmp, 'site', 'BR.demo000001', 'index.html'), 'utf8');
    expect(html).toContain('<h2 id="bidirectional-rooms-h">Bidirectional rooms</h2>');
    expect(html).toMatch(/<article class="handset room" id="biroom-bot-coffee" data-address="bidirectionalRoom\.bot-coffee"[^>]*><h3 class="caption" id="biroom-bot-coffee-name">Coffee chat<\/h3><p class="meta">bidirectionalRoom\.bot-coffee · RCS replies · [^<]*manifest\.yaml:14<\/p>/);
    expect(html).toContain('<p class="intro">Order ahead and ask us anything (Replies from 0212345678 through agency relay-one.)</p>');
    expect(html).toMatch(/id="biroom-0298765432-name">Coffee Co Events<\/h3>/);
    expect(html).toContain('<p class="intro">Sender-number room 0298765432, bidirectional through agency relay-two.</p>');
    // The rooms section comes first.
    expect(html.indexOf('id="rooms-h"')).toBeLessThan(html.indexOf('id="bidirectional-rooms-h"'));
  });

  it('leaves the section out for a brand that declares none', async () => {
    const r = await cli(['preview', join(ROOT, 'test', 'plan-cases', '008-subtitle-on-approved-needs-review', 'manifest.yaml'), '-o', join(tmp, 'none')], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(tmp, 'none', 'BR.demo000001', 'index.html'), 'utf8')).not.toContain('Bidirectional rooms');
  });
});
