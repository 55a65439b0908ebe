// Generates the parts of schemas/ that come from the kind registry, so the
// files cannot drift from the kinds (test/schemas.test.ts checks they are
// current):
//   schemas/manifest.schema.json      assembled from the kinds' fragments
//   schemas/base.schema.json          a Base document: the kinds' sections and the base's frame
//   schemas/brandset.schema.json      a BrandSet document
//   schemas/plan.schema.json          the kind and finding code enums
//   schemas/drift-report.schema.json  the kind and finding code enums, and the gate (the plan's)
// Run: npm run build && node dist/scripts/gen-schemas.js

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BRAND_FINDING_CODES, CONTENT_FINDING_CODES } from '../src/core/finding.js';
import { BUILTIN_KINDS } from '../src/kinds/index.js';
import { assembleBaseSchema, assembleManifestSchema, BRANDSET_SCHEMA } from '../src/kinds/manifest-schema.js';
import { packageRoot } from '../src/util/paths.js';

type Json = Record<string, unknown>;

/** The text each generated schema file should hold, by path relative to the package. */
export function renderSchemas(): Record<string, string> {
  const read = (name: string): Json => JSON.parse(readFileSync(join(packageRoot(), 'schemas', name), 'utf8')) as Json;
  const kinds = BUILTIN_KINDS.map((k) => k.name);
  const codes = [...CONTENT_FINDING_CODES, ...BRAND_FINDING_CODES, ...BUILTIN_KINDS.flatMap((k) => ('findingCodes' in k && k.findingCodes !== undefined ? [...k.findingCodes] : []))];

  const plan = read('plan.schema.json');
  defs(plan).kind = { ...(defs(plan).kind as Json), enum: kinds };
  // A plan's findings are the state findings drift reports, with the same codes.
  const planFinding = defs(plan).finding as { properties: Json };
  planFinding.properties.code = { ...(planFinding.properties.code as Json), enum: codes };

  const drift = read('drift-report.schema.json');
  const resource = defs(drift).resource as { properties: Json };
  resource.properties.kind = { ...(resource.properties.kind as Json), enum: kinds };
  const finding = defs(drift).finding as { properties: Json };
  finding.properties.code = { ...(finding.properties.code as Json), enum: codes };
  // A drift finding carries its step's gate as the plan holds it: one definition, the plan's
  // (issue 35: the drift report's own copy lacked a review gate's `fields`, and report merge
  // refused rcsctl's own report).
  defs(drift).gate = defs(plan).gate;

  const text = (o: unknown): string => JSON.stringify(o, null, 2) + '\n';
  return {
    'schemas/manifest.schema.json': text(assembleManifestSchema(BUILTIN_KINDS)),
    'schemas/base.schema.json': text(assembleBaseSchema(BUILTIN_KINDS)),
    'schemas/brandset.schema.json': text(BRANDSET_SCHEMA),
    'schemas/plan.schema.json': text(plan),
    'schemas/drift-report.schema.json': text(drift),
  };
}

function defs(schema: Json): Json {
  return schema.definitions as Json;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const [path, text] of Object.entries(renderSchemas())) writeFileSync(join(packageRoot(), path), text);
}
