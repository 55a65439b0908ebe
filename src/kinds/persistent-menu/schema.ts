// The persistent-menu kind's part of the manifest JSON Schema (assembled into
// schemas/manifest.schema.json by scripts/gen-schemas.ts).

import type { SchemaFragment } from '../manifest-section.js';

/** Its section and definitions. */
export const schema: SchemaFragment = {
  "definitions": {
    "menuItem": {
      "description": "A persistent menu item: `reply` (shows an auto-reply), `feed` (brand news) or `action` (dial a number).",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "type",
        "title"
      ],
      "properties": {
        "type": {
          "description": "reply, feed or action. `menu` (sub-menu) is no longer allowed.",
          "type": "string",
          "enum": [
            "reply",
            "feed",
            "action"
          ]
        },
        "title": {
          "description": "Menu button label (max 25).",
          "type": "string",
          "minLength": 1,
          "maxLength": 25
        },
        "autoReply": {
          "description": "For type reply: handle of the auto-reply to show.",
          "$ref": "#/definitions/handle"
        },
        "autoReplyMsgId": {
          "description": "For type reply: service id of an auto-reply not managed by these manifests.",
          "type": "string",
          "minLength": 1,
          "maxLength": 40
        },
        "feedId": {
          "description": "For type feed: the brand news feed id.",
          "type": "string",
          "minLength": 1
        },
        "actionType": {
          "description": "For type action: only dialerAction is allowed.",
          "type": "string",
          "enum": [
            "dialerAction"
          ]
        },
        "action": {
          "description": "For type action: the dialer action.",
          "type": "object",
          "additionalProperties": false,
          "required": [
            "dialerAction"
          ],
          "properties": {
            "dialerAction": {
              "description": "Dial a phone number.",
              "$ref": "#/definitions/dialerAction"
            }
          }
        }
      },
      "allOf": [
        {
          "if": {
            "properties": {
              "type": {
                "const": "action"
              }
            },
            "required": [
              "type"
            ]
          },
          "then": {
            "required": [
              "actionType",
              "action"
            ]
          }
        },
        {
          "if": {
            "properties": {
              "type": {
                "const": "feed"
              }
            },
            "required": [
              "type"
            ]
          },
          "then": {
            "required": [
              "feedId"
            ]
          }
        }
      ]
    }
  }
};
