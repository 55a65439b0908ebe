// What a CI runner gives a recipe's scripts, on this machine: bash, a bin
// directory whose `npx rcsctl` is this checkout's rcsctl, whose `npm ci` does
// nothing (dist/ is built) and whose `gh` is a fake of the pull-request
// comment API that keeps its comments in a JSON file; and a fake of GitLab's
// merge-request notes API on 127.0.0.1, which the recipes reach with the real
// curl. Both fakes record every call, so a test can tell an edit from a post.

import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { ROOT } from './e2e/helpers.js';

/** A script's outcome. */
export interface ScriptRun {
  code: number;
  output: string;
}

/** Run `script` as a CI runner does (`bash -e`, GitLab adds pipefail), asynchronously so an in-process emulator keeps answering. */
export function runScript(script: string, cwd: string, env: Record<string, string>): Promise<ScriptRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? -1, output }));
  });
}

/** A comment as the fakes keep it. */
export interface FakeComment {
  id: number;
  body: string;
  author: string;
}

/** One call to a comment API: method and path, and the body sent. */
export interface CommentCall {
  method: string;
  path: string;
  body?: string;
}

const GH = `#!/usr/bin/env node
// Fake gh: only \`gh api\` on issue comments, as the recipes call it.
const fs = require('node:fs');
const state = process.env.FAKE_GH_STATE;
const db = JSON.parse(fs.readFileSync(state, 'utf8'));
const args = process.argv.slice(2);
const fail = (m) => { process.stderr.write('fake gh: ' + m + '\\n'); process.exit(1); };
if (args[0] !== 'api') fail('only gh api is faked: ' + args.join(' '));
if (!process.env.GH_TOKEN) fail('no GH_TOKEN');
let method = 'GET', path, jq, body, paginate = false;
for (let i = 1; i < args.length; i++) {
  const a = args[i];
  if (a === '--method' || a === '-X') method = args[++i];
  else if (a === '--paginate') paginate = true;
  else if (a === '--jq' || a === '-q') jq = args[++i];
  else if (a === '-F' || a === '--field' || a === '-f' || a === '--raw-field') {
    const [k, ...v] = args[++i].split('=');
    const value = v.join('=');
    if (k !== 'body') fail('unexpected field ' + k);
    body = a.startsWith('-F') || a === '--field' ? (value.startsWith('@') ? fs.readFileSync(value.slice(1), 'utf8') : value) : value;
  } else if (path === undefined) path = a;
  else fail('unexpected argument ' + a);
}
db.calls.push({ method, path, ...(body !== undefined ? { body } : {}) });
const save = () => fs.writeFileSync(state, JSON.stringify(db));
let m;
if (method === 'GET' && (m = /^repos\\/[^/]+\\/[^/]+\\/issues\\/(\\d+)\\/comments$/.exec(path))) {
  // Two comments a page, as GitHub's pages go: without --paginate only the first page comes back.
  const list = db.comments.map((c) => ({ id: c.id, body: c.body, user: { login: c.author } })).slice(0, paginate ? undefined : 2);
  save();
  if (jq === undefined) { process.stdout.write(JSON.stringify(list)); process.exit(0); }
  const sel = /^\\.\\[\\] \\| select\\(\\.body \\| startswith\\("(.*)"\\)\\) \\| \\.id$/.exec(jq);
  if (!sel) fail('this fake knows one --jq filter, not ' + jq);
  for (const c of list) if (c.body.startsWith(sel[1])) process.stdout.write(c.id + '\\n');
} else if (method === 'POST' && /^repos\\/[^/]+\\/[^/]+\\/issues\\/\\d+\\/comments$/.test(path)) {
  if (body === undefined) fail('no body');
  db.comments.push({ id: db.next++, body, author: 'github-actions[bot]' });
  save();
} else if (method === 'PATCH' && (m = /^repos\\/[^/]+\\/[^/]+\\/issues\\/comments\\/(\\d+)$/.exec(path))) {
  const c = db.comments.find((x) => x.id === Number(m[1]));
  if (!c) fail('no comment ' + m[1]);
  if (body === undefined) fail('no body');
  c.body = body;
  save();
} else fail('not faked: ' + method + ' ' + path);
`;

const CURL = `#!/usr/bin/env node
// Fake curl: the flags the recipes use, over real HTTP (to the fake notes API),
// so the tests need no curl installed; any other flag is refused.
const fs = require('node:fs');
const args = process.argv.slice(2);
const fail = (m, code = 2) => { process.stderr.write('fake curl: ' + m + '\\n'); process.exit(code); };
let method, url, output, dump, failOnError = false;
const headers = {};
const data = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--fail') failOnError = true;
  else if (a === '--silent' || a === '--show-error') continue;
  else if (a === '--header') { const h = args[++i]; const c = h.indexOf(':'); headers[h.slice(0, c).trim()] = h.slice(c + 1).trim(); }
  else if (a === '--request') method = args[++i];
  else if (a === '--output') output = args[++i];
  else if (a === '--dump-header') dump = args[++i];
  else if (a === '--data-urlencode') {
    const v = args[++i];
    const at = v.indexOf('@');
    const eq = v.indexOf('=');
    if (at > 0 && (eq < 0 || at < eq)) data.push(v.slice(0, at) + '=' + encodeURIComponent(fs.readFileSync(v.slice(at + 1), 'utf8')));
    else if (eq > 0) data.push(v.slice(0, eq) + '=' + encodeURIComponent(v.slice(eq + 1)));
    else fail('cannot read --data-urlencode ' + v);
  } else if (a.startsWith('-')) fail('unknown option ' + a);
  else if (url === undefined) url = a;
  else fail('a second URL ' + a);
}
if (url === undefined) fail('no URL');
const body = data.length > 0 ? data.join('&') : undefined;
if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
fetch(url, { method: method ?? (body !== undefined ? 'POST' : 'GET'), headers, body }).then(async (res) => {
  const text = await res.text();
  if (dump !== undefined) fs.writeFileSync(dump, 'HTTP/1.1 ' + res.status + '\\r\\n' + [...res.headers].map(([k, v]) => k + ': ' + v + '\\r\\n').join('') + '\\r\\n');
  if (failOnError && res.status >= 400) fail('The requested URL returned error: ' + res.status, 22);
  if (output !== undefined) fs.writeFileSync(output, text); else process.stdout.write(text);
}, (e) => fail(String(e), 7));
`;

/** The bin directory: npx (this checkout's rcsctl), npm (no-op), gh and curl (the fakes). */
export function makeBin(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const rcsctl = join(ROOT, 'bin', 'rcsctl.js');
  const files: Record<string, string> = {
    npx: `#!/bin/sh\n[ "$1" = rcsctl ] || { echo "fake npx: only rcsctl" >&2; exit 1; }\nshift\nexec node ${JSON.stringify(rcsctl)} "$@"\n`,
    npm: `#!/bin/sh\n[ "$1" = ci ] || { echo "fake npm: only npm ci" >&2; exit 1; }\n`,
    gh: GH,
    curl: CURL,
  };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

/** The fake gh's store: a pull request's comments and every call made. */
export class GhComments {
  constructor(readonly file: string) {
    writeFileSync(file, JSON.stringify({ next: 1, comments: [], calls: [] }));
  }
  private get db(): { next: number; comments: FakeComment[]; calls: CommentCall[] } {
    return JSON.parse(readFileSync(this.file, 'utf8')) as { next: number; comments: FakeComment[]; calls: CommentCall[] };
  }
  /** Someone else's comment, as another workflow or a person leaves one. */
  add(body: string, author: string): void {
    const db = this.db;
    db.comments.push({ id: db.next++, body, author });
    writeFileSync(this.file, JSON.stringify(db));
  }
  comments(): FakeComment[] {
    return this.db.comments;
  }
  calls(): CommentCall[] {
    return this.db.calls;
  }
}

/** A fake of GitLab's merge-request notes API (list with pagination, create, edit) on 127.0.0.1. */
export class GitlabNotes {
  readonly notes: FakeComment[] = [];
  readonly calls: CommentCall[] = [];
  private next = 1;
  private server: Server | undefined;
  url = '';

  constructor(readonly token: string, readonly perPageMax = 100) {}

  /** Someone else's note. */
  add(body: string, author: string): void {
    this.notes.push({ id: this.next++, body, author });
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (d: Buffer) => (raw += d.toString()));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://x');
        const body = raw === '' ? undefined : new URLSearchParams(raw).get('body') ?? undefined;
        this.calls.push({ method: req.method ?? '', path: url.pathname, ...(body !== undefined ? { body } : {}) });
        const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(value));
        };
        if (req.headers['private-token'] !== this.token) return send(401, { message: '401 Unauthorized' });
        const m = /^\/api\/v4\/projects\/(\d+)\/merge_requests\/(\d+)\/notes(?:\/(\d+))?$/.exec(url.pathname);
        if (m === null) return send(404, { message: '404 Not Found' });
        if (req.method === 'GET' && m[3] === undefined) {
          const per = Math.min(Number(url.searchParams.get('per_page') ?? 20), this.perPageMax);
          const page = Number(url.searchParams.get('page') ?? 1);
          const slice = this.notes.slice((page - 1) * per, page * per).map((n) => ({ id: n.id, body: n.body, author: { username: n.author } }));
          const more = page * per < this.notes.length;
          return send(200, slice, { 'x-page': String(page), 'x-next-page': more ? String(page + 1) : '' });
        }
        if (req.method === 'POST' && m[3] === undefined && body !== undefined) {
          const note = { id: this.next++, body, author: 'project_bot' };
          this.notes.push(note);
          return send(201, note);
        }
        const note = this.notes.find((n) => n.id === Number(m[3]));
        if (req.method === 'PUT' && note !== undefined && body !== undefined) {
          note.body = body;
          return send(200, note);
        }
        return send(note === undefined ? 404 : 400, { message: 'not faked' });
      });
    });
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v4`;
  }

  async close(): Promise<void> {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

/** Files under `dir` (relative paths), as an artifact upload lists them. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile());
}

/** Copy `from`'s files matching `patterns` (a glob with `*`, or a directory ending in `/`) into `to`; the number copied. */
export function copyMatching(from: string, patterns: readonly string[], to: string): number {
  let n = 0;
  for (const f of filesUnder(from)) {
    if (!patterns.some((p) => matches(p, f))) continue;
    mkdirSync(join(to, relative(from, join(from, f)), '..'), { recursive: true });
    cpSync(join(from, f), join(to, f));
    n++;
  }
  return n;
}

function matches(pattern: string, file: string): boolean {
  const p = pattern.replace(/^\.\//, '');
  if (p.endsWith('/')) return file.startsWith(p);
  const re = new RegExp(`^${p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);
  return re.test(file);
}
