// Generates docs/manifest.md, the manifest reference, from
// schemas/manifest.schema.json, so the two cannot drift apart
// (test/manifest/docs.test.ts checks the committed page is current):
//   npm run build && node dist/scripts/gen-manifest-docs.js

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stringify } from 'yaml';
import { manifestSchema } from '../src/manifest/schema-check.js';
import { packageRoot } from '../src/util/paths.js';

interface Schema {
  description?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  $ref?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  propertyNames?: Schema;
  items?: Schema;
  required?: string[];
  maxLength?: number;
  minLength?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  uniqueItems?: boolean;
  definitions?: Record<string, Schema>;
  examples?: unknown[];
}

const refName = (ref: string): string => ref.replace('#/definitions/', '');
const link = (ref: string): string => `[${refName(ref)}](#${refName(ref).toLowerCase()})`;
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function typeOf(s: Schema): string {
  if (s.$ref !== undefined) return link(s.$ref);
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  if (s.type === 'array' && s.items !== undefined) return `list of ${typeOf(s.items)}`;
  if (s.type === 'object' && typeof s.additionalProperties === 'object') {
    const key = s.propertyNames?.$ref !== undefined ? link(s.propertyNames.$ref) : 'id';
    return `map of ${key} → ${typeOf(s.additionalProperties)}`;
  }
  if (s.enum !== undefined && s.type === undefined) return 'enum';
  return Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any');
}

function limits(s: Schema): string {
  const out: string[] = [];
  if (s.enum !== undefined) out.push(`one of ${s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(', ')}`);
  if (s.minLength !== undefined) out.push(s.minLength === 1 ? 'not empty' : `min ${s.minLength} chars`);
  if (s.maxLength !== undefined) out.push(`max ${s.maxLength} chars`);
  if (s.maxItems !== undefined) out.push(`max ${s.maxItems} items`);
  if (s.uniqueItems === true) out.push('no duplicates');
  if (s.pattern !== undefined) out.push(`pattern \`${s.pattern}\``);
  if (s.format !== undefined) out.push(`format ${s.format}`);
  const keys = s.propertyNames;
  if (keys !== undefined && keys.$ref === undefined) {
    const k = limits(keys);
    if (k !== '') out.push(`keys: ${k}`);
  }
  if (s.items?.enum !== undefined) out.push(`items: ${limits(s.items)}`);
  return out.join('; ');
}

// Inline objects (brand, urlAction.openUrl, ...) get dotted rows under their parent.
function rows(s: Schema, prefix: string): string[] {
  const out: string[] = [];
  for (const [key, p] of Object.entries(s.properties ?? {})) {
    const required = (s.required ?? []).includes(key) ? 'yes' : '';
    out.push(`| \`${prefix}${key}\` | ${cell(typeOf(p))} | ${required} | ${cell(limits(p))} | ${cell(p.description ?? '')} |`);
    if (p.$ref === undefined && p.properties !== undefined) out.push(...rows(p, `${prefix}${key}.`));
  }
  return out;
}

function table(s: Schema): string[] {
  return ['| Key | Type | Required | Limits | Description |', '|---|---|---|---|---|', ...rows(s, '')];
}

/** The Markdown manifest reference for a manifest schema. */
export function renderManifestDocs(schema: Schema): string {
  const out: string[] = [
    '# Manifest reference',
    '',
    '<!-- Generated from schemas/manifest.schema.json by scripts/gen-manifest-docs.ts; do not edit by hand. -->',
    '',
    schema.description ?? '',
    '',
    'Editors with yaml-language-server get completion and help from the schema when the first line of a manifest reads:',
    '',
    '```yaml',
    '# yaml-language-server: $schema=<path>/schemas/manifest.schema.json',
    '```',
    '',
    'Unknown keys are errors everywhere. `${env:NAME}` in any string value is replaced by the environment variable NAME (a missing variable is an error; `$${` writes a literal `${`). Problems are reported with the codes of [diagnostics.md](diagnostics.md).',
    '',
    '## Document',
    '',
    ...table(schema),
  ];
  for (const [name, def] of Object.entries(schema.definitions ?? {})) {
    out.push('', `## ${name}`, '', def.description ?? '', '');
    // A definition that is an object or a plain value (media: a handle's object, or a file id) says so before its table.
    if (def.properties !== undefined && Array.isArray(def.type)) out.push(`Type: ${typeOf(def)}; as an object:`, '');
    if (def.properties !== undefined) out.push(...table(def));
    else {
      const l = limits(def);
      out.push(`Type: ${typeOf(def)}${l === '' ? '' : `; ${l}`}.`);
    }
    if (def.examples !== undefined) out.push('', 'Examples:', '', '```yaml', ...def.examples.map((e) => `${name}: ${stringify(e, { collectionStyle: 'flow' }).trim()}`), '```');
  }
  return out.join('\n') + '\n';
}

/** Where the generated page lives. */
export function manifestDocsPath(): string {
  return join(packageRoot(), 'docs', 'manifest.md');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(manifestDocsPath(), renderManifestDocs(manifestSchema() as Schema));
  process.stdout.write(`wrote ${manifestDocsPath()}\n`);
}
