// `rcsctl validate`, in-process through main() and as the built CLI in a child
// process: exit codes, text and JSON output, --strict.

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'manifests');

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

async function run(argv: string[], cwd = ROOT, env: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await main(argv, { stdout, stderr, env, cwd });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('rcsctl validate (in-process)', () => {
  it('exits 0 on the example brand, even with --strict, and says what it holds', async () => {
    const r = await run(['validate', 'examples/brand', '--strict']);
    // Its two rooms exist (plan reads them live) and declare no certificate: a note each (RCS514), no error, no warning.
    expect(r.stderr.match(/^\S+: (error|warning|note) RCS\d+/gm)).toEqual(['examples/brand/brand.yaml:118:3: note RCS514', 'examples/brand/brand.yaml:135:3: note RCS514']);
    expect(r.stderr).toContain('0 errors, 0 warnings, 2 notes\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^BR\.demo000001: valid \(2 auto-reply files, 6 auto-replies, 1 logo, 0 templates, 0 layouts, 2 rooms, 1 persistent menu, 0 bidirectional rooms, 1 agency file, 0 brand profiles, 0 privileges\)\n$/);
  });

  it('exits 1 on errors and prints them compiler-style with a caret under the fault', async () => {
    const r = await run(['validate', '201-unknown-body-key.yaml'], FIXTURES);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      '201-unknown-body-key.yaml:8:13: error RCS201: unknown key "descripton" in "body" (did you mean "description"?) [/autoReplies/hours/body/descripton]\n' +
        '   8 |     body: { descripton: Mon-Fri 9-18 }\n' +
        '     |             ^\n' +
        '1 error, 0 warnings\n',
    );
  });

  it('gives machine-readable diagnostics with --format json', async () => {
    const r = await run(['validate', '--format', 'json', '402-missing-reply-handle.yaml', '508-agency-file-id.yaml'], FIXTURES);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { ok: boolean; errors: number; warnings: number; diagnostics: Record<string, unknown>[] };
    expect(out.ok).toBe(false);
    expect(out.errors).toBe(1);
    expect(out.warnings).toBe(1);
    expect(out.diagnostics).toEqual([
      expect.objectContaining({ code: 'RCS402', severity: 'error', file: '402-missing-reply-handle.yaml', line: 10, col: 29, path: '/autoReplies/hours/chipList/0/reply/autoReply' }),
      expect.objectContaining({ code: 'RCS508', severity: 'warning', file: '508-agency-file-id.yaml', line: 5, col: 3, path: '/agencyFiles/spring-banner' }),
    ]);
  });

  it('exits 0 on warnings alone, and 1 with --strict', async () => {
    const plain = await run(['validate', '501-ignored-body-field.yaml'], FIXTURES);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain('warning RCS501');
    const strict = await run(['validate', '--strict', '501-ignored-body-field.yaml'], FIXTURES);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('warnings are errors under --strict');
    const json = await run(['validate', '--strict', '--format', 'json', '501-ignored-body-field.yaml'], FIXTURES);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, errors: 0, warnings: 1 });
  });

  it('notes a room without a certificate (RCS514) at its line in every format, and never fails on it, not even with --strict', async () => {
    const NO_CERT = join(ROOT, 'test', 'plan-cases', '022-new-room-without-certificate-error');
    const message = 'room 0211112222 declares no certificate; if it is not registered yet, registering it will need one (plan checks the live list)';
    const text = await run(['validate', '--strict', 'manifest.yaml'], NO_CERT);
    expect(text.code).toBe(0);
    expect(text.stderr).toBe(`manifest.yaml:5:3: note RCS514: ${message} [/chatbots/0211112222]\n   5 |   "0211112222":\n     |   ^\n0 errors, 0 warnings, 1 note\n`);
    expect(text.stdout).toMatch(/^BR\.demo000001: valid \(/);
    const json = await run(['validate', '--strict', '--format', 'json', 'manifest.yaml'], NO_CERT);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, errors: 0, warnings: 0, notes: 1, diagnostics: [{ code: 'RCS514', severity: 'note', file: 'manifest.yaml', line: 5, col: 3, path: '/chatbots/0211112222', message }] });
    const md = await run(['validate', '--strict', '--format', 'markdown', 'manifest.yaml'], NO_CERT);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('**Valid**: 1 manifest file, 0 warnings, 1 note.');
    expect(md.stdout).toContain(`| ℹ️ | RCS514 | \`manifest.yaml:5:3\` | \`/chatbots/0211112222\` | ${message} |`);
    const junit = await run(['validate', '--strict', '--format', 'junit', 'manifest.yaml'], NO_CERT);
    expect(junit.code).toBe(0);
    expect(junit.stdout).toContain('failures="0"');
    expect(junit.stdout).not.toContain('<failure');
    expect(junit.stdout).toContain(`<testcase classname="manifest.yaml" name="RCS514 manifest.yaml:5:3 /chatbots/0211112222">\n      <system-out>note RCS514: ${message}</system-out>`);
    const dir = mkdtempSync(join(tmpdir(), 'rcsctl-note-'));
    try {
      const report = join(dir, 'report.xml');
      const out = await run(['validate', '--strict', '--format', 'junit', '--out', report, 'manifest.yaml'], NO_CERT);
      expect(out.code).toBe(0);
      expect(out.stdout).toBe(`valid: 0 errors, 0 warnings, 1 note\nWrote the junit report to ${report}.\n`);
      expect(readFileSync(report, 'utf8')).toContain('<system-out>note RCS514: ');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // A warning beside the note still fails --strict: the note does not hide it, nor count as one.
    const both = await run(['validate', '--strict', '--format', 'json', 'manifest.yaml', join(FIXTURES, '501-ignored-body-field.yaml')], NO_CERT);
    expect(both.code).toBe(1);
    expect(JSON.parse(both.stdout)).toMatchObject({ ok: false, errors: 0, warnings: 1, notes: 1 });
  });

  it('refuses an unknown --format and a missing path argument', async () => {
    expect((await run(['validate', '--format', 'xml', 'examples/brand'])).code).toBe(1);
    expect((await run(['validate'])).code).toBe(1);
  });

  it('never prints the brand key it interpolated', async () => {
    const r = await run(['validate', '--format', 'json', '205-brand-key-too-long.yaml'], FIXTURES, { FIXTURE_LONG_KEY: 'S3CRET-brand-key-19' });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).not.toContain('S3CRET');
  });
});

describe('rcsctl validate (built CLI, child process)', () => {
  const bin = join(ROOT, 'bin', 'rcsctl.js');
  // dist/ is current: test/global-build.ts builds it when older than the sources.

  it('validates the example clean (exit 0)', async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, 'validate', 'examples/brand', '--strict'], { cwd: ROOT });
    expect(stderr.match(/(error|warning) RCS/g)).toBeNull();
    expect(stderr).toContain('0 errors, 0 warnings, 2 notes');
    expect(stdout).toContain('BR.demo000001: valid');
  });

  it('exits 1 on an invalid manifest', async () => {
    const err = await promisify(execFile)(process.execPath, [bin, 'validate', '--no-color', 'test/fixtures/manifests/210-menu-type-menu.yaml'], { cwd: ROOT }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err?.code).toBe(1);
    expect(err?.stderr).toContain('test/fixtures/manifests/210-menu-type-menu.yaml:7:17: error RCS210');
  });
});
