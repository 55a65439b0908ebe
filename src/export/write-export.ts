// The side-effect half of `rcsctl export`: fetch the images the manifest names
// and write them and `brand.yaml` into the export directory. Images are fetched
// without credentials (their urls are links the service hands out), checked
// against the hash their name promises, and capped in size. Written through
// writeOutputFile with the redaction the caller gives: what the live brand holds
// is written as it is (docs/configuration.md, "Secrets in manifests"), but
// never a credential.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { request } from 'undici';
import { Document, isMap, isScalar, visit } from 'yaml';
import { RcsctlError } from '../errors.js';
import { writeOutputFile } from '../util/output-file.js';
import { packageRoot } from '../util/paths.js';
import type { Redaction } from '../util/redaction.js';
import { mapLimit } from '../util/concurrency.js';
import type { Download, ExportedManifest } from './build-manifest.js';

/** Largest image rcsctl downloads (the service's own limits are far lower). */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** Longest small map written on one line (its JSON length). */
const FLOW_WIDTH = 72;

/** What was written. */
export interface ExportResult {
  manifestPath: string;
  images: string[];
  notes: string[];
}

/** Write `exported` into `dir` (its images fetched now, unless `fetched` holds them already); refuses to overwrite an existing brand.yaml unless `force`. */
export async function writeExport(exported: ExportedManifest, dir: string, opts: { force: boolean; concurrency: number; header: string[]; redaction: Redaction; fetched?: Buffer[] }): Promise<ExportResult> {
  const manifestPath = join(dir, 'brand.yaml');
  if (existsSync(manifestPath) && !opts.force) {
    throw new RcsctlError('E_EXPORT_EXISTS', `${manifestPath} exists; choose another --out directory or pass --force to overwrite it`);
  }
  const fetched = opts.fetched ?? (await fetchImages(exported.downloads, opts.concurrency));
  const notes = [...exported.notes, ...saveImages(exported.downloads, fetched, dir, opts.redaction)];
  writeOutputFile(manifestPath, renderManifest(exported.manifest, dir, opts.header), opts.redaction);
  return { manifestPath, images: exported.downloads.map((d) => d.path), notes };
}

/** Download every image (all of them before anything is written, so a failure leaves no half export). */
export function fetchImages(downloads: Download[], concurrency: number): Promise<Buffer[]> {
  return mapLimit(downloads, concurrency, (d) => fetchImage(d));
}

/** Write fetched images under `dir`; returns a note for each whose content does not match its name's hash. */
export function saveImages(downloads: Download[], fetched: Buffer[], dir: string, redaction: Redaction): string[] {
  const notes: string[] = [];
  downloads.forEach((d, i) => {
    const bytes = fetched[i] as Buffer;
    if (d.expectedSha12 !== undefined && createHash('sha256').update(bytes).digest('hex').slice(0, 12) !== d.expectedSha12) {
      notes.push(`${d.liveFileName}: the downloaded content does not match the hash in its name; plan will show it as changed`);
    }
    writeOutputFile(join(dir, ...d.path.split('/')), bytes, redaction);
  });
  return notes;
}

/** Small maps of plain values on one line (`media: { file: hero }`), as hand-written manifests do. */
export function flowSmallMaps(node: Parameters<typeof visit>[0]): void {
  visit(node, {
    Map(_key, n) {
      if (isMap(n) && n.items.length > 0 && n.items.every((p) => isScalar(p.value)) && JSON.stringify(n.toJSON()).length <= FLOW_WIDTH) n.flow = true;
    },
  });
}

/** Where the manifest schema sits inside an installed rcsctl package. */
const INSTALLED_SCHEMA = ['node_modules', 'rcsctl', 'schemas', 'manifest.schema.json'];

/**
 * The modeline's schema for a manifest written into `dir`, as it must still
 * read once the manifest is committed and checked out elsewhere
 * (docs/decisions.md, "The exported manifest's $schema"): the rcsctl package
 * installed in the repository the manifest lands in (the nearest
 * `node_modules/rcsctl` above `dir`, by its own path, never where a link
 * resolves to), else the schema's published address (its `$id`). Never a path
 * to wherever this rcsctl runs from.
 */
export function schemaReference(dir: string): string {
  for (let at = resolve(dir); ; ) {
    if (existsSync(join(at, ...INSTALLED_SCHEMA))) return relative(dir, join(at, ...INSTALLED_SCHEMA)).split(sep).join('/');
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  return publishedSchemaUrl();
}

/** The manifest schema's `$id`: the address it is published at. */
function publishedSchemaUrl(): string {
  const schema = JSON.parse(readFileSync(join(packageRoot(), 'schemas', 'manifest.schema.json'), 'utf8')) as { $id?: unknown };
  if (typeof schema.$id !== 'string') throw new Error('rcsctl: schemas/manifest.schema.json has no $id');
  return schema.$id;
}

/** The YAML text: the `$schema` modeline, a header comment, then the document. */
export function renderManifest(manifest: Record<string, unknown>, dir: string, header: string[]): string {
  const schema = schemaReference(dir);
  const doc = new Document(manifest);
  flowSmallMaps(doc);
  const lines = [`# yaml-language-server: $schema=${schema}`, '#', ...header.map((h) => (h === '' ? '#' : `# ${h}`))];
  return lines.join('\n') + '\n' + doc.toString({ lineWidth: 0 });
}

async function fetchImage(d: Download): Promise<Buffer> {
  let url: URL;
  try {
    url = new URL(d.url);
  } catch {
    throw new RcsctlError('E_EXPORT_DOWNLOAD', `cannot download ${d.liveFileName}: the service gave no valid url (${JSON.stringify(d.url)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RcsctlError('E_EXPORT_DOWNLOAD', `cannot download ${d.liveFileName}: unsupported url scheme ${url.protocol}`);
  let res;
  try {
    res = await request(url, { method: 'GET', headersTimeout: 30_000, bodyTimeout: 60_000 });
  } catch (err) {
    throw new RcsctlError('E_EXPORT_DOWNLOAD', `cannot download ${d.liveFileName} from ${url.origin}: ${(err as Error).message}`);
  }
  if (res.statusCode !== 200) {
    await res.body.dump();
    throw new RcsctlError('E_EXPORT_DOWNLOAD', `cannot download ${d.liveFileName} from ${url.origin}: HTTP ${res.statusCode}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length;
    if (size > MAX_IMAGE_BYTES) {
      res.body.destroy();
      throw new RcsctlError('E_EXPORT_DOWNLOAD', `${d.liveFileName} is larger than ${MAX_IMAGE_BYTES} bytes; not an image the service would serve`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
