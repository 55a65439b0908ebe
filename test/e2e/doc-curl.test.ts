// docs/emulator.md and docs/templates.md: every `curl` of their sh blocks runs
// as written, in the order the page gives, against the emulator the page says
// to start (the last `rcsctl emulator …` line above it, on port 0 here instead
// of 8080). A comment line right after a curl that shows an answer (`# {…}`) is
// the answer expected, `…` standing for any text; a curl without one must be
// answered 200. The curls are read with a small shell-word reader and sent with
// undici as curl would send them (`-d` is a POST, form-encoded unless a
// Content-Type is given), so no curl needs to be installed.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { start } from '../emulator/helpers.js';
import { ROOT } from './helpers.js';

/** One step of a page: start an emulator, or send one curl. */
type Step = { kind: 'start'; seed: string | undefined; text: string } | { kind: 'curl'; words: string[]; text: string; expected: string | undefined };

/** A shell command's words, or a comment line's text. */
type Piece = { kind: 'words'; words: string[]; text: string } | { kind: 'comment'; text: string };

/** Split an sh block into commands (quotes may span lines; `\` newline continues) and comment lines. */
function pieces(block: string): Piece[] {
  const out: Piece[] = [];
  let words: string[] = [];
  let word: string | null = null;
  let begin = 0;
  const end = (i: number) => {
    if (word !== null) words.push(word);
    word = null;
    if (words.length > 0) out.push({ kind: 'words', words, text: block.slice(begin, i).trim() });
    words = [];
  };
  for (let i = 0; i < block.length; i++) {
    const c = block[i] as string;
    if (words.length === 0 && word === null) begin = i;
    if (c === "'") {
      const close = block.indexOf("'", i + 1);
      if (close < 0) throw new Error(`unclosed quote in:\n${block.slice(i)}`);
      word = (word ?? '') + block.slice(i + 1, close);
      i = close;
    } else if (c === '\\' && block[i + 1] === '\n') i++;
    else if (c === '#' && word === null) {
      end(i);
      const eol = block.indexOf('\n', i);
      out.push({ kind: 'comment', text: block.slice(i + 1, eol < 0 ? undefined : eol).trim() });
      i = eol < 0 ? block.length : eol;
    } else if (c === '\n') end(i);
    else if (c === ' ' || c === '\t') {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? '') + c;
  }
  end(block.length);
  return out;
}

/** The steps of a page, in order. */
function steps(page: string): Step[] {
  const text = readFileSync(join(ROOT, 'docs', page), 'utf8');
  const out: Step[] = [];
  for (const m of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const ps = pieces(m[1] as string);
    ps.forEach((p, i) => {
      if (p.kind !== 'words') return;
      const [cmd, sub] = p.words;
      // `rcsctl emulator [--host …]` is the synopsis, not a command to run.
      if (cmd === 'rcsctl' && sub === 'emulator' && !p.text.includes('[')) {
        const at = p.words.indexOf('--seed');
        out.push({ kind: 'start', seed: at < 0 ? undefined : p.words[at + 1], text: p.text });
      } else if (cmd === 'curl') {
        const next = ps[i + 1];
        const expected = next?.kind === 'comment' && next.text.startsWith('{') ? next.text : undefined;
        out.push({ kind: 'curl', words: p.words.slice(1), text: p.text, expected });
      }
    });
  }
  return out;
}

/** Send one curl to the emulator as curl would. */
async function runCurl(emu: RunningEmulator, words: string[]): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = {};
  let body: string | undefined;
  let method: string | undefined;
  let url: string | undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (w === '-s') continue;
    else if (w === '-H') {
      const h = words[++i] as string;
      const colon = h.indexOf(':');
      headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
    } else if (w === '-d') body = words[++i];
    else if (w === '-X') method = words[++i];
    else if (w.startsWith('-')) throw new Error(`curl option ${w} is not read by this test`);
    else url = w;
  }
  const path = /^(?:http:\/\/)?localhost:8080(\/.*)$/.exec(url ?? '');
  if (path === null) throw new Error(`a documented curl must name localhost:8080, not ${url}`);
  if (body !== undefined) headers['content-type'] ??= 'application/x-www-form-urlencoded';
  const res = await request(emu.url + path[1], { method: (method ?? (body === undefined ? 'GET' : 'POST')) as 'GET', headers, body });
  return { status: res.statusCode, text: await res.body.text() };
}

/** An expected answer as a pattern: `…` is any text. */
function pattern(expected: string): RegExp {
  return new RegExp(`^${expected.split('…').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

describe.each(['emulator.md', 'templates.md'])('every curl of docs/%s runs as written', (page) => {
  it('against the emulator the page says to start, in order, with the answers shown', async () => {
    const all = steps(page);
    const curls = all.filter((s) => s.kind === 'curl');
    // Every line of an sh block that starts a curl was read as one.
    const written = [...readFileSync(join(ROOT, 'docs', page), 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => (m[1] as string).split('\n').filter((l) => l.startsWith('curl ')));
    expect(curls.length, `${page} has curl examples`).toBeGreaterThan(0);
    expect(curls.map((c) => c.text.split('\n')[0])).toEqual(written);
    let emu: RunningEmulator | undefined;
    try {
      for (const step of all) {
        if (step.kind === 'start') {
          await emu?.close();
          emu = await start(step.seed === undefined ? undefined : join(ROOT, step.seed));
          continue;
        }
        if (emu === undefined) throw new Error(`${page}: a curl before any \`rcsctl emulator\` line says which emulator to start:\n${step.text}`);
        const answer = await runCurl(emu, step.words);
        if (step.expected !== undefined) expect(answer.text, step.text).toMatch(pattern(step.expected));
        else expect(answer.status, `${step.text}\n${answer.text}`).toBe(200);
      }
    } finally {
      await emu?.close();
    }
  });
});
