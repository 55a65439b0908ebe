// The bidirectional room kind's part of the manifest JSON Schema (assembled
// into schemas/manifest.schema.json by scripts/gen-schemas.ts).

import type { SchemaFragment } from '../manifest-section.js';

/** Its section and definitions. */
export const schema: SchemaFragment = {
  property: {
    description:
      'Bidirectional rooms, by chatbotId. A key starting with `bot-` is a room with a bidirectional ID (the service keeps it in lower case, at most 15 characters of letters, digits, `-` and `_`): registered with subTitle and subNum, and reviewed by the operator. Any other key is a sender-number room (declared under `chatbots:`) converted by linking a bidirectional agency: give only `botAgencyId`. Fields left out are not managed.',
    type: 'object',
    propertyNames: { type: 'string', minLength: 1, maxLength: 15, pattern: '^[A-Za-z0-9._-]+$' },
    additionalProperties: { $ref: '#/definitions/bidirectionalRoom' },
  },
  definitions: {
    bidirectionalRoom: {
      description:
        'A bidirectional room. For a `bot-` room: subTitle and subNum are required, the other fields are managed when given (a new room left without them gets display "01", inputField 1, saftyStatusYn "Y", shown `(default)` in the plan). A `bot-` room may declare its persistent menu (`persistentMenu`). For a converted sender-number room: botAgencyId alone; its name, menu and other fields are the room\'s, under `chatbots:`.',
      type: 'object',
      additionalProperties: false,
      properties: {
        subTitle: { description: 'Room name (max 20); `bot-` rooms only. A new room, and a change of the name of an approved one, go to operator review.', type: 'string', minLength: 1, maxLength: 20 },
        subNum: { description: 'Reply number (max 40); `bot-` rooms only: one of the brand\'s approved sender-number rooms. Quote it.', type: 'string', minLength: 1, maxLength: 40 },
        display: { description: 'Visibility: "11" channel+search+home, "10" channel+search, "01" channel+home, "00" channel only; `bot-` rooms only. Quote it.', type: 'string', enum: ['11', '10', '01', '00'] },
        inputField: { description: 'User input box: 1 enabled, 0 disabled; `bot-` rooms only.', type: 'integer', enum: [0, 1] },
        subDescr: { description: 'Introduction text shown in search (max 50); `bot-` rooms only.', type: 'string', maxLength: 50 },
        saftyStatusYn: { description: 'Safety mark (the service\'s spelling): Y shown, N not shown; `bot-` rooms only.', type: 'string', enum: ['Y', 'N'] },
        botAgencyId: { description: 'The bidirectional agency linked (max 20): required to convert a sender-number room; optional for a `bot-` room (left out: the live link is kept).', type: 'string', minLength: 1, maxLength: 20 },
        persistentMenu: {
          description:
            'The room menu of a `bot-` room, at most 5 items in display order, as a sender-number room\'s under `chatbots:`. Left out: the live menu is kept; `[]`: no menu. Changing it does not go to review. A converted room\'s menu is its room\'s: declare it under `chatbots:`.',
          type: 'array',
          maxItems: 5,
          items: { $ref: '#/definitions/menuItem' },
        },
      },
    },
  },
};
