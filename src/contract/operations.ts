// The operations rcsctl uses, each with the shapes of its request and answer
// named by definitions of schemas/service-contract.schema.json (beside this
// file). This table, not the TypeScript wire types, is what the test suite
// checks the client's requests and the emulator's answers against.

/** A multipart part: a text field, a file, or a JSON document sent as application/json. */
export type Part =
  | { kind: 'text'; required?: boolean; maxLength?: number }
  /** `emptyText`: the part may also come as a text part without a value (the brand background: the key alone removes it). */
  | { kind: 'file'; required?: boolean; emptyText?: boolean }
  | { kind: 'json'; required?: boolean; schema: string };

/** What a request carries. */
export type RequestShape = { kind: 'none' } | { kind: 'json'; schema: string } | { kind: 'multipart'; parts: Record<string, Part> };

/** What a success answer carries. */
export type AnswerShape =
  | { kind: 'envelope'; item: string }
  /** A result of zero or more items, without paging (a form's logos). */
  | { kind: 'envelope-items'; item: string }
  /** A list page; `links: false` for the one list the reference gives without links. */
  | { kind: 'list'; item: string; links?: false }
  /** A body the management envelope does not wrap (token, agency interface). */
  | { kind: 'raw'; schema: string }
  /** Whatever the result holds is not read (delete and cancel answers). */
  | { kind: 'envelope-any' };

/** One operation. */
export interface Operation {
  /** `family.verb`, e.g. `autoReply.create`: how a violation names it. */
  id: string;
  method: string;
  /** Path pattern; `:name` is one segment. */
  path: string;
  family: 'management' | 'agency';
  request: RequestShape;
  answer: AnswerShape;
}

const NONE: RequestShape = { kind: 'none' };
const BRAND = '/api/1.1/brand/:brandId';
const AR = `${BRAND}/autoreplymsg`;
const LOGO = `${BRAND}/logo`;
const ROOM = `${BRAND}/chatbot`;
const BIDI = `${BRAND}/bidirectional/chatbot`;
const MENU = `${BIDI}/:chatbotId/persistentmenu`;
const TEMPLATE = `${BRAND}/messagebase`;
const TEMPLATE_V2 = `${BRAND}/v2/messagebase`;
const FORM = '/api/1.1/messagebase/messagebaseform';
const CORP_BRAND = '/api/1.1/corp/brand';
const PERSON_BRAND = '/api/1.1/corp/:personId/brand';
const AGENCY_BRAND = '/api/1.1/agency/:agencyId/brand/:brandId';
const STATS = '/api/1.1/statQuery';
const LAYOUT = `${BRAND}/layout`;
const BASE_LAYOUT = '/api/1.1/baselayout';

const m = (id: string, method: string, path: string, request: RequestShape, answer: AnswerShape): Operation => ({ id, method, path, family: 'management', request, answer });
const json = (schema: string): RequestShape => ({ kind: 'json', schema });
const one = (item: string): AnswerShape => ({ kind: 'envelope', item });
const list = (item: string): AnswerShape => ({ kind: 'list', item });
/** The brand page parts (the public OpenAPI document's multipart form); registration adds its rooms and their certificate. */
const brandParts = (required: boolean): Record<string, Part> => ({
  regBrand: { kind: 'json', required, schema: 'regBrand' },
  brandProfile: { kind: 'file', required },
  brandBackground: { kind: 'file', emptyText: true },
  mainMdn: { kind: 'text', maxLength: 40 },
});
const registrationParts: Record<string, Part> = { ...brandParts(true), chatbots: { kind: 'json', schema: 'chatbotsPart' }, subNumCertificate: { kind: 'file' } };
const logoParts: Record<string, Part> = { name: { kind: 'text', required: true, maxLength: 30 }, description: { kind: 'text', maxLength: 100 }, file: { kind: 'file', required: true } };

/** Every operation of the contract. */
export const OPERATIONS: readonly Operation[] = [
  m('token.issue', 'POST', '/api/1.1/token', json('tokenRequest'), { kind: 'raw', schema: 'tokenAnswer' }),
  m('autoReply.list', 'GET', AR, NONE, list('autoReplyListItem')),
  m('autoReply.create', 'POST', AR, json('autoReplyRequest'), one('autoReplyIdResult')),
  m('autoReply.get', 'GET', `${AR}/:autoReplyMsgId`, NONE, one('autoReplyDetail')),
  m('autoReply.update', 'PUT', `${AR}/:autoReplyMsgId`, json('autoReplyRequest'), one('autoReplyIdResult')),
  m('autoReply.delete', 'DELETE', `${AR}/:autoReplyMsgId`, NONE, one('autoReplyIdResult')),
  m('autoReplyFile.upload', 'POST', `${AR}/file`, { kind: 'multipart', parts: { file: { kind: 'file', required: true } } }, one('autoReplyFile')),
  m('autoReplyFile.get', 'GET', `${AR}/file/:fileId`, NONE, one('autoReplyFile')),
  m('logo.list', 'GET', LOGO, NONE, list('logo')),
  m('logo.create', 'POST', LOGO, { kind: 'multipart', parts: logoParts }, one('logoIdResult')),
  m('logo.get', 'GET', `${LOGO}/:fileId`, NONE, one('logo')),
  m('logo.update', 'PUT', `${LOGO}/:fileId`, { kind: 'multipart', parts: { ...logoParts, file: { kind: 'file' } } }, one('logoIdResult')),
  m('logo.delete', 'DELETE', `${LOGO}/:fileId`, NONE, one('logoIdResult')),
  m('logo.cancel', 'PUT', `${LOGO}/:fileId/cancel`, NONE, { kind: 'envelope-any' }),
  m('chatbot.list', 'GET', ROOM, NONE, list('chatbotListItem')),
  m(
    'chatbot.create',
    'POST',
    ROOM,
    { kind: 'multipart', parts: { subNumCertificate: { kind: 'file', required: true }, chatbots: { kind: 'json', required: true, schema: 'chatbotsPart' } } },
    one('chatbotDetail'),
  ),
  m('chatbot.get', 'GET', `${ROOM}/:chatbotId`, NONE, one('chatbotDetail')),
  m(
    'chatbot.update',
    'PUT',
    `${ROOM}/:chatbotId`,
    { kind: 'multipart', parts: { subNumCertificate: { kind: 'file' }, chatbot: { kind: 'json', required: true, schema: 'regChatbotInfo' } } },
    one('chatbotDetail'),
  ),
  m('chatbot.delete', 'DELETE', `${ROOM}/:chatbotId`, NONE, one('chatbotDeleteResult')),
  m('chatbot.cancel', 'PUT', `${ROOM}/:chatbotId/cancel`, NONE, { kind: 'envelope-any' }),
  m('chatbot.listBidirectional', 'GET', BIDI, NONE, list('chatbotListItem')),
  m('chatbot.getBidirectional', 'GET', `${BIDI}/:chatbotId`, NONE, one('chatbotDetail')),
  // Bidirectional rooms: register one with a bidirectional ID, or convert a sender-number room (docs/decisions.md, "Bidirectional rooms").
  m('bidirectional.register', 'POST', BIDI, json('biChatbotRegistration'), one('chatbotListItem')),
  m('bidirectional.modify', 'PUT', `${BIDI}/:chatbotId`, json('biChatbotModification'), one('chatbotListItem')),
  m('bidirectional.delete', 'DELETE', `${BIDI}/:chatbotId`, NONE, one('chatbotIdResult')),
  m('menu.create', 'POST', MENU, json('menuRequest'), one('chatbotIdResult')),
  m('menu.replace', 'PUT', MENU, json('menuRequest'), one('chatbotIdResult')),
  m('menu.delete', 'DELETE', MENU, NONE, one('chatbotIdResult')),
  m('menu.pause', 'PUT', `${MENU}/pause`, json('pauseRequest'), one('pauseResult')),
  // Statistics: a day a row (startDate, endDate, and chatbotId or groupId in the query); read-only.
  m('stats.persistentMenu', 'GET', `${STATS}/persistentMenu/:brandId`, NONE, { kind: 'envelope-items', item: 'persistentMenuStat' }),
  m('stats.message', 'GET', `${STATS}/message/:brandId`, NONE, { kind: 'envelope-items', item: 'messageStat' }),
  m('stats.messageButton', 'GET', `${STATS}/messageButton/:brandId`, NONE, { kind: 'envelope-items', item: 'messageButtonStat' }),
  m('messagebase.listCommon', 'GET', '/api/1.1/messagebase/common', NONE, list('commonMessagebase')),
  m('messagebase.getCommon', 'GET', '/api/1.1/messagebase/common/:messagebaseId', NONE, one('commonMessagebase')),
  m('template.list', 'GET', TEMPLATE, NONE, list('templateListItem')),
  m('template.registerText', 'POST', TEMPLATE, json('templateV1Registration'), one('templateIdResult')),
  m('template.get', 'GET', `${TEMPLATE}/:messagebaseId`, NONE, one('templateDetail')),
  m('template.modifyText', 'PUT', `${TEMPLATE}/:messagebaseId`, json('templateV1Item'), one('templateIdResult')),
  m('template.delete', 'DELETE', `${TEMPLATE}/:messagebaseId`, NONE, one('templateIdResult')),
  m('template.cancel', 'PUT', `${TEMPLATE}/:messagebaseId/cancel`, NONE, one('templateIdResult')),
  m('template.register', 'POST', TEMPLATE_V2, json('templateV2Request'), one('templateIdResult')),
  // The reference names POST for a v2 modification, the public document PUT; rcsctl sends POST, the emulator serves both.
  m('template.modify', 'POST', `${TEMPLATE_V2}/:messagebaseId`, json('templateV2Modification'), one('templateIdResult')),
  m('template.modifyPut', 'PUT', `${TEMPLATE_V2}/:messagebaseId`, json('templateV2Modification'), one('templateIdResult')),
  m('templateFile.upload', 'POST', `${TEMPLATE_V2}/file`, { kind: 'multipart', parts: { file: { kind: 'file', required: true } } }, one('templateFile')),
  m('templateFile.get', 'GET', `${TEMPLATE_V2}/file/:fileId`, NONE, one('templateFile')),
  m('templateForm.list', 'GET', FORM, NONE, list('messagebaseFormListItem')),
  m('templateForm.get', 'GET', `${FORM}/:messagebaseformId`, NONE, one('messagebaseForm')),
  m('templateForm.logos', 'GET', `${FORM}/:messagebaseformId/logo`, NONE, { kind: 'envelope-items', item: 'messagebaseFormLogo' }),
  m('brand.categories', 'GET', `${CORP_BRAND}/categories`, NONE, { kind: 'envelope-items', item: 'brandCategory' }),
  m('brand.register', 'POST', CORP_BRAND, { kind: 'multipart', parts: registrationParts }, one('brandIdResult')),
  m('brand.resubmit', 'PUT', `${CORP_BRAND}/:brandId`, { kind: 'multipart', parts: registrationParts }, one('brandIdResult')),
  m('brand.deleteNew', 'DELETE', `${CORP_BRAND}/:brandId`, NONE, one('brandIdResult')),
  m('brand.cancelNew', 'PUT', `${CORP_BRAND}/:brandId/cancel`, NONE, one('brandIdResult')),
  m('brand.list', 'GET', PERSON_BRAND, NONE, list('brandInfo')),
  m('brand.get', 'GET', `${PERSON_BRAND}/:brandId`, NONE, one('brandDetail')),
  m('brand.modify', 'PUT', `${PERSON_BRAND}/:brandId`, { kind: 'multipart', parts: brandParts(false) }, one('brandDetail')),
  m('brand.delete', 'DELETE', `${PERSON_BRAND}/:brandId`, NONE, one('brandIdResult')),
  m('brand.cancel', 'PUT', `${PERSON_BRAND}/:brandId/cancel`, NONE, one('brandIdResult')),
  // Who may operate the brand (docs/decisions.md, "Privileges"): the list, a grant, the representative's delegation, a removal.
  m('privilege.list', 'GET', `${PERSON_BRAND}/:brandId/privilege`, NONE, { kind: 'envelope-items', item: 'privilegeInfo' }),
  m('privilege.grant', 'POST', `${PERSON_BRAND}/:brandId/privilege`, json('privilegeGrant'), { kind: 'envelope-items', item: 'privilegeInfo' }),
  m('privilege.delegate', 'PUT', `${PERSON_BRAND}/:brandId/privilege`, json('privilegeDelegation'), { kind: 'envelope-items', item: 'privilegeInfo' }),
  m('privilege.revoke', 'DELETE', `${PERSON_BRAND}/:brandId/privilege/:id`, NONE, { kind: 'envelope-items', item: 'privilegeInfo' }),
  m('brand.agencyGet', 'GET', AGENCY_BRAND, NONE, one('brandDetail')),
  m('brand.agencyModify', 'PUT', AGENCY_BRAND, { kind: 'multipart', parts: brandParts(false) }, one('brandDetail')),
  // The reference gives this list result and pagination only, no links.
  m('layoutComponent.list', 'GET', '/api/1.1/baselayout/component', NONE, { kind: 'list', item: 'layoutComponent', links: false }),
  // Layouts (the public OpenAPI document, SINCE v1.1.10): the product rules and samples are service-wide, the layouts a brand's.
  m('layoutRule.list', 'GET', `${BASE_LAYOUT}/product/rule`, NONE, { kind: 'envelope-items', item: 'layoutRule' }),
  m('layoutSample.list', 'GET', `${BASE_LAYOUT}/sample`, NONE, list('sampleLayout')),
  m('layoutSample.get', 'GET', `${BASE_LAYOUT}/sample/:sampleLayoutId`, NONE, one('sampleLayoutDetail')),
  m('layout.list', 'GET', LAYOUT, NONE, list('layoutListItem')),
  m('layout.create', 'POST', LAYOUT, json('layoutRequest'), one('layoutIdResult')),
  m('layout.get', 'GET', `${LAYOUT}/:layoutId`, NONE, one('layoutDetail')),
  m('layout.update', 'PUT', `${LAYOUT}/:layoutId`, json('layoutRequest'), one('layoutIdResult')),
  m('layout.delete', 'DELETE', `${LAYOUT}/:layoutId`, NONE, one('layoutIdResult')),
  {
    id: 'agencyFile.register',
    method: 'POST',
    path: '/ag/1.2/file',
    family: 'agency',
    request: {
      kind: 'multipart',
      parts: {
        fileId: { kind: 'text', required: true, maxLength: 64 },
        usageType: { kind: 'text', required: true, maxLength: 10 },
        mimeType: { kind: 'text', required: true },
        file: { kind: 'file', required: true },
        messagebaseId: { kind: 'text', maxLength: 40 },
      },
    },
    answer: { kind: 'raw', schema: 'agencyFileAnswer' },
  },
  { id: 'message.send', method: 'POST', path: '/ag/1.2/message', family: 'agency', request: json('messageSendRequest'), answer: { kind: 'raw', schema: 'messageSendAnswer' } },
  { id: 'agencyFile.get', method: 'GET', path: '/ag/1.2/file/:fileId', family: 'agency', request: NONE, answer: { kind: 'raw', schema: 'agencyFileAnswer' } },
];

/** The operation a method and path belong to; static segments win over parameters. */
export function findOperation(method: string, path: string): Operation | undefined {
  const segs = path.split('/').filter(Boolean);
  let best: { op: Operation; score: number } | undefined;
  for (const op of OPERATIONS) {
    if (op.method !== method) continue;
    const parts = op.path.split('/').filter(Boolean);
    if (parts.length !== segs.length) continue;
    let score = 0;
    const fits = parts.every((p, i) => {
      if (p.startsWith(':')) return true;
      score++;
      return p === segs[i];
    });
    if (fits && (best === undefined || score > best.score)) best = { op, score };
  }
  return best?.op;
}
