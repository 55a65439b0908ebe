// The layout kind's part of the manifest JSON Schema (assembled into
// schemas/manifest.schema.json by scripts/gen-schemas.ts).

import type { SchemaFragment } from '../manifest-section.js';

const area = (description: string, bounds: { minItems?: number; maxItems?: number }) => ({
  description,
  type: 'array',
  ...bounds,
  items: { $ref: '#/definitions/layoutComponent' },
});

/** Its section and definitions. */
export const schema: SchemaFragment = {
  property: {
    description: 'Brand layouts, by local handle: cards built from the service\'s layout components (`rcsctl doctor` lists them), registered at once, with no operator review. A layout\'s id is the messagebaseId messages are sent with. The service lets agency accounts alone manage layouts.',
    type: 'object',
    propertyNames: { $ref: '#/definitions/handle' },
    additionalProperties: { $ref: '#/definitions/layout' },
  },
  definitions: {
    layout: {
      description: 'A layout: a header of at most one component, a body of at least one, a footer of at most one, within the rule of its message product (how many components, buttons, and components of each group).',
      type: 'object',
      additionalProperties: false,
      required: ['layoutName', 'productCode', 'bodyComposition'],
      properties: {
        layoutId: {
          description: 'Pinned layoutId (its messagebaseId). When set it is the identity and `layoutName` may change.',
          type: 'string',
          minLength: 1,
          maxLength: 40,
        },
        layoutName: {
          description: 'Layout name (max 40); the identity unless `layoutId` is pinned.',
          type: 'string',
          minLength: 1,
          maxLength: 40,
        },
        productCode: {
          description: 'The message product the layout is for; its rule bounds the components.',
          enum: ['sms', 'lms', 'mms'],
        },
        sampleLayoutId: {
          description: 'The sample layout it was made from (sent with each request; the service does not give it back, so a change of it alone changes nothing).',
          type: 'string',
          minLength: 1,
          maxLength: 40,
        },
        headerComposition: area('The top of the card: at most one component the service allows in a header. Default: none.', { maxItems: 1 }),
        bodyComposition: area('The middle of the card, in order: at least one component the service allows in a body; different components of one group may not be used together.', { minItems: 1 }),
        footerComposition: area('The bottom of the card: at most one component the service allows in a footer. Default: none.', { maxItems: 1 }),
      },
    },
    layoutComponent: {
      description: 'A layout component, by the id the service lists, with its options when it takes some.',
      type: 'object',
      additionalProperties: false,
      required: ['componentId'],
      properties: {
        componentId: {
          description: 'The component id (max 40), one the service lists as usable in a layout.',
          type: 'string',
          minLength: 1,
          maxLength: 40,
        },
        options: {
          description: "A table's options or a button's colour; those left out take the component's own.",
          type: 'object',
          additionalProperties: false,
          properties: {
            leftAlign: { description: 'Alignment of the left column.', enum: ['left', 'right', 'center'] },
            rightAlign: { description: 'Alignment of the right column.', enum: ['left', 'right', 'center'] },
            leftTextStyle: { description: 'Text style of the left column.', enum: ['normal', 'bold'] },
            rightTextStyle: { description: 'Text style of the right column.', enum: ['normal', 'bold'] },
            maxCount: { description: 'Rows of a table: 5 or 10.', enum: [5, 10] },
            color: {
              description: "A button's colour: the brand's templateColor (`#RRGGBB`; another is set to it by the service), or empty for the default colour.",
              type: 'string',
              pattern: '^(#[0-9A-Fa-f]{6})?$',
            },
          },
        },
      },
    },
  },
};
