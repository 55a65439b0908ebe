// What validate says, issue 35 §3: every field of a resource that can be
// checked is checked in the same run as its schema errors; a missing file
// gets "did you mean"; a bad date or URL says what the value should look like.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, EXAMPLE } from './helpers.js';
import { readFileSync } from 'node:fs';

const dir = mkdtempSync(join(tmpdir(), 'rcsctl-validate-messages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Diag {
  code: string;
  line: number;
  path: string;
  message: string;
}

async function validate(name: string, yaml: string): Promise<{ code: number; diagnostics: Diag[]; stderr: string }> {
  const at = join(dir, name);
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, 'brand.yaml'), yaml);
  const json = await cli(['validate', at, '--json'], { env: {} });
  const text = await cli(['validate', at], { env: {} });
  return { code: json.code, diagnostics: (JSON.parse(json.stdout) as { diagnostics: Diag[] }).diagnostics, stderr: text.stderr };
}

const HEAD = 'apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: BR.test000001 }\n';

describe('validate checks every field of a resource with a schema error', () => {
  it('reports a type error, the unknown messagebase and the unknown reference of one auto-reply in one run', async () => {
    const r = await validate(
      'three',
      HEAD +
        `autoReplies:
  hello:
    name: Hello
    messagebaseId: SCX99999
    copyAllowed: "yes"
    body: { description: Hi }
    chipList:
      - reply: { autoReply: nowhere, displayText: Go }
`,
    );
    expect(r.code).toBe(1);
    expect(r.diagnostics.map((d) => `${d.code} ${d.path}`)).toEqual([
      'RCS502 /autoReplies/hello/messagebaseId',
      'RCS203 /autoReplies/hello/copyAllowed',
      'RCS402 /autoReplies/hello/chipList/0/reply/autoReply',
    ]);
    expect(r.stderr).toContain('3 errors, 0 warnings');
  });

  it('checks the rest of a resource whose error is deep in a button, and its image file', async () => {
    const r = await validate(
      'deep',
      HEAD +
        `files:
  pic: { path: images/missing.png }
autoReplies:
  card:
    name: Card
    messagebaseId: SCwThM00
    body: { title: T, description: D, media: { file: pic }, mediaUrl: 42 }
    buttons:
      - suggestions:
          - reply: { autoReply: nowhere, displayText: Go }
`,
    );
    expect(r.diagnostics.map((d) => `${d.code} ${d.path}`)).toEqual([
      'RCS303 /files/pic/path',
      'RCS203 /autoReplies/card/body/mediaUrl',
      'RCS402 /autoReplies/card/buttons/0/suggestions/0/reply/autoReply',
    ]);
  });

  it('checks the other items of a list whose item has an error, naming each where it is written', async () => {
    const r = await validate(
      'lists',
      HEAD +
        `autoReplies:
  card:
    name: Card
    messagebaseId: CCwMhM0200
    body: { title1: A, description1: a, title2: B, description2: b }
    buttons:
      - suggestions:
          - reply: { autoReply: card, displayText: 12 }
          - reply: { autoReply: gone1, displayText: G1 }
      - suggestions:
          - action: { displayText: Web, urlAction: { openUrl: { url: "nope" } } }
          - reply: { autoReply: gone2, displayText: G2 }
chatbots:
  "0212345678":
    rcsReply: "1"
    persistentMenu:
      - { type: reply, title: 5, autoReply: card }
      - { type: reply, title: Two, autoReply: gone3 }
`,
    );
    // The items after one taken out keep their own index and line (the list is closed up only for the checks).
    expect(r.diagnostics.map((d) => `${d.code} ${d.line} ${d.path}`)).toEqual([
      'RCS203 11 /autoReplies/card/buttons/0/suggestions/0/reply/displayText',
      'RCS402 12 /autoReplies/card/buttons/0/suggestions/1/reply/autoReply',
      'RCS207 14 /autoReplies/card/buttons/1/suggestions/0/action/urlAction/openUrl/url',
      'RCS402 15 /autoReplies/card/buttons/1/suggestions/1/reply/autoReply',
      // The room declares no certificate: validate's note (RCS514) at its key.
      'RCS514 17 /chatbots/0212345678',
      'RCS203 20 /chatbots/0212345678/persistentMenu/0/title',
      'RCS402 21 /chatbots/0212345678/persistentMenu/1/autoReply',
    ]);
  });

  it('checks the rest of the brand profile, a section that is one object, beside its type error', async () => {
    mkdirSync(join(dir, 'profile', 'images'), { recursive: true });
    writeFileSync(join(dir, 'profile', 'images', 'profile.png'), readFileSync(join(EXAMPLE, 'images', 'hero.png')));
    const r = await validate(
      'profile',
      HEAD +
        `brandProfile:
  account: master
  name: Coffee Co
  description: Fresh coffee daily
  tel: "0212345678"
  categoryId: SHP
  subCategoryId: SHP002
  keywords: 5
  profileImage: images/profle.png
`,
    );
    expect(r.diagnostics.map((d) => `${d.code} ${d.path}`)).toEqual(['RCS203 /brandProfile/keywords', 'RCS303 /brandProfile/profileImage']);
    expect(r.diagnostics[1]?.message).toContain('(did you mean "images/profile.png"?)');
  });

  it('leaves out a resource whose own shape is wrong, and a link to it is not called missing', async () => {
    // Without `body` the auto-reply cannot be checked as one: it is left out whole, and a link to it is not "missing".
    const r = await validate(
      'whole',
      HEAD +
        `autoReplies:
  broken:
    name: Broken
    messagebaseId: SCX99999
  other:
    name: Other
    messagebaseId: SCS00000
    body: { description: Hi }
    chipList:
      - reply: { autoReply: broken, displayText: Go }
`,
    );
    expect(r.diagnostics.map((d) => `${d.code} ${d.path}`)).toEqual(['RCS202 /autoReplies/broken']);
  });
});

describe('messages that say what was meant', () => {
  it('a missing file: did you mean the file of that name nearby', async () => {
    mkdirSync(join(dir, 'herbs', 'images'), { recursive: true });
    writeFileSync(join(dir, 'herbs', 'images', 'herbal.png'), readFileSync(join(EXAMPLE, 'images', 'hero.png')));
    const r = await validate('herbs', HEAD + 'files:\n  herb: { path: images/herbel.png }\nautoReplies:\n  a: { name: A, messagebaseId: SCwThM00, body: { title: T, description: D, media: { file: herb } } }\n');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['RCS303']);
    expect(r.diagnostics[0]?.message).toMatch(/^file "images\/herbel\.png" not found \(looked in .*herbs\) \(did you mean "images\/herbal\.png"\?\)$/);
  });

  it('a bad date-time or URL: an example of the form expected', async () => {
    const r = await validate(
      'dates',
      HEAD +
        `autoReplies:
  a:
    name: A
    messagebaseId: SCS00000
    body: { description: Hi }
    chipList:
      - action:
          displayText: Save
          calendarAction: { createCalendarEvent: { startTime: "2025-03-01 10:00", endTime: "2025-03-01T11:00:00+09:00", title: T, description: D } }
`,
    );
    expect(r.diagnostics.map((d) => `${d.code} ${d.path}`)).toEqual(['RCS207 /autoReplies/a/chipList/0/action/calendarAction/createCalendarEvent/startTime']);
    expect(r.diagnostics[0]?.message).toBe('"startTime" is not a valid date-time: write an ISO 8601 date and time with its offset, quoted, like "2025-03-01T10:00:00+09:00"');
  });
});
