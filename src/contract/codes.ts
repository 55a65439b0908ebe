// The service's result and error codes, in one table shared by the client (to
// classify errors and to know which answers mean "already done") and the emulator
// (to produce them). Sources: the service reference (Errors, Authentication), the
// public document, and docs/decisions.md, "Error codes beyond the reference". No code is written as a literal
// anywhere else in src/ (test/contract/codes-scan.test.ts checks it).

/** Success code of the management envelope. */
export const SUCCESS_CODE = '20000000';

/** An empty list answered as HTTP 204 (docs/decisions.md, "Envelopes, errors and empty lists"). */
export const NO_CONTENT_CODE = '60004';

/** A documented management error: HTTP status, service code and message template. */
export interface ErrorDef {
  readonly http: number;
  readonly code: string;
  /** Message; `%s` is replaced by a detail (field name, limit) where the service does. */
  readonly message: string;
}

/**
 * Every management-interface error the reference names, those docs/decisions.md, "Envelopes, errors and empty lists" adds, and the
 * few the public OpenAPI document adds (64376, 64388-64390, 64397).
 */
export const ERRORS = {
  invalidToken: { http: 401, code: '61003', message: 'Invalid token' },
  tokenExpired: { http: 401, code: '61004', message: 'Token has expired' },
  invalidClientId: { http: 401, code: '61005', message: 'Invalid client id' },
  invalidSecret: { http: 401, code: '61006', message: 'Invalid secret key' },
  noBrandPermission: { http: 403, code: '63001', message: 'No Brand Permission' },
  missingBrandKey: { http: 400, code: '64001', message: 'Missing X-RCS-BrandKey header' },
  invalidBrandKey: { http: 400, code: '64002', message: 'Invalid Brand Key' },
  invalidChatbotId: { http: 400, code: '64105', message: 'Invalid chatbotId on path parameter' },
  invalidAutoReplyMsgId: { http: 400, code: '64108', message: 'Invalid autoReplyMsgId on path parameter' },
  invalidFileId: { http: 400, code: '64109', message: 'Invalid fileId on path parameter' },
  invalidMessagebaseId: { http: 400, code: '64106', message: 'Invalid messagebaseId on path parameter' },
  invalidMessagebaseformId: { http: 400, code: '64107', message: 'Invalid messagebaseformId on path parameter' },
  invalidQuery: { http: 400, code: '64202', message: 'Invalid query parameter value (%s)' },
  missingBody: { http: 400, code: '64301', message: 'Missing Body data' },
  invalidJson: { http: 400, code: '64302', message: 'Invalid JSON format' },
  invalidType: { http: 400, code: '64303', message: 'Invalid type of Attribute (%s)' },
  overSize: { http: 400, code: '64304', message: 'Over specified size (%s)' },
  missingCertificate: { http: 400, code: '64305', message: 'Missing Certification document' },
  missingMessagebaseformId: { http: 400, code: '64312', message: 'Missing messagebaseformId' },
  unknownMessagebaseformId: { http: 400, code: '64313', message: 'Invalid messagebaseformId' },
  missingTemplateName: { http: 400, code: '64314', message: 'Missing Template name' },
  missingBrandId: { http: 400, code: '64315', message: 'Missing brandId' },
  invalidBrandId: { http: 400, code: '64316', message: 'Invalid brandId' },
  invalidFormattedString: { http: 400, code: '64318', message: 'Invalid formattedString format' },
  duplicateMessagebaseId: { http: 400, code: '64320', message: 'Duplicate messagebaseId' },
  invalidApprovalStatus: { http: 400, code: '64321', message: 'Invalid approval status' },
  fileNotExist: { http: 400, code: '64322', message: 'File no exist' },
  noChanges: { http: 400, code: '64323', message: 'No changes' },
  invalidCustTmpltId: { http: 400, code: '64324', message: 'Invalid custTmpltId format' },
  notAllowedDelete: { http: 400, code: '64327', message: 'Not allowed delete' },
  notAllowedModification: { http: 400, code: '64328', message: 'Not allowed modification' },
  requiredValue: { http: 400, code: '64336', message: 'required value: [%s]' },
  notAllowedExtension: { http: 400, code: '64355', message: 'Not allowed file extension' },
  invalidBodyFormat: { http: 400, code: '64357', message: 'Invalid body format [%s]' },
  invalidButtonsFormat: { http: 400, code: '64358', message: 'Invalid buttons format [%s]' },
  invalidChipListFormat: { http: 400, code: '64359', message: 'Invalid chipList format [%s]' },
  autoReplyNotFound: { http: 400, code: '64375', message: 'AutoReplyMsgId not found' },
  // The public OpenAPI document's error list (messages in its own spelling).
  missingMenuTitle: { http: 400, code: '64376', message: 'Missing Menu Title' },
  menuNotUsed: { http: 400, code: '64388', message: 'This chatbot dose not using the persistentMenu' },
  invalidIsPause: { http: 400, code: '64389', message: 'Invalid isPause format' },
  agencyNotRelay: { http: 400, code: '64390', message: 'This agency dose not support relay' },
  requiredBodyField: { http: 400, code: '64397', message: 'required %s' },
  invalidBody: { http: 400, code: '64397', message: 'invalid body %s' },
  invalidMenuFormat: { http: 400, code: '64377', message: 'Invalid_menu_format [%s]' },
  // Bidirectional rooms (the public document's error list; docs/decisions.md, "Bidirectional rooms").
  chatbotSubNumMismatch: { http: 400, code: '64361', message: 'chatbotId does not match subNum' },
  subNumNotFound: { http: 400, code: '64362', message: 'subNum dose not found.' },
  botAgencyNotFound: { http: 400, code: '64363', message: 'botAgencyId dose not found.' },
  invalidInputField: { http: 400, code: '64364', message: 'Invalid inputField format' },
  chatbotIdDuplicated: { http: 400, code: '64366', message: 'chabotId is duplicated' },
  missingService: { http: 400, code: '64368', message: 'Missing service' },
  missingSubNum: { http: 400, code: '64370', message: 'Missing subNum' },
  missingBotAgencyId: { http: 400, code: '64371', message: 'Missing botAgencyId' },
  missingSubTitle: { http: 400, code: '64372', message: 'Missing subTitle' },
  invalidChatbotIdFormat: { http: 400, code: '64373', message: 'Invalid chatbotId format' },
  agencyWithoutChat: { http: 400, code: '64380', message: 'This Agency is not support chat service' },
  chatbotNotFound: { http: 400, code: '64383', message: 'chatbotId dose not found.' },
  notBidirectional: { http: 400, code: '64543', message: 'chatbotId is not a bidirectional chatbot' },
  fileTooLarge: { http: 400, code: '64395', message: 'file is up to 1Mb' },
  logoSize: { http: 400, code: '64606', message: 'only one size (300x300px) can be uploaded.' },
  tooManyLogos: { http: 400, code: '64607', message: 'The maximum number of logos allowed: %s' },
  // The brand routes (the public OpenAPI document's error list; docs/decisions.md, "The brand profile").
  noPermission: { http: 403, code: '63002', message: 'No Permission' },
  invalidBrandIdPath: { http: 400, code: '64101', message: 'Invalid brandId on path parameter' },
  invalidAgencyIdPath: { http: 400, code: '64102', message: 'Invalid agencyId on path parameter' },
  invalidPersonIdPath: { http: 400, code: '64104', message: 'Invalid personId on path parameter' },
  missingProfileImage: { http: 400, code: '64329', message: 'Missing profile image' },
  brandCreationDenied: { http: 400, code: '64330', message: 'brand creation permission denied' },
  brandImageTooLarge: { http: 400, code: '64331', message: 'brand Image File Capacity Overflow' },
  brandProfileOnlyPng: { http: 400, code: '64332', message: 'brand profile file is only png' },
  brandImageExtension: { http: 400, code: '64333', message: 'Not Allowed Brand Image File Extension' },
  brandImageSize: { http: 400, code: '64335', message: 'Brand Image File Image Size Error' },
  brandPropertyValue: { http: 400, code: '64337', message: 'Brand Creation Property Value Error' },
  brandPropertySize: { http: 400, code: '64339', message: 'Brand Creation Property Size Limit' },
  regBrandError: { http: 400, code: '64342', message: 'Brand Creation RegBrand Error' },
  brandChatbotsError: { http: 400, code: '64343', message: 'Brand Creation Chatbots Array Error' },
  invalidBrandStatus: { http: 400, code: '64345', message: 'invalid brand status' },
  userNotFound: { http: 400, code: '64346', message: 'user not found: %s' },
  // The privilege routes (docs/decisions.md, "Privileges"): a removal of an account without access, a grant of one that has it, a delegation to an account that is not a master.
  privilegeNotRegistered: { http: 400, code: '64347', message: '%s is not registered' },
  privilegeAlreadyRegistered: { http: 400, code: '64348', message: '%s is already registered' },
  privilegeNotQualified: { http: 400, code: '64349', message: '%s has not qualified' },
  brandNotEmpty: { http: 400, code: '64351', message: '%s exists. need to delete all %s before deleting the brand' },
  cannotDeleteSelf: { http: 400, code: '64352', message: 'can not delete yourself' },
  // An agency's access stays while a bidirectional room names it as its agency (docs/decisions.md, "Bidirectional rooms, what was left").
  agencyInBidirectionalRoom: { http: 400, code: '64393', message: 'Unable to delete agency privilege (agencyId is registered in the twoway chatbot)' },
  brandImageRatio: { http: 400, code: '64394', message: 'brand profile / background image must be 1:1 ratio' },
  // The layout routes (the public OpenAPI document's error list, its spelling; docs/decisions.md, "Layouts").
  invalidLayoutId: { http: 400, code: '64545', message: 'Invalid layoutId' },
  invalidProductCode: { http: 400, code: '64546', message: 'Invalid product code' },
  layoutBodyRequired: { http: 400, code: '64549', message: 'The bodyComposition is required.' },
  layoutOneHeader: { http: 400, code: '64550', message: 'Only one component is available for headerComposition.' },
  // The document's message names the component and the area (`%s component is not available for %s.`): the detail is that whole sentence.
  componentNotForArea: { http: 400, code: '64552', message: '%s' },
  invalidComponentId: { http: 400, code: '64600', message: 'Invalid componetId' },
  layoutOneFooter: { http: 400, code: '64601', message: 'Only one component is available for footerComposition.' },
  invalidSampleLayoutId: { http: 400, code: '64603', message: 'Invalid sampleLayoutId' },
  componentGroupClash: { http: 400, code: '64604', message: 'Different components that belong to the same groupComponentId cannot be used together.' },
  tooManyRequests: { http: 429, code: '69001', message: 'Too many requests' },
  internal: { http: 500, code: '69999', message: 'Internal error' },
} as const satisfies Record<string, ErrorDef>;

/** Name of a documented management error. */
export type ErrorName = keyof typeof ERRORS;

/**
 * Agency messaging failure codes: the reference gives the form, 4xxxx, and no
 * numbers, so every number here is chosen
 * (docs/decisions.md, "Codes of the agency messaging interface").
 * 400xx: a send or file rule the reference names (or one the emulator adds);
 * 410xx: a request the interface cannot read; 490xx: the interface itself
 * (unknown path, rate limit, fault).
 */
export const AGENCY_ERRORS = {
  unknownFile: { http: 400, code: '40001', message: 'Unknown or expired fileId' },
  noChatbotPermission: { http: 403, code: '40002', message: 'Agency has no permission on the chatbotId' },
  // The same condition as noChatbotPermission (no agency, no permission), said as it is: the agencyId names no agency.
  unknownAgency: { http: 403, code: '40002', message: 'Unknown agencyId' },
  agencyKeyMismatch: { http: 400, code: '40003', message: 'agencyKey mismatch' },
  brandKeyMismatch: { http: 400, code: '40004', message: 'brandKey mismatch' },
  productCodeMismatch: { http: 400, code: '40005', message: 'productCode mismatch' },
  restrictedMessagebase: { http: 400, code: '40006', message: 'messagebase restricted to other sender numbers' },
  headerWithoutFooter: { http: 400, code: '40007', message: 'advertising header without footer' },
  invalidVideo: { http: 400, code: '40008', message: 'invalid video URL or thumbnail' },
  logoFileMixup: { http: 400, code: '40009', message: 'logo-file mix-up' },
  fileAlreadyRegistered: { http: 400, code: '40010', message: 'fileId already registered' },
  imageSizeMismatch: { http: 400, code: '40011', message: 'image size does not fit the messagebase (%s)' },
  chipListOutsideBidirectional: { http: 400, code: '40012', message: 'chipList is allowed only in a bidirectional room' },
  invalidReplyId: { http: 400, code: '40013', message: 'replyId unknown, expired or of another room or handset' },
  replyOutsideSession: { http: 400, code: '40014', message: 'reply suggestions are allowed only in session messages (%s)' },
  roomCannotSend: { http: 400, code: '40015', message: 'chatbot cannot send messages in approval state %s' },
  roomNotOnBrandHome: { http: 400, code: '40016', message: 'chatbot is not shown on the brand home (display %s) and cannot send RCS messages' },
  advertisingRefused: { http: 400, code: '40017', message: 'messagebase does not allow advertising (header 1)' },
  templateNotApproved: { http: 400, code: '40018', message: 'template is not approved (%s)' },
  unknownMessagebase: { http: 400, code: '40019', message: 'unknown messagebaseId' },
  templateVariableMissing: { http: 400, code: '40020', message: 'template variable without a value (%s)' },
  advertisingBodyRefused: { http: 400, code: '40021', message: 'messagebase does not allow advertising text in the body (%s starts with "(광고)")' },
  // A request the interface cannot read: the management checks, renumbered (AGENCY_EQUIVALENTS).
  invalidRequest: { http: 400, code: '41000', message: 'Invalid request (%s)' },
  missingBody: { http: 400, code: '41001', message: 'Missing Body data' },
  invalidJson: { http: 400, code: '41002', message: 'Invalid JSON format' },
  invalidType: { http: 400, code: '41003', message: 'Invalid type of Attribute (%s)' },
  overSize: { http: 400, code: '41004', message: 'Over specified size (%s)' },
  requiredValue: { http: 400, code: '41005', message: 'required value: [%s]' },
  invalidButtonsFormat: { http: 400, code: '41006', message: 'Invalid buttons format [%s]' },
  invalidChipListFormat: { http: 400, code: '41007', message: 'Invalid chipList format [%s]' },
  notAllowedExtension: { http: 400, code: '41008', message: 'Not allowed file extension' },
  fileTooLarge: { http: 400, code: '41009', message: 'file is up to 1Mb' },
  // The interface itself.
  notFound: { http: 404, code: '49404', message: 'Not Found' },
  methodNotAllowed: { http: 405, code: '49405', message: 'Method Not Allowed' },
  tooManyRequests: { http: 429, code: '49429', message: 'Too many requests' },
  internal: { http: 500, code: '49500', message: 'Internal error' },
} as const satisfies Record<string, ErrorDef>;

/** Name of an agency messaging error. */
export type AgencyErrorName = keyof typeof AGENCY_ERRORS;

/** `error` of a msgstatus item that reports a failed delivery (the reference's sample code is 40000; the messages are the emulator's). */
export const DELIVERY_ERRORS = {
  failed: { code: '40000', message: 'Not delivered to the handset' },
  expired: { code: '40000', message: 'Not delivered within the expiryOption window' },
  autoReplyGone: { code: '40000', message: 'Auto-reply not found' },
} as const satisfies Record<string, { code: string; message: string }>;

/** Errors the emulator needs that the service documents nowhere (*chosen*, docs/emulator.md): unknown routes, body size, the admin API. */
export const EMULATOR_ERRORS = {
  notFound: { http: 404, code: '60404', message: 'Not Found' },
  methodNotAllowed: { http: 405, code: '60405', message: 'Method Not Allowed' },
  bodyTooLarge: { http: 413, code: '64304', message: 'Over specified size (%s)' },
  forbiddenAdmin: { http: 403, code: '60403', message: 'Admin API is loopback only' },
  badAdminRequest: { http: 400, code: '60400', message: 'Bad admin request (%s)' },
  adminNotFound: { http: 404, code: '60404', message: 'Not Found (%s)' },
  invalidTransition: { http: 409, code: '60409', message: 'Invalid transition (%s)' },
} as const satisfies Record<string, ErrorDef>;

/**
 * The agency error that stands for a management or emulator code on the agency
 * interface, which answers every failure with a 4xxxx code but a token's (the
 * reference's Authentication names 401 61003 for every request). A code not
 * listed becomes `invalidRequest`; the HTTP status stays the original's.
 */
export const AGENCY_EQUIVALENTS: Readonly<Record<string, AgencyErrorName>> = {
  [ERRORS.missingBody.code]: 'missingBody',
  [ERRORS.invalidJson.code]: 'invalidJson',
  [ERRORS.invalidType.code]: 'invalidType',
  [ERRORS.overSize.code]: 'overSize',
  [ERRORS.requiredValue.code]: 'requiredValue',
  [ERRORS.invalidButtonsFormat.code]: 'invalidButtonsFormat',
  [ERRORS.invalidChipListFormat.code]: 'invalidChipListFormat',
  [ERRORS.notAllowedExtension.code]: 'notAllowedExtension',
  [ERRORS.fileTooLarge.code]: 'fileTooLarge',
  [ERRORS.tooManyRequests.code]: 'tooManyRequests',
  [ERRORS.internal.code]: 'internal',
  [EMULATOR_ERRORS.notFound.code]: 'notFound',
  [EMULATOR_ERRORS.methodNotAllowed.code]: 'methodNotAllowed',
};

/** Codes the agency interface answers as they are: the token's (the reference's Authentication; 61004 as on the management side). */
export const AGENCY_AUTH_CODES: readonly string[] = [ERRORS.invalidToken.code, ERRORS.tokenExpired.code];

/** Fill a message template's `%s` with a detail. */
export function formatMessage(def: ErrorDef, detail?: string): string {
  return detail === undefined ? def.message.replace(' (%s)', '').replace('%s', '') : def.message.replaceAll('%s', detail);
}
