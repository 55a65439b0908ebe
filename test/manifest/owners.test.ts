// Whose is a manifest file with errors that names no brand: the brand its
// broken document declares above the error, the one brand whose files share
// its folder (or a parent folder in the brand's tree), or the brand its path
// names; a file tied to none stays unowned (and stops the commands that send).

import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';

const brand = (id: string, extra = ''): string => `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${id} }\n${extra}`;
const A = 'BR.acme000001';
const B = 'BR.beta000001';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rcsctl-owners-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
}

const load = (paths = ['brands']) => loadManifests(paths, { env: {}, cwd: dir });
const ownerOf = async (file: string, paths?: string[]) => (await load(paths)).skipped.filter((s) => s.file === file).map(({ brandId, by }) => ({ brandId, by }));

describe('a file with errors that names no brand', () => {
  it('is the brand its broken document declares above the first error', async () => {
    await write({ 'brands/acme/brand.yaml': brand(A), 'brands/beta/brand.yaml': brand(B), 'brands/stray.yaml': brand(B, 'autoReplies:\n  hi: { name: [Hi }\n') });
    expect(await ownerOf('brands/stray.yaml')).toEqual([{ brandId: B, by: 'document' }]);
  });

  it('not when the id is on the line of the error, or below it', async () => {
    await write({ 'brands/acme/brand.yaml': brand(A), 'brands/beta/brand.yaml': brand(B), 'brands/stray.yaml': `apiVersion: rcsctl/v1\nkind: Brand\nautoReplies: [\nbrand: { id: ${B} }\n` });
    expect(await ownerOf('brands/stray.yaml')).toEqual([]);
  });

  it("is the brand whose files share its folder, or a parent folder of the brand's tree", async () => {
    await write({
      'brands/acme/brand.yaml': brand(A),
      'brands/acme/rooms/menus/broken.yaml': 'chatbots: [\n  x: 1\n',
      'brands/acme/broken.yaml': 'chatbots: {\n',
      'brands/beta/brand.yaml': brand(B),
    });
    expect(await ownerOf('brands/acme/broken.yaml')).toEqual([{ brandId: A, by: 'folder' }]);
    expect(await ownerOf('brands/acme/rooms/menus/broken.yaml')).toEqual([{ brandId: A, by: 'folder' }]);
  });

  it('files right in its folder decide before those below it', async () => {
    await write({ 'brands/acme/brand.yaml': brand(A), 'brands/acme/beta-extra/x.yaml': brand(B), 'brands/acme/broken.yaml': 'a: [\n' });
    expect(await ownerOf('brands/acme/broken.yaml')).toEqual([{ brandId: A, by: 'folder' }]);
  });

  it('a folder that holds two brands decides nothing; then the path may name the brand', async () => {
    await write({ 'brands/acme/brand.yaml': brand(A), 'brands/beta/brand.yaml': brand(B), 'brands/broken.yaml': 'a: [\n', [`brands/${B}.yaml`]: 'a: [\n' });
    expect(await ownerOf('brands/broken.yaml')).toEqual([]);
    expect(await ownerOf(`brands/${B}.yaml`)).toEqual([{ brandId: B, by: 'path' }]);
  });

  it('brands of one file each in one folder share it: their folder decides nothing', async () => {
    await write({ 'brands/acme.yaml': brand(A), 'brands/beta.yaml': brand(B), 'brands/gamma.yaml': 'a: [\n' });
    expect(await ownerOf('brands/gamma.yaml')).toEqual([]);
  });

  it('a path that names a brand the manifests declare nowhere else still names it', async () => {
    await write({ 'brands/acme/brand.yaml': brand(A), 'brands/BR.gone000001/brand.yaml': 'a: [\n' });
    expect(await ownerOf('brands/BR.gone000001/brand.yaml')).toEqual([{ brandId: 'BR.gone000001', by: 'path' }]);
  });

  it('the folder rule stops at the path it was found under', async () => {
    await write({ 'brands/acme/brand.yaml': brand(A), 'other/broken.yaml': 'a: [\n' });
    expect(await ownerOf('other/broken.yaml', ['brands', 'other'])).toEqual([]);
    expect(await ownerOf('other/broken.yaml', ['brands', 'other/broken.yaml'])).toEqual([]);
  });

  it("a brand with a broken file gets no missing-handle errors for what that file may have declared", async () => {
    await write({
      'brands/acme/brand.yaml': brand(A, 'autoReplies:\n  hi:\n    name: Hi\n    messagebaseId: SCS00000\n    body: { description: Hello }\n    chipList: [{ reply: { displayText: More, autoReply: more } }]\n'),
      'brands/acme/more.yaml': 'autoReplies:\n  more: { name: [More }\n',
    });
    const r = await load();
    expect(r.skipped).toEqual([{ brandId: A, file: 'brands/acme/more.yaml', by: 'folder' }]);
    expect(r.diagnostics.filter((d) => d.followOn !== true).map((d) => d.code)).toEqual(['RCS101']);
  });
});
