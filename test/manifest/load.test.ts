// loadManifests on the example brand and on temp-dir layouts the fixture
// corpus cannot hold: symlinks, big files, directories, several files per brand.

import { mkdtemp, mkdir, rm, symlink, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasErrors, loadManifests } from '../../src/manifest/index.js';
import { MAX_MANIFEST_BYTES } from '../../src/manifest/read-yaml.js';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const EXAMPLE = join(ROOT, 'examples', 'brand');
const HERO = join(EXAMPLE, 'images', 'hero.png');

const HEAD = 'apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: BR.test000001 }\n';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rcsctl-manifest-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const codes = (r: { diagnostics: { code: string }[] }): string[] => r.diagnostics.map((d) => d.code);

describe('the example brand', () => {
  it('loads clean into one DesiredBrand', async () => {
    const r = await loadManifests(['examples/brand'], { env: {}, cwd: ROOT });
    expect(r.diagnostics).toEqual([]);
    expect(r.brands).toHaveLength(1);
    const b = r.brands[0]!;
    expect(b.brandId).toBe('BR.demo000001');
    expect(b.brandKey).toBeUndefined();
    expect(b.manifestFiles).toEqual(['examples/brand/brand.yaml']);
    expect(b.autoReplies.size).toBeGreaterThanOrEqual(6);
    expect(new Set([...b.autoReplies.values()].map((a) => a.messagebaseId))).toEqual(new Set(['SCS00000', 'SCwThM00', 'CCwMhM0200']));
    const hero = b.files.get('hero')!;
    expect(hero.file.uploadName).toMatch(/^hero-[0-9a-f]{12}\.png$/);
    expect(hero.file.uploadName.slice(5, 17)).toBe(hero.file.sha256.slice(0, 12));
    expect(hero.file).toMatchObject({ mimeType: 'image/png', extension: 'png', relPath: 'images/hero.png', width: 600, height: 300 });
    expect(hero.file.size).toBe(hero.file.bytes.length);
    expect(b.logos.get('main')!.file).toMatchObject({ width: 300, height: 300 });
    // The seeded rooms, declared exactly as they are live.
    expect(b.chatbots.get('0212345678')).toMatchObject({ subTitle: 'Coffee Co', display: '11', inputField: 1, rcsReply: '1', subDescr: 'Fresh coffee daily', saftyStatusYn: 'Y' });
    expect(b.chatbots.get('0298765432')).toMatchObject({ subTitle: 'Coffee Co Events', display: '10', inputField: 0, rcsReply: '0', subDescr: 'Event line', saftyStatusYn: 'Y' });
    expect(b.chatbots.get('0298765432')!.persistentMenu).toBeUndefined();
    const menu = b.chatbots.get('0212345678')!.persistentMenu!;
    expect(menu.map((m) => m.type)).toContain('action');
    expect(menu.filter((m) => m.type === 'reply').every((m) => m.autoReply !== undefined && b.autoReplies.has(m.autoReply))).toBe(true);
    expect(b.agencyFiles.get('BR.demo000001.spring')).toMatchObject({ usageType: 'send', mimeType: 'image/png' });
    // Two auto-replies link to each other (a cycle), and that is valid.
    const links = (h: string): string[] =>
      [...(b.autoReplies.get(h)!.chipList ?? []), ...(b.autoReplies.get(h)!.buttons ?? []).flatMap((g) => g.suggestions ?? [])]
        .map((s) => s.reply?.autoReply)
        .filter((x): x is string => x !== undefined);
    expect(links('hours')).toContain('location');
    expect(links('location')).toContain('hours');
    expect(b.autoReplies.get('hours')!.body.media).toEqual({ file: 'hero' });
    expect(b.autoReplies.get('hours')!.source).toMatchObject({ file: 'examples/brand/brand.yaml', path: '/autoReplies/hours' });
  });
});

describe('loading layouts', () => {
  it('interpolates ${env:NAME}, keeps $${ literal, and merges documents and files of one brand', async () => {
    await mkdir(join(dir, 'nested', 'deeper'), { recursive: true });
    await writeFile(join(dir, 'a.yaml'), 'apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: BR.test000001, key: "${env:BK}" }\nprune: [autoReplies]\n' +
      'autoReplies:\n  a: { name: "Costs $${env:X}", messagebaseId: SCS00000, body: { description: "${env:GREETING}" } }\n');
    await writeFile(join(dir, 'nested', 'deeper', 'b.yml'), HEAD + 'prune: [logos, autoReplies]\nautoReplies:\n  b: { name: B, messagebaseId: SCS00000, body: { description: x }, chipList: [ { reply: { autoReply: a, displayText: A } } ] }\n' +
      '---\n' + HEAD + 'chatbots:\n  "0211112222": { rcsReply: "1", persistentMenu: [] }\n');
    await writeFile(join(dir, 'notes.txt'), 'not a manifest');
    const r = await loadManifests([dir], { env: { BK: 'secret-brand-key', GREETING: 'Hi' }, cwd: '/' });
    expect(r.diagnostics).toEqual([]);
    expect(r.brands).toHaveLength(1);
    const b = r.brands[0]!;
    expect(b.brandKey).toBe('secret-brand-key');
    expect(b.prune.sort()).toEqual(['autoReplies', 'logos']);
    expect([...b.autoReplies.keys()]).toEqual(['a', 'b']);
    expect(b.autoReplies.get('a')!.name).toBe('Costs ${env:X}');
    expect(b.autoReplies.get('a')!.body.description).toBe('Hi');
    expect(b.manifestFiles).toHaveLength(2);
    expect(b.chatbots.get('0211112222')).toMatchObject({ rcsReply: '1', persistentMenu: [] });
    expect(b.chatbots.get('0211112222')!.subTitle).toBeUndefined();
  });

  it('keeps brands apart', async () => {
    await writeFile(join(dir, 'two.yaml'), HEAD + '---\napiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: BR.test000002 }\n');
    const r = await loadManifests(['two.yaml'], { env: {}, cwd: dir });
    expect(r.brands.map((b) => b.brandId)).toEqual(['BR.test000001', 'BR.test000002']);
  });

  it('refuses a symlink that leads out of the manifest directory, and accepts one that stays inside', async () => {
    const inner = join(dir, 'm');
    await mkdir(join(inner, 'images'), { recursive: true });
    await copyFile(HERO, join(dir, 'outside.png'));
    await copyFile(HERO, join(inner, 'images', 'hero.png'));
    await symlink(join(dir, 'outside.png'), join(inner, 'images', 'escape.png'));
    await symlink(join(inner, 'images', 'hero.png'), join(inner, 'images', 'alias.png'));
    await writeFile(join(inner, 'm.yaml'), HEAD + 'files:\n  out: { path: images/escape.png }\n  in: { path: images/alias.png }\n');
    const r = await loadManifests(['m/m.yaml'], { env: {}, cwd: dir });
    const bad = r.diagnostics.filter((d) => d.severity === 'error');
    expect(bad.map((d) => `${d.code} ${d.line}:${d.col} ${d.path}`)).toEqual(['RCS302 5:16 /files/out/path']);
    expect(r.brands[0]!.files.has('in')).toBe(true);
  });

  describe('files shared inside the repository', () => {
    const brandDoc = (id: string, rel: string): string =>
      `apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: ${id} }\nfiles:\n  footer: { path: ${rel} }\n` +
      'autoReplies:\n  hours: { name: Hours, messagebaseId: SCwThM00, body: { title: Hours, description: "9-18", media: { file: footer } } }\n';
    const layout = async (git: 'dir' | 'file' | 'none'): Promise<string> => {
      const repo = join(dir, 'repo');
      await mkdir(join(repo, 'common'), { recursive: true });
      if (git === 'dir') await mkdir(join(repo, '.git'));
      if (git === 'file') await writeFile(join(repo, '.git'), 'gitdir: /elsewhere/.git/worktrees/repo\n');
      await copyFile(HERO, join(repo, 'common', 'footer.png'));
      for (const n of ['1', '2', '3']) {
        await mkdir(join(repo, 'brands', `b${n}`), { recursive: true });
        await writeFile(join(repo, 'brands', `b${n}`, 'brand.yaml'), brandDoc(`BR.share0000${n}`, '../../common/footer.png'));
      }
      return repo;
    };

    it.each(['dir', 'file'] as const)('lets three brands use one image above their folders (.git a %s)', async (git) => {
      const repo = await layout(git);
      const r = await loadManifests(['repo/brands'], { env: {}, cwd: dir });
      expect(r.diagnostics).toEqual([]);
      const files = r.brands.map((b) => b.files.get('footer')!.file);
      expect(files).toHaveLength(3);
      expect(new Set(files.map((f) => f.uploadName)).size).toBe(1);
      expect(files[0]!.absPath).toBe(join(repo, 'common', 'footer.png'));
    });

    it('keeps the old bound (the manifest folder) when no repository is above it', async () => {
      await layout('none');
      const r = await loadManifests(['repo/brands/b1'], { env: {}, cwd: dir });
      expect(r.diagnostics.map((d) => `${d.code} ${d.line}:${d.col} ${d.message}`)).toEqual([
        expect.stringMatching(/^RCS301 5:19 path "..\/..\/common\/footer.png" leaves the manifest's directory \(no repository above it\)/),
      ]);
    });

    it('refuses a path out of the repository, into .git, and an absolute one', async () => {
      const repo = await layout('dir');
      await copyFile(HERO, join(dir, 'outside.png'));
      await copyFile(HERO, join(repo, '.git', 'inside-git.png'));
      await writeFile(join(repo, 'brands', 'b1', 'brand.yaml'), brandDoc('BR.share00001', '../../../outside.png'));
      await writeFile(join(repo, 'brands', 'b2', 'brand.yaml'), brandDoc('BR.share00002', '../../.git/inside-git.png'));
      await writeFile(join(repo, 'brands', 'b3', 'brand.yaml'), brandDoc('BR.share00003', join(repo, 'common', 'footer.png')));
      const r = await loadManifests(['repo/brands'], { env: {}, cwd: dir });
      expect(r.diagnostics.map((d) => `${d.code} ${d.file}:${d.line}:${d.col}`)).toEqual([
        'RCS301 repo/brands/b1/brand.yaml:5:19',
        'RCS301 repo/brands/b2/brand.yaml:5:19',
        'RCS301 repo/brands/b3/brand.yaml:5:19',
      ]);
      expect(r.diagnostics[0]!.message).toContain(`leaves the repository (${repo})`);
      expect(r.diagnostics[1]!.message).toContain('inside .git');
    });

    it('refuses a symlink inside the repository that leads out of it, or into .git, by its real path', async () => {
      const repo = await layout('dir');
      await copyFile(HERO, join(dir, 'outside.png'));
      await copyFile(HERO, join(repo, '.git', 'inside-git.png'));
      await symlink(join(dir, 'outside.png'), join(repo, 'common', 'escape.png'));
      await symlink(join(repo, '.git'), join(repo, 'common', 'gitlink'));
      // A folder link out of the repository, then `..` by name: the file read is the one resolve() names, and its real path is checked.
      await symlink(dir, join(repo, 'common', 'up'));
      await writeFile(join(repo, 'brands', 'b1', 'brand.yaml'), brandDoc('BR.share00001', '../../common/escape.png'));
      await writeFile(join(repo, 'brands', 'b2', 'brand.yaml'), brandDoc('BR.share00002', '../../common/gitlink/inside-git.png'));
      await writeFile(join(repo, 'brands', 'b3', 'brand.yaml'), brandDoc('BR.share00003', '../../common/up/outside.png'));
      const r = await loadManifests(['repo/brands'], { env: {}, cwd: dir });
      expect(r.diagnostics.map((d) => `${d.code} ${d.file}:${d.line}:${d.col}`)).toEqual([
        'RCS302 repo/brands/b1/brand.yaml:5:19',
        'RCS302 repo/brands/b2/brand.yaml:5:19',
        'RCS302 repo/brands/b3/brand.yaml:5:19',
      ]);
    });

    it('takes a root the user names, when it holds the manifest', async () => {
      const repo = await layout('none');
      const ok = await loadManifests(['repo/brands'], { env: {}, cwd: dir, root: repo });
      expect(ok.diagnostics).toEqual([]);
      expect(ok.brands).toHaveLength(3);
      // A root that does not hold the manifest is not its bound: the repository (here none, so its folder) is.
      const elsewhere = await loadManifests(['repo/brands/b1'], { env: {}, cwd: dir, root: join(dir, 'other') });
      expect(codes(elsewhere)).toEqual(['RCS301']);
      // A root inside the repository narrows it.
      await mkdir(join(repo, '.git'));
      const narrow = await loadManifests(['repo/brands/b1'], { env: {}, cwd: dir, root: join(repo, 'brands') });
      expect(codes(narrow)).toEqual(['RCS301']);
    });
  });

  it('refuses image files over the service limit before reading them as images', async () => {
    await writeFile(join(dir, 'big.png'), Buffer.alloc(1024 * 1024 + 1));
    await writeFile(join(dir, 'm.yaml'), HEAD + 'files:\n  big: { path: big.png }\n');
    const r = await loadManifests(['m.yaml'], { env: {}, cwd: dir });
    expect(r.diagnostics.map((d) => `${d.code} ${d.line}:${d.col}`)).toEqual(['RCS305 5:16']);
  });

  it('refuses an oversized manifest, a missing path and a directory without manifests', async () => {
    await writeFile(join(dir, 'huge.yaml'), HEAD + '#' + 'x'.repeat(MAX_MANIFEST_BYTES) + '\n');
    await mkdir(join(dir, 'empty'));
    const r = await loadManifests(['huge.yaml', 'missing.yaml', 'empty'], { env: {}, cwd: dir });
    expect(r.diagnostics.map((d) => `${d.code} ${d.file}:${d.line}:${d.col}`).sort()).toEqual([
      'RCS100 missing.yaml:0:0',
      'RCS105 huge.yaml:1:1',
      'RCS108 empty:0:0',
    ]);
    expect(hasErrors(r.diagnostics)).toBe(true);
    expect(r.brands).toEqual([]);
  });

  it('does not call a handle missing when the document declaring it failed the schema', async () => {
    await writeFile(join(dir, 'a.yaml'), HEAD + 'autoReplies:\n  a: { name: A, messagebaseId: SCS00000, body: { description: x }, colour: red }\n');
    await writeFile(join(dir, 'b.yaml'), HEAD + 'autoReplies:\n  b: { name: B, messagebaseId: SCS00000, body: { description: x }, chipList: [ { reply: { autoReply: a, displayText: A } } ] }\n');
    const r = await loadManifests([dir], { env: {}, cwd: dir });
    expect(codes(r)).toEqual(['RCS201']);
  });

  it('reports a missing file once, not again as a missing handle', async () => {
    await writeFile(join(dir, 'm.yaml'), HEAD + 'files:\n  hero: { path: images/nope.png }\nautoReplies:\n  a: { name: A, messagebaseId: SCwThM00, body: { title: T, media: { file: hero } } }\n');
    const r = await loadManifests(['m.yaml'], { env: {}, cwd: dir });
    expect(r.diagnostics.map((d) => `${d.code} ${d.line}:${d.col}`)).toEqual(['RCS303 5:17']);
  });

  it('keeps values from the environment out of every message', async () => {
    await writeFile(join(dir, 'm.yaml'), HEAD + 'autoReplies:\n  a: { name: A, messagebaseId: "${env:MB}", body: { description: x }, chipList: [ { reply: { autoReply: "${env:TOKENISH}", displayText: A } } ] }\n');
    const r = await loadManifests(['m.yaml'], { env: { MB: 'SECRET-MB-1', TOKENISH: 'tok3n-value' }, cwd: dir });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['RCS502', 'RCS402']);
    const text = JSON.stringify(r.diagnostics);
    expect(text).not.toContain('SECRET-MB-1');
    expect(text).not.toContain('tok3n-value');
    expect(text).toContain('(sensitive)');
  });

  it('skips empty documents and reads a file given twice once', async () => {
    await writeFile(join(dir, 'm.yaml'), '---\n---\n' + HEAD);
    const r = await loadManifests(['m.yaml', join(dir, 'm.yaml'), '.'], { env: {}, cwd: dir });
    expect(r.diagnostics).toEqual([]);
    expect(r.brands[0]!.manifestFiles).toEqual(['m.yaml']);
  });
});

describe('the text checks on parsed values', () => {
  it('report at most 50 findings a document, the same 50 every time: the walk goes last item first', async () => {
    // 60 auto-replies whose names hold a bidirectional control, each on its own line.
    const items = Array.from({ length: 60 }, (_, i) => `  ar${i}:\n    name: "A\\u202e${i}"\n    messagebaseId: SCS00000\n    body: { description: d }\n`).join('');
    await writeFile(join(dir, 'm.yaml'), `${HEAD}autoReplies:\n${items}`);
    const r = await loadManifests([dir], { env: {}, cwd: dir });
    const bidi = r.diagnostics.filter((d) => d.code === 'RCS601');
    expect(bidi).toHaveLength(50);
    // The first ten declared are the ones left out; every kept one points at its own name.
    expect(bidi.map((d) => d.path)).toEqual(Array.from({ length: 50 }, (_, i) => `/autoReplies/ar${i + 10}/name`));
    expect(bidi.map((d) => d.line)).toEqual(Array.from({ length: 50 }, (_, i) => 5 + 4 * (i + 10) + 1));
  });
});

describe('JSON pointers of diagnostics', () => {
  it('escape "~" and "/" in a key (RFC 6901) and leave every other key as written', async () => {
    const { jsonPointer } = await import('../../src/manifest/source.js');
    expect(jsonPointer(['autoReplies', 'a/b~c', 'chipList', 0, 'action'])).toBe('/autoReplies/a~1b~0c/chipList/0/action');
    expect(jsonPointer(['autoReplies', '~1', 'name'])).toBe('/autoReplies/~01/name');
    expect(jsonPointer([])).toBe('');
  });
});
