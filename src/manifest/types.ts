// The desired state of a brand, as the manifest loader produces it and the
// planner consumes it. Local handles are kept as written; the kinds resolve
// them to service ids at plan time.

/**
 * Severity of a diagnostic. An error stops the brand; a warning fails
 * `validate --strict`; a note is something worth knowing that no run fails
 * on, not even under `--strict` (what only the live service can settle).
 */
export type Severity = 'error' | 'warning' | 'note';

/** A problem found in a manifest, with a stable code and a source position. */
export interface Diagnostic {
  /** Stable code, listed in docs/diagnostics.md (e.g. `RCS1001`). */
  code: string;
  severity: Severity;
  /** Manifest file, as given on the command line or found in a directory. */
  file: string;
  /** 1-based line and column of the fault; 0 when there is none (a path given on the command line). */
  line: number;
  col: number;
  /** JSON path of the node, e.g. `/autoReplies/hours/body/title`. */
  path: string;
  message: string;
  /** A YAML error that follows from an earlier one in the same document; the text view folds these unless --verbose. */
  followOn?: boolean;
  /**
   * A problem at a line of a shared base (composition): the brands it holds
   * for, each named in the message with where it uses the base. One line of a
   * base is reported once, however many brands use it; only these brands fail
   * for it.
   */
  brands?: string[];
  /** While loading: the brand a base's diagnostic was found for, and where it uses the base (folded into `brands` and the message). */
  forBrand?: { id: string; via: string };
  /** A policy rule's diagnostic (RCS8xx): the rule, and where it is written. */
  rule?: { name: string; file: string; line: number };
}

/** Where a resource was declared. */
export interface SourceLocation {
  file: string;
  line: number;
  col: number;
  /** JSON path of the resource node. */
  path: string;
  /**
   * Set when a shared base declares the resource (composition): where the
   * brand uses that base (its `bases:` key, or its generator row); `file`
   * and `line` are then the base's.
   */
  usedAt?: { file: string; line: number };
}

/** A local file referenced by a manifest, read, checked and hashed. */
export interface LocalFile {
  /** Absolute path. */
  absPath: string;
  /** The `path:` value as written in the manifest. */
  relPath: string;
  bytes: Buffer;
  /** Lower-case hex SHA-256 of the content. */
  sha256: string;
  size: number;
  /** Lower-case extension without the dot (`png`). */
  extension: string;
  mimeType: string;
  /** Content-addressed upload name: `<stem>-<sha256 first 12>.<ext>`. */
  uploadName: string;
  /** Image dimensions, when the file is an image. */
  width?: number;
  height?: number;
}

/** A `prune:` entry: the manifest section of a kind that may be pruned (`autoReplies`). */
export type PruneKind = string;

/**
 * The sections of a desired brand, by manifest section name. Each kind adds
 * its own (by declaration merging, in src/kinds/<kind>/types.ts): a map from
 * the key in the manifest to its desired object.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DesiredSections {}

/** What every desired brand has, whatever the kinds. */
/** A `moved:` entry: the resource plan addressed as `from` (kind and live id) is now `to` (kind and key). */
export interface DesiredMove {
  from: string;
  to: string;
  fromAt: SourceLocation;
  toAt: SourceLocation;
}

export interface DesiredBrandFrame {
  brandId: string;
  /** Brand key after `${env:NAME}` interpolation; never printed. */
  brandKey?: string;
  prune: PruneKind[];
  /** The people or teams who own the brand (`brand.owners`, every document's, in order): plans show them, `brands --owners` lists them. */
  owners?: string[];
  /** The manifest files that contributed to this brand. */
  manifestFiles: string[];
  source: SourceLocation;
  /** Renames the manifests declare (`moved:`), every document's, in order. */
  moved?: DesiredMove[];
}

/** Everything the manifests say about one brand. */
export type DesiredBrand = DesiredBrandFrame & DesiredSections;

/** A desired brand seen as sections by name, for the generic stages: the map of entries by key (none for a section that is one object). */
export function desiredSection(brand: DesiredBrand, section: string): Map<string, unknown> | undefined {
  const value = (brand as unknown as Record<string, unknown>)[section];
  return value instanceof Map ? (value as Map<string, unknown>) : undefined;
}

/** What loading a set of manifest paths gives: brands, and every diagnostic found. */
export interface LoadResult {
  brands: DesiredBrand[];
  diagnostics: Diagnostic[];
  /** Every manifest file read, as shown in diagnostics. */
  files: string[];
  /**
   * Files left out for errors, with the brand they belong to (to tell which brand an error fails): the
   * brand a document names (`document`), or, for a file that names none, the brand whose tree it is in
   * (`folder`: its folder holds that brand's other files; `path`: its path names the brand id).
   */
  skipped: { brandId: string; file: string; by: 'document' | 'folder' | 'path' }[];
  /** Values interpolated from sensitive-looking variables: shown as (sensitive), hashed in saved plans. */
  sensitive: { name: string; value: string }[];
}
