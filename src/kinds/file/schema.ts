// The file kind's part of the manifest JSON Schema (assembled into
// schemas/manifest.schema.json by scripts/gen-schemas.ts).

import type { SchemaFragment } from '../manifest-section.js';

/** Its section and definitions. */
export const schema: SchemaFragment = {
  "property": {
    "description": "Auto-reply image files, by local handle. A body refers to one with `media: { file: <handle> }`. Files are uploaded content-addressed as `<stem>-<sha256 first 12>.<ext>`.",
    "type": "object",
    "propertyNames": {
      "$ref": "#/definitions/handle"
    },
    "additionalProperties": {
      "$ref": "#/definitions/file"
    }
  },
  "definitions": {
    "file": {
      "description": "An auto-reply image file.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "path"
      ],
      "properties": {
        "path": {
          "description": "Image path relative to this manifest (gif, png, jpeg, jpg or bmp; max 1 MB).",
          "$ref": "#/definitions/path"
        }
      }
    }
  }
};
