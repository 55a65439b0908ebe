// `rcsctl validate` in one pass, through the CLI: a schema error in one
// resource does not hide a missing file, an unknown reference or a
// messagebase elsewhere; one problem gives one error; a media id that is
// nearly a file handle gets "did you mean".

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from './helpers.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'manifests');
const validate = (...files: string[]) => cli(['validate', ...files, '--json'], { cwd: FIXTURES });
const codes = (stdout: string): string[] => (JSON.parse(stdout) as { diagnostics: { code: string; line: number }[] }).diagnostics.map((d) => `${d.code} ${d.line}`);

describe('rcsctl validate in one pass', () => {
  it('reports the schema error beside the missing file, the unknown messagebase and the unknown reference', async () => {
    const r = await validate('201-one-pass.yaml');
    expect(r.code).toBe(1);
    expect(codes(r.stdout)).toEqual(['RCS303 7', 'RCS201 12', 'RCS502 15', 'RCS402 19']);
    // The link to the auto-reply left out for its error is not called missing; the misspelt one gets a suggestion.
    const text = await cli(['validate', '201-one-pass.yaml'], { cwd: FIXTURES });
    expect(text.stderr).toContain('no auto-reply "hors" in brand BR.test000001 (did you mean "hours"?)');
    expect(text.stderr).not.toContain('no auto-reply "hours"');
    expect(text.stderr).toContain('4 errors, 0 warnings');
  });

  it('gives one error for one problem: a 14-character brand id, a URL without https://, a misspelt required key', async () => {
    for (const [file, line] of [['207-brand-id-14-characters.yaml', 3], ['207-url-without-scheme.yaml', 11], ['201-misspelt-required-key.yaml', 8]] as const) {
      const r = await validate(file);
      expect(r.code).toBe(1);
      expect(codes(r.stdout), file).toHaveLength(1);
      expect(codes(r.stdout)[0], file).toMatch(new RegExp(` ${line}$`));
    }
  });

  it('suggests the file handle a bare media value nearly names', async () => {
    const r = await cli(['validate', '513-media-id-like-handle.yaml'], { cwd: FIXTURES });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning RCS513: media "pik" is read as the id of a file already registered with the service; did you mean the file handle: { file: pic }?');
  });
});
