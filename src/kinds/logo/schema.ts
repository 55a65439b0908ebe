// The logo kind's part of the manifest JSON Schema (assembled into
// schemas/manifest.schema.json by scripts/gen-schemas.ts).

import type { SchemaFragment } from '../manifest-section.js';

/** Its section and definitions. */
export const schema: SchemaFragment = {
  "property": {
    "description": "Brand logos, by local handle. Each registration or change goes to operator review.",
    "type": "object",
    "propertyNames": {
      "$ref": "#/definitions/handle"
    },
    "additionalProperties": {
      "$ref": "#/definitions/logo"
    }
  },
  "definitions": {
    "logo": {
      "description": "A brand logo: a 300x300 image (gif, png, jpeg, jpg or bmp; max 1 MB).",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "name",
        "path"
      ],
      "properties": {
        "fileId": {
          "description": "Pinned logo fileId. When set it is the identity and `name` may change.",
          "type": "string",
          "minLength": 1,
          "maxLength": 64
        },
        "name": {
          "description": "Logo name (max 30); the identity unless `fileId` is pinned.",
          "type": "string",
          "minLength": 1,
          "maxLength": 30
        },
        "description": {
          "description": "Logo description (max 100).",
          "type": "string",
          "maxLength": 100
        },
        "path": {
          "description": "Logo image path relative to this manifest.",
          "$ref": "#/definitions/path"
        }
      }
    }
  }
};
