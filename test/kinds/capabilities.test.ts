// The kind contract is a small core plus capabilities (Previewable, Stateful,
// Exportable) a stage asks for with a type guard. Each built-in kind keeps the
// capabilities it had as optional members before the split.

import { describe, expect, it } from 'vitest';
import { BUILTIN_KINDS, previewOf, isExportable, isPreviewable, isReferring, isReportingUnmanaged, isStateful, liveRefsOf, pluralOf, type AnyKind } from '../../src/kinds/index.js';

const names = (test: (k: AnyKind) => boolean): string[] => BUILTIN_KINDS.filter((k) => test(k)).map((k) => k.name);

describe('kind capabilities', () => {
  it('each built-in kind has the capabilities it declares', () => {
    expect(names(isExportable)).toEqual(['file', 'logo', 'chatbot', 'autoReply', 'bidirectionalRoom', 'template', 'brandProfile', 'layout', 'privilege']);
    expect(names(isStateful)).toEqual(['agencyFile', 'logo', 'chatbot', 'autoReply', 'bidirectionalRoom', 'template', 'brandProfile', 'layout', 'privilege']);
    expect(names(isPreviewable)).toEqual(['file', 'logo', 'chatbot', 'autoReply', 'persistentMenu', 'bidirectionalRoom', 'brandProfile', 'layout']);
    // The parts of its drawing each brings, by the roles the preview composes them by.
    expect(BUILTIN_KINDS.map((k) => Object.keys(previewOf(k) ?? {}).sort().join('+') || '-')).toEqual(['files', '-', 'avatar', 'page', 'change+page', 'change+partOf', 'page', '-', 'page', 'change+css+page', '-']);
  });

  it('a half-declared capability does not count: a drawing that is not an object of parts is not drawn', () => {
    const core = BUILTIN_KINDS[1] as AnyKind;
    expect(isPreviewable({ ...core, preview: 'message' } as AnyKind)).toBe(false);
    expect(previewOf({ ...core, preview: 'message' } as AnyKind)).toBeUndefined();
    const file = BUILTIN_KINDS[0] as AnyKind;
    expect(isStateful({ ...file, findingCodes: ['X'] } as AnyKind)).toBe(false);
  });

  it('what was once on every kind is a capability with a default: unmanaged reports, references, plurals', () => {
    expect(names(isReportingUnmanaged)).toEqual(['logo', 'chatbot', 'autoReply', 'bidirectionalRoom', 'template', 'layout', 'privilege']);
    expect(names(isReferring)).toEqual(['autoReply', 'persistentMenu', 'bidirectionalRoom', 'privilege']);
    expect(BUILTIN_KINDS.map((k) => pluralOf(k))).toEqual(['auto-reply files', 'agency files', 'logos', 'rooms', 'auto-replies', 'persistent menus', 'bidirectional rooms', 'templates', 'brand profiles', 'layouts', 'privileges']);
    // A kind that holds no references refers to nothing; a false flag does not report.
    const logo = BUILTIN_KINDS[2] as AnyKind;
    expect(liveRefsOf(logo, { fileId: 'LG1' })).toEqual([]);
    expect(isReportingUnmanaged({ ...logo, reportsUnmanaged: false } as AnyKind)).toBe(false);
  });
});
