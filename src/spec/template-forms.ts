// The template forms (messagebaseforms) the emulator serves and the tests write
// templates against. Forms are the service's data: which widgets a template may
// change (widgetPolicy.allowedAttributes), which params a v2 template sets, and
// the limits (policyInfo). These four are our own, shaped like the public
// OpenAPI document's examples: a description text form, a cell (style) form, a
// title-free form and an image form. docs/templates.md shows how to use them.

import type { MessagebaseForm, TemplateParamInfo, TemplatePolicyInfo } from '../contract/wire.js';

const DATE = '2026-01-05T09:00:00.000+09';

type Node = Record<string, unknown>;

function text(value: string, allowed: string[], extra: Node = {}): Node {
  return { widgetPolicy: { allowedAttributes: allowed }, widget: 'TextView', width: 'match', height: 'content', text: value, textColor: '#232323', textSize: '16dp', ...extra };
}

function line(allowed: string[], visibility: string): Node {
  return { widgetPolicy: { allowedAttributes: allowed }, widget: 'View', width: 'match', height: '1dp', background: '#232323', visibility, marginTop: '12dp', marginBottom: '12dp' };
}

function card(children: Node[]): Record<string, unknown> {
  return {
    RCSMessage: {
      trafficType: 'advertisement',
      openrichcardMessage: {
        card: 'open_rich_card',
        version: '1.0.0',
        zoomAllowed: true,
        scaleAllowed: true,
        layout: {
          widget: 'LinearLayout',
          width: 'match',
          height: 'content',
          orientation: 'vertical',
          children: [{ widget: 'LinearLayout', width: 'match', height: 'content', orientation: 'vertical', padding: '20dp', children }],
        },
      },
    },
  };
}

/** The header of the text forms: a left and a right title over a thick rule. */
function titleRow(left: string, right: string): Node[] {
  return [
    {
      widget: 'LinearLayout',
      width: 'match',
      height: 'content',
      orientation: 'horizontal',
      visibility: 'visible',
      children: [
        text(left, ['text'], { textStyle: 'bold', textAlignment: 'textStart', textSize: '19dp', weight: '1' }),
        text(right, ['text'], { textStyle: 'bold', textAlignment: 'textEnd', textColor: '#0094ff', textSize: '19dp', weight: '1', visibility: 'visible' }),
      ],
    },
    { widgetPolicy: { allowedAttributes: [] }, widget: 'View', width: 'match', height: '3dp', background: '#232323', visibility: 'visible', marginTop: '10dp', marginBottom: '12dp' },
  ];
}

const CELL_STYLE = ['text', 'textAlignment', 'textColor', 'textSize', 'textStyle'];

function cellRow(label: string, value: string): Node {
  return {
    widget: 'LinearLayout',
    width: 'match',
    height: 'content',
    orientation: 'horizontal',
    visibility: 'visible',
    children: [text(label, CELL_STYLE, { weight: 1, textAlignment: 'textStart' }), text(value, CELL_STYLE, { weight: 1, textAlignment: 'textEnd' })],
  };
}

const TEXT_POLICY: TemplatePolicyInfo = {
  cardCount: 1,
  maxTitleSize: 0,
  maxButtonCount: 2,
  maxDescriptionSize: 90,
  maxMediaSize: 0,
  buttonsAllowed: false,
  adHeaderAllowed: false,
  adBodyAllowed: true,
};

const TEXT_GUIDE = { maxLineCount: 0, maxDisplayText: 16, maxDescriptionSize: 90, imageWidth: '0', imageHeight: '0', detailInfo: null };

function param(p: Partial<TemplateParamInfo> & Pick<TemplateParamInfo, 'param' | 'type' | 'contentType'>): TemplateParamInfo {
  return { isMandatory: false, strSize: -1, fileSize: 0, strRegx: '', verification: [], imageWidth: 0, imageHeight: 0, couplingId: '', inputText: null, ...p };
}

/** A description text form: a title, a rule and one paragraph (v1, formattedString). */
const DESCRIPTION: MessagebaseForm = {
  messagebaseformId: 'TADS001A',
  formName: 'Description: notice',
  cardType: 'Description',
  bizCondition: ['all'],
  bizCategory: '일반',
  bizService: '안내',
  registerDate: DATE,
  updateDate: DATE,
  mediaUrl: [],
  productCode: 'tmplt',
  spec: 'openrichcard',
  guideInfo: TEXT_GUIDE,
  policyInfo: TEXT_POLICY,
  params: [],
  formattedString: card([...titleRow('Notice', ''), text('Write the notice here. {{1}}', ['text'])]),
};

/** A cell (style) form: a title and up to three label/value rows with optional lines between them. */
const CELL: MessagebaseForm = {
  messagebaseformId: 'TACL001C',
  formName: 'Cell: payment approved',
  cardType: 'Cell',
  bizCondition: ['all'],
  bizCategory: '금융',
  bizService: '승인',
  registerDate: DATE,
  updateDate: DATE,
  mediaUrl: [],
  productCode: 'tmplt',
  spec: 'openrichcard',
  guideInfo: TEXT_GUIDE,
  policyInfo: TEXT_POLICY,
  params: [],
  formattedString: card([
    ...titleRow('Approved', '{{amount}}'),
    {
      widget: 'LinearLayout',
      width: 'match',
      height: 'content',
      orientation: 'vertical',
      children: [cellRow('Date', '{{date}}'), line(['visibility'], 'gone'), cellRow('Card', '{{card}}'), line(['visibility'], 'gone'), cellRow('Amount', '{{amount}}')],
    },
  ]),
};

/** A title-free form: a fixed left title (8 characters, no variables), an optional right title, one paragraph. */
const TITLE_FREE: MessagebaseForm = {
  messagebaseformId: 'TAFR001D',
  formName: 'Title free: description',
  cardType: 'Description',
  bizCondition: ['all'],
  bizCategory: '타이틀 자유형',
  bizService: '타이틀 자유형',
  registerDate: DATE,
  updateDate: DATE,
  mediaUrl: [],
  productCode: 'tmplt',
  spec: 'openrichcard',
  guideInfo: TEXT_GUIDE,
  policyInfo: TEXT_POLICY,
  params: [],
  formattedString: card([...titleRow('Title', ''), text('Write the message here.', ['text'])]),
};

/** An image form (v2 only): a 900x560 image, a title, a description, up to two buttons. */
const IMAGE: MessagebaseForm = {
  messagebaseformId: 'ITHI001V',
  formName: 'Image: highlight, vertical',
  cardType: 'Highlighted Image',
  bizCondition: ['all'],
  bizCategory: null,
  bizService: null,
  registerDate: DATE,
  updateDate: DATE,
  mediaUrl: [],
  productCode: 'itmpl',
  spec: 'openrichcard',
  guideInfo: { maxLineCount: 0, maxDisplayText: 16, maxDescriptionSize: 150, imageWidth: '900', imageHeight: '560', detailInfo: null },
  policyInfo: { cardCount: 1, maxTitleSize: 30, maxButtonCount: 2, maxDescriptionSize: 500, maxMediaSize: 1048576, buttonsAllowed: false, adHeaderAllowed: true, adBodyAllowed: true },
  params: [
    param({ param: 'media', isMandatory: true, type: 'file', contentType: 'maapfile', fileSize: 1048576, imageWidth: 900, imageHeight: 560 }),
    param({ param: 'mediaUrl', type: 'string', contentType: 'url' }),
    param({ param: 'title', type: 'string', contentType: 'title', strSize: 30 }),
    param({ param: 'description', isMandatory: true, type: 'string', contentType: 'description', strSize: 150 }),
  ],
  formattedString: {
    RCSMessage: {
      trafficType: 'advertisement',
      openrichcardMessage: {
        card: 'open_rich_card',
        version: '1.0.0',
        layout: {
          widget: 'LinearLayout',
          width: 'match',
          height: 'content',
          orientation: 'vertical',
          children: [
            { widget: 'ImageView', width: 'match', height: 'content', scaleType: 'fitXY', mediaUrl: '{{media}}' },
            { widget: 'TextView', width: 'match', height: 'content', textStyle: 'bold', text: '{{title}}', textSize: '17dp' },
            { widget: 'TextView', width: 'match', height: 'content', text: '{{description}}', textSize: '16dp' },
          ],
        },
      },
    },
  },
};

/** Every form the emulator serves by default. */
export const TEMPLATE_FORMS: readonly MessagebaseForm[] = [DESCRIPTION, CELL, TITLE_FREE, IMAGE];

/** Logos the service offers for forms (GET …/messagebaseform/{id}/logo): one for each text form. */
export const FORM_LOGO_FILE_IDS = ['RBC-ICON-notice', 'RBC-ICON-payment'];
