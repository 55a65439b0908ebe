// A kind's part of the manifest: its section's schema fragment, the builder
// that turns a schema-clean section into desired objects, and its lint rules.
// The loader (src/manifest/) runs them for every registered kind.

import type { DiagnosticCode } from '../manifest/codes.js';
import type { FileUse } from '../manifest/local-files.js';
import type { PathSegments, SourceDoc } from '../manifest/source.js';
import type { DesiredBrand, Diagnostic, LocalFile, SourceLocation } from '../manifest/types.js';

/** A JSON Schema (draft-07) object. */
export type JsonSchema = Record<string, unknown>;

/** A kind's contribution to schemas/manifest.schema.json. */
export interface SchemaFragment {
  /** The section's property schema (`autoReplies: { type: object, ... }`); none when the kind has no section of its own. */
  property?: JsonSchema;
  /** Definitions it adds (`#/definitions/autoReply`), referred to from its property or other fragments. */
  definitions?: Record<string, JsonSchema>;
}

/** What a section builder may do with one document. */
export interface SectionBuildContext {
  src: SourceDoc;
  brand: DesiredBrand;
  /**
   * Claim `section/key` in the brand; false (with `code` reported) when an
   * earlier document declared it: the first one wins.
   */
  once(key: string, code: DiagnosticCode, what: string): boolean;
  /** Read, check and hash a local file named at `at`; undefined (reported) when it cannot be used. */
  file(at: PathSegments, rel: string, use: FileUse): Promise<LocalFile | undefined>;
  /** Source location of the node at `path`. */
  locationOf(path: PathSegments): SourceLocation;
  /** Report a diagnostic at `path`. */
  diag(code: DiagnosticCode, path: PathSegments, message: string, opts?: { at?: 'key' | 'value' }): void;
  /** Add a desired object to the section under `key`, remembering the document it came from. */
  add(key: string, desired: object): void;
}

/** What a lint rule sees: the whole merged brand, and where each object came from. */
export interface LintContext {
  brand: DesiredBrand;
  /** The document that declared a desired object. */
  srcOf(desired: object): SourceDoc | undefined;
  /** Whether `section/key` was declared, even in a document that failed to load. */
  declared(section: string, key: string): boolean;
  /** Report a diagnostic at `path` of `src`. */
  diag(src: SourceDoc, code: DiagnosticCode, path: PathSegments, message: string, opts?: { at?: 'key' | 'value' }): void;
  /**
   * Check a reference to `handle` in `section` (of a kind called `label`):
   * reports a link into another brand (RCS510) or a missing handle (`code`).
   */
  checkRef(src: SourceDoc, path: PathSegments, section: string, label: string, handle: string, code: DiagnosticCode): void;
}

/** A kind's manifest part. */
export interface KindManifest {
  /** The top-level key (`autoReplies`); none when the kind lives inside another's section (menus in rooms). */
  section?: string;
  /**
   * True when the section is one object (a brand's own settings), not a map
   * of entries by key: its keys are fields, never ids, and it declares at
   * most one desired object.
   */
  single?: boolean;
  /** Place of the section in the schema and in exported manifests (smaller first). */
  order?: number;
  schema: SchemaFragment;
  /** Build desired objects from the section's schema-clean value. */
  build?(raw: Record<string, unknown>, ctx: SectionBuildContext): Promise<void>;
  /** Lint rules across the merged brand. */
  lint?(ctx: LintContext): void;
}

/** Diagnostics, for builders that collect them. */
export type { Diagnostic };
