// Local files named by `path:` in a manifest: confined to the repository the
// manifest is in (the nearest folder above it holding `.git`, or the root the
// user names with --root), never through a symlink out of it, never into
// `.git`; checked for type and size against the
// service's limits, read, hashed, and measured when they are images. An image
// is walked whole (src/util/image-structure.ts: PNG chunks and CRCs, JPEG
// segments to EOI, GIF blocks, BMP pixel data) and held to a pixel ceiling; a
// file of another type (a certificate) is checked by its content; an empty
// file is refused.

import { createHash } from 'node:crypto';
import { access, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { contentProblem, imageFormatOf, imageStructure, MAX_IMAGE_PIXELS } from '../util/image-structure.js';
import { diagAt, type PathSegments, type SourceDoc } from './source.js';
import { didYouMean } from './suggest.js';
import type { Diagnostic, LocalFile } from './types.js';

/**
 * What a file is for, with the service's rules for it. The kind that reads the
 * file gives it (src/kinds/<kind>/manifest.ts), so a new use needs no edit here.
 */
export interface FileUse {
  /** What the file is called in messages: `logo`, `auto-reply image`. */
  readonly label: string;
  /** Lower-case extensions it may have. */
  readonly extensions: readonly string[];
  readonly maxBytes: number;
  /** Read as an image: its content must match its extension, and it is measured. */
  readonly image: boolean;
  /**
   * What is wrong with an image of this size (`the service takes 300x300 only`),
   * or undefined; said after the file's name and size as RCS307.
   */
  dimensions?(width: number, height: number): string | undefined;
  /** The most pixels (width x height) an image of this use may have; MAX_IMAGE_PIXELS when not said. */
  readonly maxPixels?: number;
}

const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  zip: 'application/zip',
};

/** MIME type for a lower-case extension, or undefined. */
export function mimeTypeOf(extension: string): string | undefined {
  return MIME_BY_EXTENSION[extension];
}

/** The extensions rcsctl knows for `mimeTypes` (a use the service states by MIME type). */
export function extensionsOf(mimeTypes: readonly string[]): string[] {
  return Object.entries(MIME_BY_EXTENSION)
    .filter(([, mime]) => mimeTypes.includes(mime))
    .map(([ext]) => ext);
}

/**
 * Reads each file once per load, whichever resources name it, and knows the
 * folder a manifest's files must stay in: `root` when the user names one
 * (--root, RCSCTL_ROOT) and it holds the manifest, else the nearest folder
 * above the manifest holding `.git` (a directory, or a file as in a worktree),
 * else the manifest's own folder.
 */
export class FileReader {
  private readonly cache = new Map<string, Promise<Buffer>>();
  private readonly bounds = new Map<string, Promise<string>>();

  /** `root`: an absolute path the user named, or undefined to find the repository. */
  constructor(private readonly root?: string) {}

  /** The folder the files of a manifest in `dir` must stay in (cached per folder). */
  boundFor(dir: string): Promise<string> {
    let p = this.bounds.get(dir);
    if (p === undefined) {
      p = this.root !== undefined && (this.root === dir || inside(this.root, dir)) ? Promise.resolve(this.root) : repositoryOf(dir);
      this.bounds.set(dir, p);
    }
    return p;
  }

  /** Bytes of an absolute path (cached). */
  read(absPath: string): Promise<Buffer> {
    let p = this.cache.get(absPath);
    if (p === undefined) {
      p = readFile(absPath);
      this.cache.set(absPath, p);
    }
    return p;
  }
}

/** The stem an upload name uses in place of a sensitive value in a file's name. */
export const SENSITIVE_STEM = 'sensitive';

/**
 * Resolve, check and read the file at `relPath` for `use`. `at` is the path of
 * the `path:` node, where diagnostics point. Never throws. A file named after a
 * sensitive value (`images/${env:PROMO_KEY}.png`) is uploaded as
 * `sensitive-<sha256 first 12>.png`: the content-addressed name the service,
 * plans, reports and caches see never holds the value.
 */
export async function loadLocalFile(
  src: SourceDoc,
  at: PathSegments,
  relPath: string,
  use: FileUse,
  reader: FileReader,
  sensitive: readonly string[] = [],
): Promise<{ file?: LocalFile; diagnostics: Diagnostic[] }> {
  const fail = (code: Parameters<typeof diagAt>[1], message: string): { diagnostics: Diagnostic[] } => ({
    diagnostics: [diagAt(src, code, at, message)],
  });
  const dir = dirname(src.absPath);
  if (isAbsolute(relPath) || /^[A-Za-z]:[\\/]/.test(relPath)) {
    return fail('RCS301', `path "${relPath}" is absolute; write it relative to the manifest`);
  }
  const bound = await reader.boundFor(dir);
  // resolve() takes `..` by name; the file read is this one, and its real path is checked below.
  const absPath = resolve(dir, relPath);
  if (!inside(bound, absPath)) return fail('RCS301', `path "${relPath}" leaves ${boundName(bound, dir)} (${bound})`);
  if (throughGit(bound, absPath)) return fail('RCS301', `path "${relPath}" is inside .git`);
  let size: number;
  try {
    const info = await stat(absPath);
    if (!info.isFile()) return fail('RCS303', `path "${relPath}" is not a regular file`);
    size = info.size;
    const [realBound, realFile] = await Promise.all([realpath(bound), realpath(absPath)]);
    if (!inside(realBound, realFile) || throughGit(realBound, realFile)) {
      return fail('RCS302', `path "${relPath}" is a symlink that leads outside ${boundName(bound, dir)} (${bound})`);
    }
  } catch {
    return fail('RCS303', `file "${relPath}" not found (looked in ${dir})${didYouMean(relPath.split(sep).join('/'), await filesUnder(dir))}`);
  }
  const extension = extname(absPath).slice(1).toLowerCase();
  if (!use.extensions.includes(extension)) {
    return fail('RCS304', `${article(use.label)} must be ${use.extensions.join(', ')}; "${relPath}" is not`);
  }
  if (size > use.maxBytes) {
    return fail('RCS305', `"${relPath}" is ${size} bytes; ${article(use.label)} may be at most ${use.maxBytes} bytes`);
  }
  let bytes: Buffer;
  try {
    bytes = await reader.read(absPath);
  } catch (err) {
    return fail('RCS303', `cannot read "${relPath}" (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (bytes.length === 0) return fail('RCS312', `"${relPath}" is empty; ${article(use.label)} must hold a file`);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const stem = sensitive.reduce((s, v) => (v.length > 0 ? s.split(v).join(SENSITIVE_STEM) : s), basename(absPath, extname(absPath)));
  const file: LocalFile = {
    absPath,
    relPath,
    bytes,
    sha256,
    size: bytes.length,
    extension,
    mimeType: mimeTypeOf(extension) ?? 'application/octet-stream',
    uploadName: `${stem}-${sha256.slice(0, 12)}.${extension}`,
  };
  if (use.image) {
    let dims: { width: number; height: number; type?: string };
    try {
      // image-size (about 30 ms to load) only when a manifest names an image.
      const { imageSize } = await import('image-size');
      dims = imageSize(bytes);
    } catch {
      return fail('RCS306', `"${relPath}" is not a readable image`);
    }
    const detected = dims.type === 'jpg' ? 'jpeg' : dims.type;
    const expected = extension === 'jpg' ? 'jpeg' : extension;
    if (detected !== undefined && detected !== expected) {
      return fail('RCS306', `"${relPath}" holds a ${detected} image but its extension says ${extension}`);
    }
    // The header alone is not the image: walk it whole, without decoding a pixel.
    const format = imageFormatOf(detected ?? expected);
    const whole = format === undefined ? undefined : imageStructure(bytes, format);
    if (whole !== undefined && 'problem' in whole) return fail('RCS309', `"${relPath}" is not a whole ${format} image: ${whole.problem}`);
    const ceiling = use.maxPixels ?? MAX_IMAGE_PIXELS;
    if (dims.width * dims.height > ceiling) {
      return fail('RCS310', `"${relPath}" is ${dims.width}x${dims.height}, ${(dims.width * dims.height).toLocaleString('en-US')} pixels; ${article(use.label)} may have at most ${ceiling.toLocaleString('en-US')}`);
    }
    file.width = dims.width;
    file.height = dims.height;
    const wrong = use.dimensions?.(dims.width, dims.height);
    if (wrong !== undefined) return { file, diagnostics: [diagAt(src, 'RCS307', at, `${use.label} "${relPath}" is ${dims.width}x${dims.height}; ${wrong}`)] };
  } else {
    const wrong = contentProblem(bytes, extension);
    if (wrong !== undefined) return fail('RCS311', `${article(use.label)} "${relPath}" is not a ${extension} file by its content: ${wrong}`);
  }
  return { file, diagnostics: [] };
}

/** The nearest folder from `dir` up holding `.git` (a directory, or a file as in a worktree), or `dir` when none does. */
export async function repositoryOf(dir: string): Promise<string> {
  for (let at = dir; ; at = dirname(at)) {
    try {
      await access(resolve(at, '.git'));
      return at;
    } catch {
      // not here: one folder up
    }
    if (dirname(at) === at) return dir;
  }
}

/** How a message names the folder files must stay in. */
function boundName(bound: string, dir: string): string {
  return bound === dir ? "the manifest's directory (no repository above it)" : 'the repository';
}

/** Whether `target` is under the `.git` folder of `root`. */
function throughGit(root: string, target: string): boolean {
  return relative(root, target).split(sep)[0] === '.git';
}

function inside(dir: string, target: string): boolean {
  const rel = relative(dir, target);
  return rel !== '' && !rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel);
}

function article(noun: string): string {
  return (/^[aeiou]/.test(noun) ? 'an ' : 'a ') + noun;
}

/** At most this many files are offered as "did you mean" for a missing one. */
const NEARBY_LIMIT = 5000;

/**
 * The files under `dir` (a manifest's directory), as paths relative to it with
 * `/`, for "did you mean" when a path names nothing: `images/herbel.png` finds
 * `images/herbal.png`. Hidden folders and node_modules are not searched.
 */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (at: string, prefix: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.length >= NEARBY_LIMIT) return;
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      if (e.isDirectory() && depth < 6) await walk(resolve(at, e.name), `${prefix}${e.name}/`, depth + 1);
      else if (e.isFile()) out.push(`${prefix}${e.name}`);
    }
  };
  await walk(dir, '', 0);
  return out;
}

