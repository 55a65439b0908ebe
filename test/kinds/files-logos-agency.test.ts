// Auto-reply files (content-addressed), logos and agency files on in-memory
// objects.

import { describe, expect, it } from 'vitest';
import { agencyFileKind } from '../../src/kinds/agency-file/index.js';
import { fileKind } from '../../src/kinds/file/index.js';
import { logoKind } from '../../src/kinds/logo/index.js';
import { diffObjects } from '../../src/plan/diff.js';
import type { DesiredAgencyFile, DesiredLogo } from '../../src/kinds/index.js';
import { contextFor, desiredAutoReply, desiredBrand, liveAgencyFile, liveBrand, liveLogo, localFile, SOURCE } from './helpers.js';

describe('auto-reply files', () => {
  const hero = localFile('images/hero.png', 'hero');
  const copy = localFile('other/hero.png', 'hero');
  const beans = localFile('images/beans.png', 'beans');
  const brand = desiredBrand({
    files: [
      { handle: 'hero', file: hero, source: SOURCE },
      { handle: 'copy', file: copy, source: SOURCE },
      { handle: 'beans', file: beans, source: SOURCE },
      { handle: 'unused', file: localFile('images/unused.png', 'x'), source: SOURCE },
    ],
    autoReplies: [
      desiredAutoReply('a', { messagebaseId: 'CCwMhM0200', body: { media1: { file: 'hero' }, media2: { file: 'copy' } } }),
      desiredAutoReply('b', { messagebaseId: 'SCwThM00', body: { media: { file: 'beans' } } }),
    ],
  });

  it('wants each used content once, by content-addressed name', () => {
    expect(hero.uploadName).toMatch(/^hero-[0-9a-f]{12}\.png$/);
    expect(fileKind.desired(brand).map((f) => f.file.uploadName).sort()).toEqual([beans.uploadName, hero.uploadName].sort());
  });

  it('matches live files by file name: an unchanged image is never uploaded again', () => {
    const m = fileKind.diff.match(fileKind.desired(brand), [{ fileId: 'ARF1', url: 'u', fileName: hero.uploadName }, { fileId: 'ARF2', url: 'u', fileName: 'beans-000000000000.png' }], brand);
    expect(m.pairs.map(([, l]) => l.fileId)).toEqual(['ARF1']);
    expect(m.missing.map((d) => d.file.uploadName)).toEqual([beans.uploadName]);
    expect(m.extra).toEqual([]); // no delete endpoint: old files are left alone
  });

  it('uploads a missing file with its hash, size and name', () => {
    const d = fileKind.desired(brand).find((f) => f.handle === 'beans');
    const step = fileKind.diff.createStep(d!, contextFor(brand, liveBrand()), { id: 'x', kind: 'file', address: 'a', name: 'n', gate: { type: 'none' }, changes: [], dependsOn: [], produces: 'p' });
    expect(step).toMatchObject({ op: 'upload', file: { sha256: beans.sha256, size: 5, fileName: beans.uploadName, contentType: 'image/png' } });
  });
});

describe('logos', () => {
  const logo = (over: Partial<DesiredLogo> = {}): DesiredLogo => ({ handle: 'main', name: 'Main logo', file: localFile('images/logo.png', 'logo'), source: SOURCE, ...over });
  const ctx = contextFor(desiredBrand(), liveBrand());
  const changes = (d: DesiredLogo, l = liveLogo('BLG1', { fileName: d.file.uploadName })) => diffObjects(logoKind.diff.normaliseLive(l, ctx), logoKind.diff.normaliseDesired(d, ctx, l));

  it('compares name, description (empty as absent) and content-addressed file', () => {
    expect(changes(logo())).toEqual([]);
    expect(changes(logo(), liveLogo('BLG1', { fileName: logo().file.uploadName, description: '' }))).toEqual([]);
    expect(changes(logo({ description: 'New' }))).toEqual([{ path: 'description', type: 'add', after: 'New' }]);
    expect(changes(logo(), liveLogo('BLG1', { fileName: 'logo-000000000000.png' }))).toEqual([{ path: 'file', type: 'change', before: 'logo-000000000000.png', after: logo().file.uploadName }]);
  });

  it('matches by pinned fileId, else by name', () => {
    const m = logoKind.diff.match([logo({ fileId: 'BLG2', name: 'Renamed' }), logo({ handle: 'b', name: 'B' })], [liveLogo('BLG2'), liveLogo('BLG3', { name: 'B' })], desiredBrand());
    expect(m.pairs.map(([d, l]) => [d.handle, l.fileId])).toEqual([['main', 'BLG2'], ['b', 'BLG3']]);
  });

  it('every change needs review; outside 저장, 반려, 반려(수정), 승인 it is blocked', () => {
    expect(logoKind.gates.create(logo())).toMatchObject({ type: 'review' });
    expect(logoKind.gates.update(liveLogo('BLG1', { approvalResult: '승인' }), [], logo())).toMatchObject({ type: 'review', review: expect.stringContaining('승인대기(수정)') });
    expect(logoKind.gates.update(liveLogo('BLG1', { approvalResult: '반려(수정)' }), [], logo())).toMatchObject({ type: 'review' });
    for (const state of ['승인대기', '검수시작', '검수완료', '승인대기(수정)']) {
      expect(logoKind.gates.update(liveLogo('BLG1', { approvalResult: state }), [], logo())).toMatchObject({ type: 'blocked', state });
    }
  });
});

describe('agency files', () => {
  const desired = (over: Partial<DesiredAgencyFile> = {}): DesiredAgencyFile => ({ fileId: 'BR.demo000001.spring', usageType: 'send', mimeType: 'image/png', file: localFile('images/spring.png', 's'), source: SOURCE, ...over });
  const ctx = contextFor(desiredBrand(), liveBrand());

  it('a registered file with the same type is no change; another type is blocked with the way out', () => {
    const l = liveAgencyFile('BR.demo000001.spring');
    expect(diffObjects(agencyFileKind.diff.normaliseLive(l, ctx), agencyFileKind.diff.normaliseDesired(desired(), ctx, l))).toEqual([]);
    const changed = diffObjects(agencyFileKind.diff.normaliseLive(l, ctx), agencyFileKind.diff.normaliseDesired(desired({ mimeType: 'image/jpeg' }), ctx, l));
    expect(changed).toEqual([{ path: 'mimeType', type: 'change', before: 'image/png', after: 'image/jpeg' }]);
    expect(agencyFileKind.gates.update(l, changed, desired())).toMatchObject({ type: 'blocked', reason: expect.stringContaining('new fileId') });
  });

  it('a file the service does not know (null) is missing', () => {
    const live = liveBrand({ agencyFiles: new Map([['BR.demo000001.spring', null]]) });
    expect(agencyFileKind.diff.match([desired()], agencyFileKind.live(live), desiredBrand()).missing).toHaveLength(1);
  });
});
