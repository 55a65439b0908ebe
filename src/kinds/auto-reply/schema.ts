// The auto-reply kind's part of the manifest JSON Schema (assembled into
// schemas/manifest.schema.json by scripts/gen-schemas.ts).

import { SERVICE_POSTBACK } from '../../spec/postback.js';
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
          "description": "A common messagebase of product code chat, one of: SCS00000 (speech bubble), SCL00000 (long speech bubble, stored as SCS00000), SCwThM00 (card, medium image), SCwThT00 (card, tall image, stored as SCwThM00), CCwMhM0200 to CCwMhM0600 (slider of 2 to 6 cards). Any other id is an error (RCS502) in validate, plan and apply alike.",
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
      "description": "An image: `{ file: <handle> }` for a file declared under `files:`, or, as a string, the id of a file already registered with the service (the `fileId` its upload answered); either is compared by the file it names.",
      "type": [
        "string",
        "object"
      ],
      "examples": [
        {
          "file": "hero"
        },
        "ARF000000000001"
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
        },
        "title4": {
          "description": "Title of card 4.",
          "$ref": "#/definitions/text"
        },
        "description4": {
          "description": "Text of card 4.",
          "$ref": "#/definitions/text"
        },
        "media4": {
          "description": "Image of card 4.",
          "$ref": "#/definitions/media"
        },
        "mediaUrl4": {
          "description": "Landing URL of card 4 image.",
          "$ref": "#/definitions/text"
        },
        "title5": {
          "description": "Title of card 5.",
          "$ref": "#/definitions/text"
        },
        "description5": {
          "description": "Text of card 5.",
          "$ref": "#/definitions/text"
        },
        "media5": {
          "description": "Image of card 5.",
          "$ref": "#/definitions/media"
        },
        "mediaUrl5": {
          "description": "Landing URL of card 5 image.",
          "$ref": "#/definitions/text"
        },
        "title6": {
          "description": "Title of card 6.",
          "$ref": "#/definitions/text"
        },
        "description6": {
          "description": "Text of card 6.",
          "$ref": "#/definitions/text"
        },
        "media6": {
          "description": "Image of card 6.",
          "$ref": "#/definitions/media"
        },
        "mediaUrl6": {
          "description": "Landing URL of card 6 image.",
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
      "description": "A button or chip: exactly one of `action` (open a page, map, calendar, clipboard, message, call) or `reply` (another auto-reply, or a chatbot answer).",
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "maxProperties": 1,
      "properties": {
        "action": {
          "description": "An action.",
          "$ref": "#/definitions/action"
        },
        "reply": {
          "description": "A reply: another auto-reply, or a chatbot answer.",
          "$ref": "#/definitions/reply"
        }
      }
    },
    "action": {
      "description": "An RCS action: its button text, optional postback data, and exactly one of urlAction, localBrowserAction, mapAction, calendarAction, clipboardAction, composeAction or dialerAction.",
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
            "localBrowserAction"
          ]
        },
        {
          "required": [
            "mapAction"
          ]
        },
        {
          "required": [
            "calendarAction"
          ]
        },
        {
          "required": [
            "clipboardAction"
          ]
        },
        {
          "required": [
            "composeAction"
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
          "description": "Button text (1 to 25 characters).",
          "$ref": "#/definitions/displayText"
        },
        "postback": {
          "description": "Data sent to the agency when the button is tapped; empty when left out (the service fills it in).",
          "$ref": "#/definitions/postback"
        },
        "urlAction": {
          "description": "Open a web page or app link in the default browser.",
          "$ref": "#/definitions/urlAction"
        },
        "localBrowserAction": {
          "description": "Open a web page in the messaging app's own browser.",
          "$ref": "#/definitions/localBrowserAction"
        },
        "mapAction": {
          "description": "Show a place on a map, or ask for the user's location.",
          "$ref": "#/definitions/mapAction"
        },
        "calendarAction": {
          "description": "Offer a calendar event.",
          "$ref": "#/definitions/calendarAction"
        },
        "clipboardAction": {
          "description": "Copy text to the clipboard.",
          "$ref": "#/definitions/clipboardAction"
        },
        "composeAction": {
          "description": "Start a message to a number.",
          "$ref": "#/definitions/composeAction"
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
      "description": "A reply: with autoReply (or autoReplyMsgId) it shows another auto-reply, and links may form cycles; with neither it is a chatbot answer, sent to the agency as a user event with its postback data.",
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
        },
        {
          "not": {
            "anyOf": [
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
            ]
          }
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
          "description": "Reply text (1 to 25 characters).",
          "$ref": "#/definitions/displayText"
        },
        "postback": {
          "description": "Data sent to the agency when tapped; for a link the service assigns it (lint warns, RCS512).",
          "$ref": "#/definitions/postback"
        }
      }
    },
    "postback": {
      "description": "Data sent back to the agency when the user taps (max 2048). Without it rcsctl sends empty data, which the service fills in as postbackId=<id>;;.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "data"
      ],
      "properties": {
        "data": {
          "description": "Opaque data for the agency (max 2048); may be empty. Not of the form postbackId=<id>;;, which is the service's own fill-in.",
          "type": "string",
          "maxLength": 2048,
          "not": {
            "pattern": SERVICE_POSTBACK.source
          }
        }
      }
    },
    "displayText": {
      "description": "Button text (1 to 25 characters).",
      "type": "string",
      "minLength": 1,
      "maxLength": 25
    },
    "urlAction": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "openUrl": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "url": {
              "description": "An absolute http or https URL.",
              "type": "string",
              "format": "uri",
              "pattern": "^https?://"
            }
          },
          "required": [
            "url"
          ],
          "description": "The page to open."
        }
      },
      "required": [
        "openUrl"
      ],
      "description": "Open a URL in the default browser."
    },
    "localBrowserAction": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "openUrl": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "url": {
              "description": "An absolute http or https URL.",
              "type": "string",
              "format": "uri",
              "pattern": "^https?://"
            },
            "isHalfView": {
              "description": "Show the browser in the lower half of the screen (default false).",
              "type": "boolean"
            },
            "postParameter": {
              "description": "Parameters sent as a POST form when the page opens.",
              "type": "object"
            }
          },
          "required": [
            "url"
          ],
          "description": "The page to open."
        }
      },
      "required": [
        "openUrl"
      ],
      "description": "Open a URL in the in-app browser."
    },
    "mapAction": {
      "description": "Exactly one of showLocation or requestLocationPush.",
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "maxProperties": 1,
      "properties": {
        "showLocation": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "location": {
              "type": "object",
              "additionalProperties": false,
              "properties": {
                "latitude": {
                  "description": "Latitude, -90 to 90.",
                  "type": "number",
                  "minimum": -90,
                  "maximum": 90
                },
                "longitude": {
                  "description": "Longitude, -180 to 180.",
                  "type": "number",
                  "minimum": -180,
                  "maximum": 180
                },
                "label": {
                  "description": "Name shown at the place (1 to 100).",
                  "type": "string",
                  "minLength": 1,
                  "maxLength": 100
                }
              },
              "required": [
                "latitude",
                "longitude"
              ],
              "description": "The place."
            },
            "fallbackUrl": {
              "description": "Opened where no map is available.",
              "type": "string",
              "format": "uri",
              "pattern": "^https?://"
            }
          },
          "required": [
            "location"
          ],
          "description": "Show a place on a map."
        },
        "requestLocationPush": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "currentLocation": {
              "description": "Send the current location without asking the user to pick one.",
              "type": "boolean"
            }
          },
          "description": "Ask the user to share a location once."
        }
      }
    },
    "calendarAction": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "createCalendarEvent": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "startTime": {
              "description": "Start, an ISO 8601 date-time (quote it).",
              "type": "string",
              "format": "date-time"
            },
            "endTime": {
              "description": "End, an ISO 8601 date-time (quote it).",
              "type": "string",
              "format": "date-time"
            },
            "title": {
              "description": "Event title (1 to 100).",
              "type": "string",
              "minLength": 1,
              "maxLength": 100
            },
            "description": {
              "description": "Event description (1 to 500).",
              "type": "string",
              "minLength": 1,
              "maxLength": 500
            },
            "fallbackUrl": {
              "description": "Opened where no calendar is available.",
              "type": "string",
              "format": "uri",
              "pattern": "^https?://"
            }
          },
          "required": [
            "startTime",
            "endTime",
            "title"
          ],
          "description": "The event."
        }
      },
      "required": [
        "createCalendarEvent"
      ],
      "description": "Offer a calendar event."
    },
    "clipboardAction": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "copyToClipboard": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "text": {
              "description": "The text to copy.",
              "type": "string",
              "minLength": 1
            }
          },
          "required": [
            "text"
          ],
          "description": "What to copy."
        }
      },
      "required": [
        "copyToClipboard"
      ],
      "description": "Copy text to the clipboard."
    },
    "composeAction": {
      "description": "Exactly one of composeTextMessage or composeRecordingMessage.",
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "maxProperties": 1,
      "properties": {
        "composeTextMessage": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "phoneNumber": {
              "description": "The number to write to.",
              "type": "string",
              "minLength": 1
            },
            "text": {
              "description": "The draft text (max 100).",
              "type": "string",
              "maxLength": 100
            }
          },
          "required": [
            "phoneNumber",
            "text"
          ],
          "description": "A draft text message."
        },
        "composeRecordingMessage": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "phoneNumber": {
              "description": "The number to write to.",
              "type": "string",
              "minLength": 1
            },
            "type": {
              "description": "AUDIO or VIDEO.",
              "enum": [
                "AUDIO",
                "VIDEO"
              ]
            }
          },
          "required": [
            "phoneNumber",
            "type"
          ],
          "description": "A draft message with a recording."
        }
      }
    }
  }
};
