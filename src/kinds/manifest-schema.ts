// The manifest JSON Schema, assembled: the document frame (apiVersion, kind,
// brand, prune) here, and each kind's section and definitions from its
// folder's schema.ts. schemas/manifest.schema.json is this, written by
// scripts/gen-schemas.ts for editors; a test keeps the file current.

import type { JsonSchema, KindManifest } from './manifest-section.js';

/** What every manifest document has, whatever the kinds. */
const FRAME: JsonSchema = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://rcsctl.dev/schemas/manifest.schema.json",
  "title": "rcsctl brand manifest",
  "description": "One brand's auto-replies, image files, logos, chatbots (rooms) with their persistent menus, and agency message files, as configuration as code. Several documents for the same brand merge.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "apiVersion",
    "kind",
    "brand"
  ],
  "properties": {
    "apiVersion": {
      "description": "Manifest format version. Always `rcsctl/v1`.",
      "const": "rcsctl/v1"
    },
    "kind": {
      "description": "Document kind. Always `Brand`.",
      "const": "Brand"
    },
    "brand": {
      "description": "The brand this document describes.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "id"
      ],
      "properties": {
        "id": {
          "description": "brandId: `BR.` followed by 10 letters or digits (max 13 characters).",
          "type": "string",
          "maxLength": 13,
          "pattern": "^BR\\.[A-Za-z0-9]{10}$"
        },
        "key": {
          "description": "Brand key sent as X-RCS-Brandkey (max 18). Needed by agency accounts only. Never write it literally: use `${env:BRAND_KEY}`.",
          "type": "string",
          "maxLength": 18
        }
      }
    },
    "prune": {
      "description": "Kinds whose live resources not listed in the manifests are deleted by `apply --allow-delete`. Unlisted kinds only report such resources as unmanaged.",
      "type": "array",
      "uniqueItems": true,
      "items": {
        "description": "A resource kind that may be pruned."
      }
    }
  },
  "definitions": {
    "handle": {
      "description": "A local handle: a letter, then letters, digits, `_` or `-` (max 64).",
      "type": "string",
      "maxLength": 64,
      "pattern": "^[A-Za-z][A-Za-z0-9_-]*$"
    },
    "path": {
      "description": "Path of a local file, relative to this manifest. It may leave the brand's folder (one image shared by many brands) but not the repository: the nearest folder above the manifest holding `.git`, or the folder `--root` names.",
      "type": "string",
      "minLength": 1
    }
  }
};

/** The whole schema for kinds with these manifest parts, `prune` listing the prunable sections. */
export function assembleManifestSchema(kinds: readonly { readonly prune?: string; readonly manifest?: KindManifest }[]): JsonSchema {
  const schema = structuredClone(FRAME) as { properties: Record<string, JsonSchema>; definitions: Record<string, JsonSchema> };
  const parts = kinds
    .filter((k) => k.manifest !== undefined)
    .map((k) => ({ prune: k.prune, manifest: k.manifest as KindManifest }))
    .sort((a, b) => (a.manifest.order ?? 1000) - (b.manifest.order ?? 1000));
  const prune = schema.properties.prune as { items: JsonSchema };
  prune.items.enum = parts.filter((p) => p.prune !== undefined).map((p) => p.prune);
  for (const { manifest } of parts) {
    if (manifest.section !== undefined && manifest.schema.property !== undefined) schema.properties[manifest.section] = manifest.schema.property;
    Object.assign(schema.definitions, manifest.schema.definitions ?? {});
  }
  return schema;
}
