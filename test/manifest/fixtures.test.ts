// The corpus of invalid manifests (test/fixtures/manifests/*.yaml): each one
// must give exactly the diagnostics listed, code and position, nothing more.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasErrors, loadManifests } from '../../src/manifest/index.js';

const FIXTURES = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'fixtures', 'manifests');
const ENV = { FIXTURE_LONG_KEY: 'k'.repeat(19), FIXTURE_KEY_A: 'key-a', FIXTURE_KEY_B: 'key-b' };

// [fixture, every diagnostic as "CODE line:col", with " (follow-on)" for a YAML error that follows from the first]
const CASES: [string, string[]][] = [
  // An unclosed flow collection is reported where it opens, not at the end of the file.
  ['101-yaml-syntax', ['RCS101 4:14']],
  ['101-unclosed-flow-map', ['RCS101 8:11']],
  // One tab: the tab is the root cause; what the parser says after it follows from it.
  ['101-tab-indent', ['RCS101 7:1', 'RCS101 7:17 (follow-on)', 'RCS101 7:17 (follow-on)', 'RCS101 9:3 (follow-on)']],
  // One key indented one space short: reported at that key, not at the blank line before it.
  ['101-bad-indent', ['RCS101 10:2', 'RCS101 14:3 (follow-on)']],
  ['102-duplicate-key', ['RCS102 9:5']],
  ['103-custom-tag', ['RCS103 6:19']],
  ['104-alias-bomb', ['RCS104 5:10']],
  ['106-missing-env', ['RCS106 5:8']],
  ['107-bad-interpolation', ['RCS107 6:11']],
  ['109-invalid-utf8', ['RCS109 6:18']],
  ['110-nul-byte', ['RCS110 6:16']],
  ['110-nul-escape', ['RCS110 6:11']],
  ['111-lone-surrogate', ['RCS111 8:26']],
  // 3 block levels, a flow map, then the 61st bracket passes 64 levels.
  ['112-deep-flow', ['RCS112 8:86']],
  ['112-deep-block', ['RCS112 68:129']],
  ['113-comments-only', ['RCS113 0:0', 'RCS114 0:0']],
  // 51 emoji: 102 UTF-16 code units, over the 100 allowed.
  ['205-emoji-name', ['RCS205 6:11']],
  ['601-bidi-name', ['RCS601 6:11']],
  ['602-zero-width-name', ['RCS602 6:11']],
  ['201-unknown-body-key', ['RCS201 8:13']],
  ['201-unknown-chatbot-key', ['RCS201 6:5']],
  ['201-unknown-top-key', ['RCS201 4:1']],
  // One problem, one error: the misspelt key, not also the required key it was meant to be.
  ['201-misspelt-required-key', ['RCS201 8:5']],
  // One pass: the auto-reply with a schema error is left out, and the rest is checked (file, messagebase, reference).
  ['201-one-pass', ['RCS303 7:17', 'RCS201 12:13', 'RCS502 15:20', 'RCS402 19:29']],
  ['202-autoreply-missing-name', ['RCS202 6:5']],
  ['202-logo-missing-path', ['RCS202 6:5']],
  ['202-menu-action-without-action', ['RCS202 8:9']],
  ['202-missing-apiversion', ['RCS202 1:1']],
  ['203-body-not-map', ['RCS203 8:11']],
  ['203-copyallowed-string', ['RCS203 8:18']],
  ['203-display-number', ['RCS203 6:14']],
  ['203-rcsreply-number', ['RCS203 6:15']],
  ['204-apiversion-wrong', ['RCS204 1:13']],
  ['204-display-value', ['RCS204 6:14']],
  ['204-kind-typo', ['RCS204 2:7']],
  ['204-menu-actiontype', ['RCS204 9:21']],
  ['204-prune-typo', ['RCS204 4:9']],
  ['204-safty-lowercase', ['RCS204 6:20']],
  ['205-autoreply-name', ['RCS205 6:11']],
  ['205-brand-key-too-long', ['RCS205 5:8']],
  ['205-chatbot-id', ['RCS205 5:3']],
  ['205-logo-name', ['RCS205 6:11']],
  ['205-menu-title', ['RCS205 7:44']],
  ['205-reply-displaytext', ['RCS205 10:49']],
  ['205-subdescr', ['RCS205 6:15']],
  ['205-subtitle', ['RCS205 6:15']],
  ['206-empty-body', ['RCS206 8:11']],
  ['206-empty-name', ['RCS206 6:11']],
  ['207-brand-id-form', ['RCS207 3:14']],
  // Too long and of the wrong form: one error, the form's, saying the length too.
  ['207-brand-id-14-characters', ['RCS207 3:14']],
  // Not an https URL and not a URI at all: one error.
  ['207-url-without-scheme', ['RCS207 11:75']],
  ['207-handle-form', ['RCS207 5:3']],
  ['207-phone-number', ['RCS207 10:86']],
  ['207-url-scheme', ['RCS207 11:74']],
  ['208-six-menu-items', ['RCS208 13:7']],
  ['209-postback', ['RCS209 13:11']],
  ['210-menu-type-menu', ['RCS210 7:17']],
  ['211-action-both', ['RCS211 11:11']],
  ['211-action-neither', ['RCS211 10:17']],
  ['212-suggestion-both', ['RCS212 10:9']],
  ['212-suggestion-empty', ['RCS212 10:9']],
  ['213-prune-twice', ['RCS213 4:29']],
  ['214-unquoted-chatbot-id', ['RCS214 5:3']],
  ['215-reply-two-targets', ['RCS215 10:16']],
  ['301-path-absolute', ['RCS301 5:17']],
  ['301-path-dotdot', ['RCS301 5:17']],
  ['303-file-missing', ['RCS303 5:17']],
  ['303-path-is-directory', ['RCS303 5:17']],
  ['304-certificate-type', ['RCS304 6:26']],
  ['304-file-type', ['RCS304 5:18']],
  ['306-extension-mismatch', ['RCS306 5:18']],
  ['306-not-an-image', ['RCS306 5:17']],
  ['307-logo-size', ['RCS307 7:11']],
  ['308-agency-mimetype', ['RCS308 7:15']],
  ['401-missing-file-handle', ['RCS507 5:3', 'RCS401 10:42']],
  ['402-missing-menu-handle', ['RCS402 13:49']],
  ['402-missing-reply-handle', ['RCS402 10:29']],
  ['403-handle-twice', ['RCS403 14:3']],
  ['404-chatbot-twice', ['RCS404 11:3']],
  ['405-agency-file-twice', ['RCS405 11:3']],
  ['406-brand-key-conflict', ['RCS406 7:34']],
  ['501-ignored-body-field', ['RCS501 10:7']],
  // A two-card slider (CCwMhM0200) shows title1..2, not title3.
  ['501-slider-card-beyond-count', ['RCS501 11:7']],
  ['502-unknown-messagebase', ['RCS502 7:20']],
  ['503-duplicate-name', ['RCS503 10:11']],
  ['504-duplicate-logo-name', ['RCS504 6:18']],
  ['505-menu-without-rcsreply', ['RCS505 13:7']],
  ['506-reply-outside-brand', ['RCS506 10:34']],
  ['507-unused-file', ['RCS507 10:3']],
  ['508-agency-file-id', ['RCS508 5:3']],
  ['509-pinned-id-twice', ['RCS509 11:9']],
  ['510-link-to-other-brand', ['RCS510 19:29']],
  ['511-menu-field-of-other-type', ['RCS511 16:9']],
  ['513-media-id-like-handle', ['RCS507 5:3', 'RCS513 10:61']],
  ['530-template-neither', ['RCS530 5:3']],
  ['531-custtmpltid-twice', ['RCS531 11:18']],
  ['532-template-button-variable', ['RCS532 10:38', 'RCS532 13:36', 'RCS532 13:82']],
];

describe('invalid manifest corpus', () => {
  it('has at least 40 invalid manifests', () => {
    expect(CASES.filter(([, want]) => want.some((w) => !/RCS5(01|02|06|07|08)/.test(w))).length).toBeGreaterThanOrEqual(40);
  });

  it.each(CASES)('%s', async (name, want) => {
    const result = await loadManifests([`${name}.yaml`], { env: ENV, cwd: FIXTURES });
    const got = result.diagnostics.map((d) => `${d.code} ${d.line}:${d.col}${d.followOn === true ? ' (follow-on)' : ''}`);
    expect(got).toEqual(want);
    // The fixture name starts with the code it is about.
    expect(got.some((g) => g.startsWith(`RCS${name.slice(0, 3)} `))).toBe(true);
    for (const d of result.diagnostics) {
      expect(d.file).toBe(`${name}.yaml`);
      expect(d.message.length).toBeGreaterThan(10);
    }
  });

  it('never echoes an interpolated brand key', async () => {
    const result = await loadManifests(['205-brand-key-too-long.yaml', '406-brand-key-conflict.yaml'], { env: ENV, cwd: FIXTURES });
    expect(hasErrors(result.diagnostics)).toBe(true);
    const text = JSON.stringify(result.diagnostics);
    for (const secret of Object.values(ENV)) expect(text).not.toContain(secret);
  });

  it('words one problem as one error, and suggests handles left out for their errors', async () => {
    const message = async (name: string, code: string): Promise<string | undefined> =>
      (await loadManifests([`${name}.yaml`], { env: ENV, cwd: FIXTURES })).diagnostics.find((d) => d.code === code)?.message;
    expect(await message('207-brand-id-14-characters', 'RCS207')).toBe('"id" has the wrong form: brandId: `BR.` followed by 10 letters or digits (max 13 characters). It is 14 characters long.');
    expect(await message('207-url-without-scheme', 'RCS207')).toBe('"url" has the wrong form: An absolute http or https URL.');
    expect(await message('201-misspelt-required-key', 'RCS201')).toBe('unknown key "bodyy" in "hours" (did you mean "body"?)');
    expect(await message('201-one-pass', 'RCS402')).toBe('no auto-reply "hors" in brand BR.test000001 (did you mean "hours"?)');
    expect(await message('513-media-id-like-handle', 'RCS513')).toBe('media "pik" is read as the id of a file already registered with the service; did you mean the file handle: { file: pic }?');
  });

  it('says what a length counts, and counts it in one unit', async () => {
    const result = await loadManifests(['205-emoji-name.yaml'], { env: ENV, cwd: FIXTURES });
    expect(result.diagnostics[0]?.message).toBe('"name" is 102 characters long (characters outside the Basic Multilingual Plane, such as emoji, count as 2); the maximum is 100');
  });

  it('names the position and the character, and never echoes control text raw', async () => {
    const messages: string[] = [];
    for (const f of ['109-invalid-utf8.yaml', '111-lone-surrogate.yaml', '601-bidi-name.yaml', '602-zero-width-name.yaml']) {
      messages.push(...(await loadManifests([f], { env: ENV, cwd: FIXTURES })).diagnostics.map((d) => d.message));
    }
    expect(messages).toEqual([
      'the file is not valid UTF-8 at byte 102 (bytes ff fe 22 0a); manifests are UTF-8 text. Is this a binary file?',
      'the value holds a lone surrogate U+D83D at character 9; it is not a character and cannot be sent as UTF-8',
      '"name" holds a bidirectional control U+202E at character 9: it can make the text read differently from how it is stored',
      '"name" holds an invisible character U+200B at character 12: two names that look the same may differ',
    ]);
  });
});

describe('follow-on YAML errors', () => {
  it('the text view shows the root cause and counts the rest; --verbose shows all', async () => {
    const { renderDiagnostics } = await import('../../src/manifest/index.js');
    const result = await loadManifests(['101-tab-indent.yaml'], { env: ENV, cwd: FIXTURES });
    const short = renderDiagnostics(result.diagnostics, { color: false, cwd: FIXTURES });
    expect(short.match(/error RCS101/g)).toHaveLength(1);
    expect(short).toContain('101-tab-indent.yaml:7:1: error RCS101: Tabs are not allowed as indentation');
    expect(short).toContain('3 follow-on errors suppressed');
    const all = renderDiagnostics(result.diagnostics, { color: false, cwd: FIXTURES, verbose: true });
    expect(all.match(/error RCS101/g)).toHaveLength(4);
    expect(all).not.toContain('suppressed');
  });
});
