// The agency-file kind's part of the manifest JSON Schema (assembled into
// schemas/manifest.schema.json by scripts/gen-schemas.ts).

import type { SchemaFragment } from '../manifest-section.js';

/** Its section and definitions. */
export const schema: SchemaFragment = {
  "property": {
    "description": "Agency message files (/ag/1.2/file), by fileId (max 64, unique; suggested `{brandId}.{code}`).",
    "type": "object",
    "propertyNames": {
      "type": "string",
      "minLength": 1,
      "maxLength": 64,
      "pattern": "^[A-Za-z0-9._-]+$"
    },
    "additionalProperties": {
      "$ref": "#/definitions/agencyFile"
    }
  },
  "definitions": {
    "agencyFile": {
      "description": "An agency message file, registered with POST /ag/1.2/file.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "path"
      ],
      "properties": {
        "path": {
          "description": "Image path relative to this manifest (max 1 MB).",
          "$ref": "#/definitions/path"
        },
        "mimeType": {
          "description": "MIME type; taken from the extension when left out.",
          "type": "string",
          "enum": [
            "image/jpeg",
            "image/png",
            "image/gif",
            "image/bmp"
          ]
        },
        "usageType": {
          "description": "Usage type; only `send` (the default).",
          "type": "string",
          "enum": [
            "send"
          ]
        },
        "messagebaseId": {
          "description": "New-format MMS only: the image size is validated against this messagebase (max 40).",
          "type": "string",
          "minLength": 1,
          "maxLength": 40
        }
      }
    }
  }
};
