// The brand profile's part of the manifest JSON Schema (assembled into
// schemas/manifest.schema.json by scripts/gen-schemas.ts). Lengths and sets
// are the public OpenAPI document's (src/spec/brand-profile.ts).

import { BRAND_ENUMS, BRAND_LENGTH, BRAND_MENUS } from '../../spec/brand-profile.js';
import type { SchemaFragment } from '../manifest-section.js';

const text = (description: string, max: number, min = 0) => ({ description, type: 'string', ...(min > 0 ? { minLength: min } : {}), maxLength: max });

/** Its section and definitions. */
export const schema: SchemaFragment = {
  property: { description: "The brand's own page, its home on a handset (one per brand).", $ref: '#/definitions/profile' },
  definitions: {
    profile: {
      description: "The brand's own page, its home on a handset. A new name or profile image goes to operator review; every other field changes at once.",
      type: 'object',
      additionalProperties: false,
      required: ['name', 'description', 'tel', 'categoryId', 'subCategoryId', 'profileImage'],
      properties: {
        account: text('The account (a master or manager with a role on the brand) rcsctl reads and changes the page as: the personId of the service. Default: the environment variable RCSCTL_PERSON_ID.', BRAND_LENGTH.personId, 1),
        name: text('Brand name shown on the home (max 20). A change goes to operator review.', BRAND_LENGTH.name, 1),
        description: text('Brand description (max 150).', BRAND_LENGTH.description, 1),
        tel: text('Phone number shown on the home (max 12); the call button dials it.', BRAND_LENGTH.tel, 1),
        categoryId: text('Category id, one of GET /corp/brand/categories (checked when planning).', BRAND_LENGTH.categoryId, 1),
        subCategoryId: text('Sub-category id of that category.', BRAND_LENGTH.subCategoryId, 1),
        keywords: text('Search keywords (the service calls them categoryOpt; max 20).', BRAND_LENGTH.categoryOpt),
        zipCode: { description: 'Zip code (5 digits).', type: 'string', pattern: '^[0-9]{5}$' },
        roadAddress: text('Road address (max 200).', BRAND_LENGTH.roadAddress),
        detailAddress: text('Detail address (max 200).', BRAND_LENGTH.detailAddress),
        email: { ...text('E-mail address (max 30).', BRAND_LENGTH.email), pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$' },
        webSiteUrl: { ...text('Website (max 128).', BRAND_LENGTH.webSiteUrl), pattern: '^https?://' },
        initTab: { description: 'The tab the home opens on: FEED (news) or INFO. Chosen at the first approval only; the service refuses a change afterwards.', enum: [...BRAND_ENUMS.initTab] },
        initFeedItem: { description: 'The news tab button (deprecated by the service, kept for compatibility): TEL, HOME or SEARCH.', enum: [...BRAND_ENUMS.initFeedItem] },
        templateColor: { description: "Button colour of the brand's templates, a hex code like \"#3B2A1A\".", type: 'string', pattern: '^#[0-9A-Fa-f]{6}$' },
        menus: {
          description: 'Home-screen buttons (at most 3; chat is always there). Fewer than three without call get call added by the service.',
          type: 'array',
          maxItems: BRAND_MENUS.max,
          items: { $ref: '#/definitions/homeButton' },
        },
        profileImage: { description: 'Profile image path relative to this manifest: png, square, 388 to 1,080 px, at most 1 MB. A change goes to operator review.', $ref: '#/definitions/path' },
        backgroundImage: { description: 'Background image path relative to this manifest: jpg or png, square, 388 to 1,080 px, at most 1 MB.', $ref: '#/definitions/path' },
      },
    },
    homeButton: {
      description: 'A home-screen button: call dials the brand tel; every other type opens its link, written as an auto-reply button writes it.',
      type: 'object',
      additionalProperties: false,
      required: ['type'],
      properties: {
        type: { description: 'call, web, store, order, buy, tickets or moreinfo (app cannot be registered).', enum: BRAND_ENUMS.buttonType.filter((t) => t !== 'app') },
        urlAction: {
          description: 'The link the button opens, as an auto-reply button writes it (required for every type but call).',
          type: 'object',
          additionalProperties: false,
          required: ['openUrl'],
          properties: {
            openUrl: {
              description: 'Open a web page.',
              type: 'object',
              additionalProperties: false,
              required: ['url'],
              properties: { url: { description: 'http:// or https:// URL (max 128).', type: 'string', pattern: '^https?://', maxLength: BRAND_LENGTH.weblink } },
            },
          },
        },
        appLink: {
          description: 'An app to open instead when the handset has it.',
          type: 'object',
          additionalProperties: false,
          required: ['packageName', 'action', 'uri'],
          properties: { packageName: text('Package name (max 40).', BRAND_LENGTH.applinkPart, 1), action: text('Intent action (max 40).', BRAND_LENGTH.applinkPart, 1), uri: text('URI (max 40).', BRAND_LENGTH.applinkPart, 1) },
        },
      },
      if: { properties: { type: { not: { const: 'call' } } } },
      then: { required: ['urlAction'] },
    },
  },
};
