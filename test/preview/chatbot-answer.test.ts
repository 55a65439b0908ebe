// A reply with no target is a chatbot answer (docs/manifest.md, "reply"): a
// documented feature, so the preview draws it as one and does not report it.
// Before, the preview called it a link "opens (no target), which these
// manifests do not manage", and the console said only "1 finding"; the
// console now prints the findings themselves.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'node-html-parser';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cli } from '../e2e/helpers.js';

const MANIFEST = `apiVersion: rcsctl/v1
kind: Brand
brand: { id: BR.answer0001 }
autoReplies:
  welcome:
    name: Welcome
    messagebaseId: SCS00000
    body: { description: "Hello" }
    chipList:
      - reply: { autoReply: hours, displayText: Opening hours }
      - reply: { displayText: Talk to us, postback: { data: talk } }
  hours:
    name: Opening hours
    messagebaseId: SCS00000
    body: { description: "9 to 5" }
  lost:
    name: Lost
    messagebaseId: SCS00000
    body: { description: "Nobody comes here" }
    chipList:
      - reply: { autoReply: welcome, displayText: Back }
chatbots:
  "0212345678":
    subTitle: Answers
    rcsReply: "1"
    persistentMenu:
      - { type: reply, title: Start, autoReply: welcome }
      - { type: reply, title: Ask us }
`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-answer-'));
  writeFileSync(join(dir, 'brand.yaml'), MANIFEST);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('draws a reply without a target as a chatbot answer, not a finding, and prints the findings there are', async () => {
  const r = await cli(['preview', join(dir, 'brand.yaml'), '-o', join(dir, 'site')], { cwd: dir, env: {} });
  expect(r.code, r.stderr).toBe(0);
  // The two findings are about "Opening hours" and "Lost"; none is about an answer.
  expect(r.stdout).toBe(
    'BR.answer0001: 3 auto-replies, 1 room, 2 findings: site/BR.answer0001/index.html\n' +
      '  info: “Opening hours” has no reply leading on; only the room menu does\n' +
      '  warning: nothing links to “Lost”: no reply, button or menu item opens it\n',
  );
  expect(r.stdout + r.stderr).not.toContain('no target');
  const page = parse(readFileSync(join(dir, 'site', 'BR.answer0001', 'index.html'), 'utf8'));
  const chip = page.querySelector('[data-path="chipList[1]"]');
  expect(chip?.querySelector('.kind')?.text).toBe('answer');
  expect(chip?.querySelector('.label')?.text).toBe('Talk to us');
  expect(chip?.querySelector('.detail')?.text).toBe('answered by the chatbot: talk');
  expect(chip?.tagName).toBe('SPAN');
  const item = page.querySelector('[data-path="items[1]"]');
  expect(item?.querySelector('.kind')?.text).toBe('answer');
  expect(item?.querySelector('.label')?.text).toBe('Ask us');
  expect(page.querySelector('aside.findings')?.text).not.toContain('Ask us');
});
