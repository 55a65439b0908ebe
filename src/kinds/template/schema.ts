// The template kind's part of the manifest JSON Schema (assembled into
// schemas/manifest.schema.json by scripts/gen-schemas.ts). The rules that need
// the form (widget policy, params) are checked when planning.

import type { SchemaFragment } from '../manifest-section.js';

/** Its section and definitions. */
export const schema: SchemaFragment = {
  property: {
    description: 'Brand templates (messagebases), by local handle. Every registration and modification goes to operator review; see docs/templates.md.',
    type: 'object',
    propertyNames: { $ref: '#/definitions/handle' },
    additionalProperties: { $ref: '#/definitions/template' },
  },
  definitions: {
    template: {
      description: 'A brand template, written against a form: a text template gives `formattedString`, an image template `body` (and `buttons`).',
      type: 'object',
      additionalProperties: false,
      required: ['custTmpltId', 'tmpltName', 'messagebaseformId'],
      properties: {
        custTmpltId: {
          description: 'Your own template id: letters and digits, at most 25. The identity unless `messagebaseId` is pinned; a deleted id cannot be used again.',
          type: 'string',
          pattern: '^[A-Za-z0-9]{1,25}$',
        },
        messagebaseId: {
          description: 'Pinned messagebaseId (max 40). When set it is the identity.',
          type: 'string',
          minLength: 1,
          maxLength: 40,
        },
        tmpltName: { description: 'Template name (max 40).', type: 'string', minLength: 1, maxLength: 40 },
        messagebaseformId: { description: 'The form the template is written against (max 10), e.g. TADS001A.', type: 'string', minLength: 1, maxLength: 10 },
        formattedString: {
          description: "A text template: the form's formattedString, where only what each widget's `widgetPolicy.allowedAttributes` names may differ. `widgetPolicy` itself may be left out.",
          type: 'object',
          required: ['RCSMessage'],
        },
        body: {
          description: "An image template: the form's params, as `{param, value}` (text) or `{param, value: {path}}` (an image), and `{lineIndex}` for a line under a cell row.",
          type: 'array',
          minItems: 1,
          items: { $ref: '#/definitions/templateBodyItem' },
        },
        buttons: {
          description: 'Buttons of an image template, one group per card: `{suggestions: [{action: …}]}`.',
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            properties: { suggestions: { description: 'The buttons of one card.', type: 'array', items: { $ref: '#/definitions/templateButton' } } },
          },
        },
      },
    },
    templateBodyItem: {
      description: "One entry of a template's body.",
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        param: { description: "A param of the form (its `params[].param`).", type: 'string', minLength: 1, maxLength: 20 },
        value: {
          description: 'Text with `{{variables}}`, or `{path}`: a local image, uploaded content-addressed through the template file endpoint.',
          type: ['string', 'object'],
          additionalProperties: false,
          required: ['path'],
          properties: { path: { description: 'Image path relative to this manifest (gif, png, jpeg, jpg or bmp; max 1 MB).', $ref: '#/definitions/path' } },
        },
        lineIndex: { description: 'A line under cell row N (1 to 9).', type: 'integer', minimum: 1, maximum: 9 },
      },
    },
    templateButton: {
      description: 'A template button: one action with its `displayText` (no variables), as the form allows.',
      type: 'object',
      additionalProperties: false,
      required: ['action'],
      properties: { action: { description: 'urlAction, dialerAction, mapAction, calendarAction, composeAction, clipboardAction or localBrowserAction, with displayText and optional postback.', type: 'object', required: ['displayText'] } },
    },
  },
};
