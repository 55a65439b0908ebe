// The auto-reply kind's part of the manifest JSON Schema (assembled into
// schemas/manifest.schema.json by scripts/gen-schemas.ts).

import type { SchemaFragment } from '../manifest-section.js';

/** Its section and definitions. */
export const schema: SchemaFragment = {
  "property": {
    "description": "Auto-reply messages, by local handle. Buttons, chips and menu items refer to one by its handle.",
    "type": "object",
    "propertyNames": {
      "$ref": "#/definitions/handle"
    },
    "additionalProperties": {
      "$ref": "#/definitions/autoReply"
    }
  },
  "definitions": {
    "autoReply": {
      "description": "An auto-reply message.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "name",
        "messagebaseId",
        "body"
      ],
      "properties": {
        "id": {
          "description": "Pinned autoReplyMsgId (max 40). When set it is the identity and `name` may change.",
          "type": "string",
          "minLength": 1,
          "maxLength": 40
        },
        "name": {
          "description": "autoReplyMsgName (max 100); the identity unless `id` is pinned, so unique within the brand.",
          "type": "string",
          "minLength": 1,
          "maxLength": 100
        },
        "messagebaseId": {
          "description": "A common messagebase of product code chat (max 40): SCS00000 (speech bubble), SCwThM00 (card), CCwMhM0200 (slider) and so on.",
          "type": "string",
          "minLength": 1,
          "maxLength": 40
        },
        "copyAllowed": {
          "description": "Whether the handset may copy the message (default true).",
          "type": "boolean"
        },
        "body": {
          "description": "Message body: the fields the messagebase shows (SCS00000: description; SCwThM00: title, description, media; CCwMhM0200: title1, description1, media1, title2, description2, media2).",
          "$ref": "#/definitions/body"
        },
        "buttons": {
          "description": "Button groups, one per card in order; `{}` is a card without buttons.",
          "type": "array",
          "items": {
            "$ref": "#/definitions/buttonGroup"
          }
        },
        "chipList": {
          "description": "Chip buttons shown under the message.",
          "type": "array",
          "items": {
            "$ref": "#/definitions/suggestion"
          }
        }
      }
    },
    "text": {
      "description": "Text of a body field.",
      "type": "string"
    },
    "media": {
      "description": "An image: `{ file: <handle> }` for a file declared under `files:`, or the id of a file already registered with the service.",
      "type": [
        "string",
        "object"
      ],
      "additionalProperties": false,
      "required": [
        "file"
      ],
      "properties": {
        "file": {
          "description": "Handle of a file declared under `files:`.",
          "$ref": "#/definitions/handle"
        }
      }
    },
    "body": {
      "description": "Message body. Field names are those of the service; which ones a messagebase shows depends on the base (the others are ignored, and lint warns).",
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "properties": {
        "title": {
          "description": "Main title.",
          "$ref": "#/definitions/text"
        },
        "description": {
          "description": "Main text.",
          "$ref": "#/definitions/text"
        },
        "media": {
          "description": "Main image.",
          "$ref": "#/definitions/media"
        },
        "mediaUrl": {
          "description": "Landing URL of the main image.",
          "$ref": "#/definitions/text"
        },
        "title1": {
          "description": "Title of card 1.",
          "$ref": "#/definitions/text"
        },
        "title2": {
          "description": "Title of card 2.",
          "$ref": "#/definitions/text"
        },
        "title3": {
          "description": "Title of card 3.",
          "$ref": "#/definitions/text"
        },
        "description1": {
          "description": "Text of card 1.",
          "$ref": "#/definitions/text"
        },
        "description2": {
          "description": "Text of card 2.",
          "$ref": "#/definitions/text"
        },
        "description3": {
          "description": "Text of card 3.",
          "$ref": "#/definitions/text"
        },
        "media1": {
          "description": "Image of card 1.",
          "$ref": "#/definitions/media"
        },
        "media2": {
          "description": "Image of card 2.",
          "$ref": "#/definitions/media"
        },
        "media3": {
          "description": "Image of card 3.",
          "$ref": "#/definitions/media"
        },
        "mediaUrl1": {
          "description": "Landing URL of the image of card 1.",
          "$ref": "#/definitions/text"
        },
        "mediaUrl2": {
          "description": "Landing URL of the image of card 2.",
          "$ref": "#/definitions/text"
        },
        "mediaUrl3": {
          "description": "Landing URL of the image of card 3.",
          "$ref": "#/definitions/text"
        },
        "subMedia1": {
          "description": "New-format MMS only: sub image 1.",
          "$ref": "#/definitions/media"
        },
        "subMedia2": {
          "description": "New-format MMS only: sub image 2.",
          "$ref": "#/definitions/media"
        },
        "subMedia3": {
          "description": "New-format MMS only: sub image 3.",
          "$ref": "#/definitions/media"
        },
        "subMediaUrl1": {
          "description": "New-format MMS only: landing URL of sub image 1.",
          "$ref": "#/definitions/text"
        },
        "subMediaUrl2": {
          "description": "New-format MMS only: landing URL of sub image 2.",
          "$ref": "#/definitions/text"
        },
        "subMediaUrl3": {
          "description": "New-format MMS only: landing URL of sub image 3.",
          "$ref": "#/definitions/text"
        },
        "subTitle1": {
          "description": "New-format MMS only: sub title 1.",
          "$ref": "#/definitions/text"
        },
        "subTitle2": {
          "description": "New-format MMS only: sub title 2.",
          "$ref": "#/definitions/text"
        },
        "subTitle3": {
          "description": "New-format MMS only: sub title 3.",
          "$ref": "#/definitions/text"
        },
        "subDesc1": {
          "description": "New-format MMS only: sub text 1.",
          "$ref": "#/definitions/text"
        },
        "subDesc2": {
          "description": "New-format MMS only: sub text 2.",
          "$ref": "#/definitions/text"
        },
        "subDesc3": {
          "description": "New-format MMS only: sub text 3.",
          "$ref": "#/definitions/text"
        }
      }
    },
    "buttonGroup": {
      "description": "The buttons of one card.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "suggestions": {
          "description": "The buttons of this card, in order.",
          "type": "array",
          "items": {
            "$ref": "#/definitions/suggestion"
          }
        }
      }
    },
    "suggestion": {
      "description": "A button or chip: exactly one of `action` (open a URL, dial a number) or `reply` (show another auto-reply).",
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "maxProperties": 1,
      "properties": {
        "action": {
          "description": "An action: open a URL or dial a number.",
          "$ref": "#/definitions/action"
        },
        "reply": {
          "description": "A reply: show another auto-reply.",
          "$ref": "#/definitions/reply"
        }
      }
    },
    "action": {
      "description": "An RCS action with its button text and exactly one of `urlAction` or `dialerAction`. Postback data is filled by the service.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "displayText"
      ],
      "oneOf": [
        {
          "required": [
            "urlAction"
          ]
        },
        {
          "required": [
            "dialerAction"
          ]
        }
      ],
      "properties": {
        "displayText": {
          "description": "Button text.",
          "type": "string",
          "minLength": 1
        },
        "urlAction": {
          "description": "Open a URL.",
          "type": "object",
          "additionalProperties": false,
          "required": [
            "openUrl"
          ],
          "properties": {
            "openUrl": {
              "description": "The URL to open.",
              "type": "object",
              "additionalProperties": false,
              "required": [
                "url"
              ],
              "properties": {
                "url": {
                  "description": "An absolute http or https URL.",
                  "type": "string",
                  "format": "uri",
                  "pattern": "^https?://"
                }
              }
            }
          }
        },
        "dialerAction": {
          "description": "Dial a phone number.",
          "$ref": "#/definitions/dialerAction"
        }
      }
    },
    "dialerAction": {
      "description": "Dial a phone number.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "dialPhoneNumber"
      ],
      "properties": {
        "dialPhoneNumber": {
          "description": "The number to dial.",
          "type": "object",
          "additionalProperties": false,
          "required": [
            "phoneNumber"
          ],
          "properties": {
            "phoneNumber": {
              "description": "Phone number, digits with an optional leading `+` (quote it).",
              "type": "string",
              "pattern": "^\\+?[0-9][0-9-]*$"
            },
            "fallbackUrl": {
              "description": "URL opened where dialling is not possible.",
              "type": "string",
              "format": "uri"
            }
          }
        }
      }
    },
    "reply": {
      "description": "A link to another auto-reply, shown when the user taps the button or chip. Links may form cycles.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "displayText"
      ],
      "oneOf": [
        {
          "required": [
            "autoReply"
          ]
        },
        {
          "required": [
            "autoReplyMsgId"
          ]
        }
      ],
      "properties": {
        "autoReply": {
          "description": "Handle of an auto-reply in this brand's manifests.",
          "$ref": "#/definitions/handle"
        },
        "autoReplyMsgId": {
          "description": "Service id of an auto-reply not managed by these manifests (lint warns).",
          "type": "string",
          "minLength": 1,
          "maxLength": 40
        },
        "displayText": {
          "description": "Reply text (max 25).",
          "type": "string",
          "minLength": 1,
          "maxLength": 25
        }
      }
    }
  }
};
