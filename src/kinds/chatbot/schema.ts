// The chatbot kind's part of the manifest JSON Schema (assembled into
// schemas/manifest.schema.json by scripts/gen-schemas.ts).

import type { SchemaFragment } from '../manifest-section.js';

/** Its section and definitions. */
export const schema: SchemaFragment = {
  "property": {
    "description": "Chatbots (conversation rooms), by chatbotId (the sender number for a2p rooms; max 15). Quote numbers: `\"0212345678\"`. Fields left out are not managed.",
    "type": "object",
    "propertyNames": {
      "type": "string",
      "minLength": 1,
      "maxLength": 15,
      "pattern": "^[A-Za-z0-9._-]+$"
    },
    "additionalProperties": {
      "$ref": "#/definitions/chatbot"
    }
  },
  "definitions": {
    "chatbot": {
      "description": "A chatbot (room). Fields left out are not managed: the live value is kept. A room that does not exist yet is registered with subTitle and certificate; the fields left out get the service's defaults (subNum: the room's number, display \"01\", inputField 1, rcsReply \"1\", saftyStatusYn \"Y\"), shown in the plan as `+ display: \"01\" (default)`.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "subTitle": {
          "description": "Room name (max 20). A change on an approved room goes to operator review.",
          "type": "string",
          "minLength": 1,
          "maxLength": 20
        },
        "subNum": {
          "description": "Reply number (max 40); equals the sender number for a2p rooms. A new room left without it gets the room's own number (shown `(default)` in the plan).",
          "type": "string",
          "maxLength": 40
        },
        "display": {
          "description": "Visibility: \"11\" channel+search+home, \"10\" channel+search, \"01\" channel+home, \"00\" channel only. Quote it. A new room left without it gets \"01\" (shown `(default)` in the plan).",
          "type": "string",
          "enum": [
            "11",
            "10",
            "01",
            "00"
          ]
        },
        "inputField": {
          "description": "User input box: 1 enabled, 0 disabled. A new room left without it gets 1 (shown `(default)` in the plan).",
          "type": "integer",
          "enum": [
            0,
            1
          ]
        },
        "rcsReply": {
          "description": "\"1\" to receive RCS postbacks (needed for a persistent menu), \"0\" to receive SMS MO. Quote it. A new room left without it gets \"1\" (shown `(default)` in the plan).",
          "type": "string",
          "enum": [
            "0",
            "1"
          ]
        },
        "subDescr": {
          "description": "Introduction text shown in search (max 50).",
          "type": "string",
          "maxLength": 50
        },
        "saftyStatusYn": {
          "description": "Safety mark (the service's spelling): Y shown, N not shown. A new room left without it gets \"Y\" (shown `(default)` in the plan).",
          "type": "string",
          "enum": [
            "Y",
            "N"
          ]
        },
        "certificate": {
          "description": "Telecom subscription certificate, needed only to register a room that does not exist yet (jpg, png, pdf, tiff, zip; max 20 MB). The plan shows it as an upload line of the room's create: `+ upload subscription certificate <name> (<size>)`.",
          "type": "object",
          "additionalProperties": false,
          "required": [
            "path"
          ],
          "properties": {
            "path": {
              "description": "Certificate path relative to this manifest.",
              "$ref": "#/definitions/path"
            }
          }
        },
        "persistentMenu": {
          "description": "The room menu, at most 5 items in display order. Left out: the live menu is kept; `[]`: no menu. Needs rcsReply \"1\".",
          "type": "array",
          "maxItems": 5,
          "items": {
            "$ref": "#/definitions/menuItem"
          }
        }
      }
    }
  }
};
