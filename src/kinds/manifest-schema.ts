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
        },
        "owners": {
          "description": "The people or teams who own this brand, as CODEOWNERS writes them: `@user`, `@org/team` (GitHub), `@group/subgroup` (GitLab) or an e-mail address. Plans and comments show them beside the brand; `rcsctl brands --owners --format codeowners` makes a CODEOWNERS file that requests their review (docs/ci.md). Several documents of one brand add up.",
          "type": "array",
          "minItems": 1,
          "uniqueItems": true,
          "items": { "$ref": "#/definitions/owner" }
        }
      }
    },
    "bases": {
      "description": "The bases this brand uses, in order, each with its variables (docs/fleet.md). Their resources are the brand's; `overrides:` changes them.",
      "type": "array",
      "items": { "$ref": "#/definitions/baseUse" }
    },
    "overrides": {
      "description": "Changes to what the bases set, by section, then resource key, then fields (merged as JSON Merge Patch: maps merge, anything else replaces, null removes). Each must change something a base sets.",
      "type": "object",
      "additionalProperties": { "type": "object" }
    },
    "prune": {
      "description": "Kinds whose live resources not listed in the manifests are deleted by `apply --allow-delete`. Unlisted kinds only report such resources as unmanaged.",
      "type": "array",
      "uniqueItems": true,
      "items": {
        "description": "A resource kind that may be pruned."
      }
    },
    "moved": {
      "description": "Renames: each entry says the resource the plan addresses as `from` is now `to` (`{ from: autoReply.ARM000000000001, to: autoReply.welcome }`), so plan updates it in place and keeps its live id, links and postbacks, instead of deleting it and creating a new one. `from` is the address the plan showed for the delete (its kind and live id); `to` is a resource of this brand (its own, or one a base gives it). Once done, no live object matches `from` and the entry is ignored; remove it when every brand has applied it.",
      "type": "array",
      "items": {
        "description": "One rename: the old address and the new one, of the same kind.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "from",
          "to"
        ],
        "properties": {
          "from": {
            "description": "The old address: `<kind>.<live id>`, as the plan showed it for the delete.",
            "$ref": "#/definitions/address"
          },
          "to": {
            "description": "The new address: `<kind>.<key>` of a resource of this brand.",
            "$ref": "#/definitions/address"
          }
        }
      }
    }
  },
  "definitions": {
    "address": {
      "description": "A resource address as plan shows it: the kind, a dot, the key (`autoReply.welcome`).",
      "type": "string",
      "maxLength": 200,
      "pattern": "^[a-z][A-Za-z]*\\.[^\\s]+$"
    },
    "owner": {
      "description": "An owner: `@user`, `@org/team`, `@group/subgroup` or an e-mail address.",
      "type": "string",
      "maxLength": 254,
      "pattern": "^(@[A-Za-z0-9](?:[A-Za-z0-9_.-]*[A-Za-z0-9])?(?:/[A-Za-z0-9_.-]+)*|[^@\\s]+@[^@\\s]+\\.[^@\\s]+)$"
    },
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
    },
    "baseUse": {
      "description": "One base used, with values for its variables.",
      "type": "object",
      "additionalProperties": false,
      "required": ["base"],
      "properties": {
        "base": { "description": "The base's folder (or file), relative to this file.", "type": "string", "minLength": 1 },
        "variables": {
          "description": "Values of the base's variables, each of the type the base declares.",
          "type": "object",
          "additionalProperties": { "type": ["string", "number", "boolean"] }
        }
      }
    }
  }
};

/** A base's frame: its variables and the bases it uses; its sections are the kinds', as a brand's. */
const BASE_FRAME = {
  "title": "rcsctl base",
  "description": "Resources shared by the brands that use this base (`bases:` of a Brand, or a BrandSet), with typed variables written `${var:NAME}` in its text (docs/fleet.md).",
  "kind": { "description": "Document kind: `Base`.", "const": "Base" },
  "extra": {
    "description": { "description": "What the base is for.", "type": "string" },
    "uses": { "description": "Other bases this one uses, with values (which may say `${var:NAME}` of this base's variables).", "type": "array", "items": { "$ref": "#/definitions/baseUse" } },
    "variables": {
      "description": "The variables a brand gives this base.",
      "type": "object",
      "additionalProperties": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "type": { "description": "string (the default), number or boolean.", "enum": ["string", "number", "boolean"] },
          "required": { "description": "Whether a brand must give it (true unless it has a default).", "type": "boolean" },
          "default": { "description": "The value when a brand gives none.", "type": ["string", "number", "boolean"] },
          "description": { "description": "What the variable is for.", "type": "string" }
        }
      }
    }
  }
} as const;

/** The schema of a Base document: a brand's sections, the base's frame, no brand id. */
export function assembleBaseSchema(kinds: Parameters<typeof assembleManifestSchema>[0]): JsonSchema {
  const brand = assembleManifestSchema(kinds) as { properties: Record<string, JsonSchema>; required: string[]; [k: string]: unknown };
  const properties: Record<string, JsonSchema> = { apiVersion: brand.properties.apiVersion as JsonSchema, kind: BASE_FRAME.kind, ...BASE_FRAME.extra };
  for (const [k, v] of Object.entries(brand.properties)) if (!['apiVersion', 'kind', 'brand', 'prune', 'moved', 'bases', 'overrides'].includes(k)) properties[k] = withVariables(v);
  const definitions = Object.fromEntries(Object.entries((brand.definitions ?? {}) as Record<string, JsonSchema>).map(([k, v]) => [k, k === 'baseUse' ? v : withVariables(v)]));
  return { ...brand, definitions, $id: 'https://rcsctl.dev/schemas/base.schema.json', title: BASE_FRAME.title, description: BASE_FRAME.description, required: ['apiVersion', 'kind'], properties } as JsonSchema;
}

/** A value a base may write as `${var:NAME}` (text, a number, a boolean): the schema of a value, or such a reference. */
const VARIABLE_REF = { "type": "string", "pattern": "\\$\\{var:[A-Za-z_][A-Za-z0-9_]*\\}", "description": "A base's variable: `${var:NAME}`." };

/** `schema` with every value that is not a map or a list also allowed to hold a variable reference. */
function withVariables(schema: JsonSchema): JsonSchema {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const s = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties' || k === 'patternProperties' || k === 'definitions') out[k] = Object.fromEntries(Object.entries(v as Record<string, JsonSchema>).map(([n, x]) => [n, withVariables(x)]));
    else if (['items', 'additionalProperties', 'not', 'if', 'then', 'else'].includes(k) && typeof v === 'object' && v !== null) out[k] = Array.isArray(v) ? v.map((x) => withVariables(x as JsonSchema)) : withVariables(v as JsonSchema);
    else if (['anyOf', 'oneOf', 'allOf'].includes(k) && Array.isArray(v)) out[k] = v.map((x) => withVariables(x as JsonSchema));
    else out[k] = v;
  }
  const scalar = ['pattern', 'format', 'enum', 'const', 'minimum', 'maximum'].some((k) => k in s) || (typeof s.type === 'string' && !['object', 'array'].includes(s.type));
  if (!scalar || '$ref' in s) return out;
  const { description, ...rest } = out;
  return { ...(description !== undefined ? { description } : {}), anyOf: [rest, VARIABLE_REF] };
}

/** The schema of a BrandSet document: one base stamped onto rows. */
export const BRANDSET_SCHEMA: JsonSchema = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://rcsctl.dev/schemas/brandset.schema.json",
  "title": "rcsctl brand set",
  "description": "Generated brands: one base stamped onto each row, given inline or from a CSV or YAML file (docs/fleet.md).",
  "type": "object",
  "additionalProperties": false,
  "required": ["apiVersion", "kind", "base"],
  "properties": {
    "apiVersion": { "description": "Manifest format version. Always `rcsctl/v1`.", "const": "rcsctl/v1" },
    "kind": { "description": "Document kind: `BrandSet`.", "const": "BrandSet" },
    "base": { "description": "The base each row's brand uses, relative to this file.", "type": "string", "minLength": 1 },
    "from": { "description": "A CSV file (header `id`, optionally `key`, then the variables) or YAML file (a list of maps with `id` and the variables), relative to this file.", "type": "string", "minLength": 1 },
    "brands": {
      "description": "Rows given inline.",
      "type": "array",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["id"],
        "properties": {
          "id": { "description": "brandId: `BR.` followed by 10 letters or digits.", "type": "string", "pattern": "^BR\\.[A-Za-z0-9]{10}$" },
          "key": { "description": "Brand key (agency accounts): `${env:NAME}`, never literally.", "type": "string" },
          "variables": { "description": "Values of the base's variables.", "type": "object", "additionalProperties": { "type": ["string", "number", "boolean"] } }
        }
      }
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
