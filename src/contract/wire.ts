// Wire shapes of the service: what the client (src/api) sends and reads and what
// the emulator (src/emulator) accepts, stores and serves. One reading of the
// service shared by both sides; what keeps it honest is the contract's JSON
// Schemas (schemas/service-contract.schema.json beside this file), which the
// test suite checks every exchange against, independently of these types.
// Field names are the service's own, spelling included (saftyStatusYn,
// releatedChatbots). Source: the service reference and the recorded
// assumptions; each section is marked where the shape comes from.

/** Service timestamp, e.g. `2026-11-21T10:00:00.000+09`. */
export type ServiceTime = string;

/** Success envelope of the management interface (the service reference, Common response envelope). */
export interface Envelope<T> {
  code: string;
  status: number;
  desc: string | null;
  result: T[];
}

/** List envelope: the success envelope plus pagination and links. */
export interface ListEnvelope<T> extends Envelope<T> {
  pagination: { total: number; offset: number; limit: number };
  links: { prev: string | null; next: string | null };
}

/** Error envelope of the management interface. */
export interface ErrorEnvelope {
  error: { code: string; message: string };
  status: number;
}

/** Agency messaging failure body (docs/decisions.md, "The emulator's agency messaging interface fills the reference's gaps as follows"). */
export interface AgencyErrorBody {
  code: string;
  message: string;
}

// ---------------------------------------------------------------- token -

/** POST /api/1.1/token request (docs/decisions.md, "Token issuance"). */
export interface TokenRequest {
  clientId: string;
  clientSecret: string;
}

/** POST /api/1.1/token answer, not enveloped; expiresIn is epoch seconds as a string. */
export interface TokenResponse {
  accessToken: string;
  expiresIn: string;
  userId: string;
  allowedIp: string[];
}

// ---------------------------------------------------------- buttons and chips

/** An RCS action (the service reference, Button and action structures). */
export interface Action {
  displayText?: string;
  postback?: { data?: string };
  urlAction?: { openUrl: { url: string } };
  localBrowserAction?: { openUrl: { url: string; isHalfView?: boolean; postParameter?: Record<string, unknown> } };
  mapAction?:
    | { showLocation: { location: { latitude: number; longitude: number; label?: string }; fallbackUrl?: string } }
    | { requestLocationPush: { currentLocation?: boolean } };
  calendarAction?: { createCalendarEvent: { startTime: string; endTime: string; title: string; description?: string; fallbackUrl?: string } };
  clipboardAction?: { copyToClipboard: { text: string } };
  composeAction?: { composeTextMessage: { phoneNumber: string; text: string } } | { composeRecordingMessage: { phoneNumber: string; type: 'AUDIO' | 'VIDEO' } };
  dialerAction?: { dialPhoneNumber: { phoneNumber: string; fallbackUrl?: string } };
}

/** A reply: a link to another auto-reply (with autoReplyMsgId), or a chatbot answer (without). */
export interface Reply {
  autoReplyMsgId?: string;
  displayText?: string;
  postback?: { data?: string };
}

/** One suggestion in a button group, or one chip: an action or a reply. */
export interface Suggestion {
  action?: Action;
  reply?: Reply;
}

/** A button group; `{}` stands for a card without buttons. */
export interface ButtonGroup {
  suggestions?: Suggestion[];
}

/** Message body fields; media fields hold an auto-reply file id. */
export type Body = Record<string, string>;

// ------------------------------------------------------------- auto-replies

/** Create and update request of an auto-reply. */
export interface AutoReplyRequest {
  autoReplyMsgName: string;
  messagebaseId: string;
  copyAllowed?: boolean;
  body: Body;
  buttons?: ButtonGroup[];
  chipList?: Suggestion[];
}

/** Auto-reply approvalResult values (the service reference, States and transitions). */
export type AutoReplyState = '등록완료' | '저장' | '처리중';

/** One item of the auto-reply list. */
export interface AutoReplyListItem {
  brandId: string;
  autoReplyMsgId: string;
  autoReplyMsgName: string;
  messagebaseId: string;
  approvalResult: AutoReplyState | string;
  registerDate: ServiceTime;
  updateDate: ServiceTime;
  registerId: string;
  updateId: string;
}

/** The auto-reply detail object. */
export interface AutoReplyDetail extends AutoReplyListItem {
  status: string;
  aprvRet: string;
  autoReplyMsgType: string;
  autoReplyMsgTypeNm: string;
  cardCount: number;
  copyAllowed: boolean;
  body: Body;
  buttons?: ButtonGroup[];
  chipList?: Suggestion[];
}

/** An auto-reply image file (upload result and file detail). */
export interface AutoReplyFile {
  fileId: string;
  url: string;
  fileName: string;
}

// -------------------------------------------------------------------- logos -

/** Logo approvalResult values (docs/decisions.md, "Logos"). */
export type ReviewState =
  | '저장'
  | '승인대기'
  | '검수시작'
  | '승인'
  | '반려'
  | '검수완료'
  | '승인대기(수정)'
  | '검수시작(수정)'
  | '반려(수정)'
  | '검수완료(수정)';

/** A brand logo (docs/decisions.md, "Logos"). */
export interface Logo {
  fileId: string;
  fileUrl: string;
  name: string;
  fileName: string;
  description: string | null;
  approvalResult: ReviewState | string;
  approvalReason: string | null;
  registerDate: ServiceTime;
  approvalDate: ServiceTime | null;
  updateDate: ServiceTime;
  registerId: string;
  updateId: string;
}

// ----------------------------------------------------------------- chatbots -

/** One item of a persistent menu as read back (docs/decisions.md, "Persistent menus"). */
export interface PersistentMenuItem {
  postbackId?: string;
  upPostbackId?: string;
  type: 'reply' | 'feed' | 'action' | 'menu' | string;
  title: string;
  ordNo: number;
  autoReplyMsgId?: string;
  feedId?: string;
  actionType?: string;
  action?: { dialerAction: { dialPhoneNumber: { phoneNumber: string; fallbackUrl?: string } } };
}

/** Chatbot list item: the Chatbot resource fields groupId through updateId. */
export interface ChatbotListItem {
  groupId: string | null;
  chatbotId: string;
  brandId: string;
  subNum: string;
  isMainNum: boolean;
  subTitle: string;
  service: 'a2p' | 'chat' | string;
  display: '11' | '10' | '01' | '00' | string;
  inputField: number;
  subDescr: string | null;
  botAgencyId: string | null;
  saftyStatusYn: 'Y' | 'N' | string;
  psMenuUse: boolean;
  approvalResult: ReviewState | string;
  registerDate: ServiceTime;
  approvalDate: ServiceTime | null;
  updateDate: ServiceTime;
  registerId: string;
  updateId: string;
}

/** Chatbot detail: every field of the Chatbot resource. */
export interface ChatbotDetail extends ChatbotListItem {
  mediaUrl: { fileId: string; url: string; typeName: string; fileName: string }[];
  rcsReply: '0' | '1' | string;
  approvalReason: string | null;
  status: string;
  searchWeight: string | null;
  webhook: string | null;
  botTcPage: string | null;
  persistentMenu: PersistentMenuItem[];
}

/** RegChatbotInfo and the `chatbot` part of an update (docs/decisions.md, "Rooms"). */
export interface ChatbotInfo {
  mdn: string;
  subNum?: string;
  subTitle: string;
  rcsReply?: '0' | '1';
  display?: '11' | '10' | '01' | '00';
  inputField?: 0 | 1;
  subDescr?: string;
  saftyStatusYn?: 'Y' | 'N';
}

/** DELETE chatbot result (the service's own spelling). */
export interface ChatbotDeleteResult {
  chatbotId: string;
  releatedChatbots: { chatbotId: string }[];
}

/**
 * A bidirectional room as sent: `{chatbot: ...}` of POST (RegBiChatbot: a room
 * with a bidirectional ID, or a sender-number room converted) and of PUT
 * (ModBiChatbot: no chatbotId or service; botAgencyId "" unlinks the agency).
 * docs/decisions.md, "Bidirectional rooms".
 */
export interface BiChatbotInfo {
  chatbotId?: string;
  service?: 'a2p' | 'chat';
  subNum?: string;
  subTitle?: string;
  display?: '11' | '10' | '01' | '00';
  inputField?: 0 | 1;
  botAgencyId?: string;
  subDescr?: string;
  saftyStatusYn?: 'Y' | 'N';
}

/** Persistent menu request item (docs/decisions.md, "Persistent menus"). */
export type PersistentMenuRequestItem = Omit<PersistentMenuItem, 'postbackId' | 'upPostbackId'>;

/** PUT .../persistentmenu/pause result. */
export interface MenuPauseResult {
  chatbotId: string;
  isPause: boolean;
  pausedDate?: ServiceTime;
  resumeDate?: ServiceTime;
}

// ------------------------------------------------------ layout and messagebases

/** Layout component (the service reference, Layout component). */
export interface LayoutComponent {
  componentId: string;
  componentName: string;
  iconImgFileUrl: string;
  status: string;
  headerYn: 'Y' | 'N';
  bodyYn: 'Y' | 'N';
  footerYn: 'Y' | 'N';
  options: Record<string, unknown> | null;
  groupComponentId: string | null;
}

/** The table options a layout may give a table component (TableOption). */
export interface LayoutTableOptions {
  leftAlign?: 'left' | 'right' | 'center';
  rightAlign?: 'left' | 'right' | 'center';
  leftTextStyle?: 'normal' | 'bold';
  rightTextStyle?: 'normal' | 'bold';
  /** Rows: 5 or 10 (the service lists some as the string `'5'`). */
  maxCount?: 5 | 10 | string;
}

/** A component placed in an area of a layout (LayoutComponent): registration sends no index, reading gives one. */
export interface LayoutComposition {
  index?: number;
  componentId: string;
  /** Table options, or a button's `{ color }` (ButtonOption); absent or null where the component takes none. */
  options?: Record<string, unknown> | null;
}

/** A layout registration or modification (RegBrandLayout). */
export interface LayoutRequest {
  layoutName: string;
  productCode: string;
  /** The sample it was built from, when it was. */
  sampleLayoutId?: string;
  headerComposition: LayoutComposition[];
  bodyComposition: LayoutComposition[];
  footerComposition: LayoutComposition[];
}

/**
 * A brand layout as its list gives it (BrandLayout). The public document names
 * the layout's own id and name `sampleLayoutId` and `sampleLayoutName` (their
 * descriptions say layout ID and layout name): docs/decisions.md, "Layouts".
 */
export interface LayoutListItem {
  sampleLayoutId: string;
  sampleLayoutName: string;
  productCode: string;
  /** ready (in use) or pause. */
  status: string;
  registerId: string | null;
  registerDate: ServiceTime;
  updateDate: ServiceTime;
  /** 등록완료 (registered with the carriers), 저장 (saved in the console only) or 처리중 (registration failed part-way: no change or delete). */
  approvalResult: string;
}

/** A brand layout in full (BrandLayoutDetail): a sample's detail, and the template parameters its texts use. */
export interface LayoutDetail extends SampleLayoutDetail {
  params?: TemplateParamInfo[];
}

/** A layout create, modify or delete answer: its id (also its messagebaseId), and on a modify the send body's fields. */
export interface LayoutIdResult {
  layoutId: string;
  body?: Record<string, string>;
}

/** The service's rule for the layouts of one message product (LayoutRule). */
export interface LayoutRule {
  productCode: string;
  /** Most components in the header and body together. */
  componentCount: number;
  componentMinCount: number;
  /** Most button components. */
  buttonCount: number;
  /** Most components of each component group. */
  componentLimit: Record<string, number>;
}

/**
 * A sample layout (SampleLayout): the same fields as a brand's layout in the list (the document names both ids
 * `sampleLayoutId`); its detail adds the areas and the openrichcard message.
 */
export type SampleLayout = LayoutListItem;

/** A sample layout in full (SampleLayoutDetail); a brand's layout in full adds its parameters (LayoutDetail). */
export interface SampleLayoutDetail extends SampleLayout {
  spec: string;
  /** formatBr for a brand's own layout. */
  cardType: string;
  buttonColor: string;
  headerComposition: LayoutComposition[];
  bodyComposition: LayoutComposition[];
  footerComposition: LayoutComposition[];
  /** The openrichcard message the components make (reference data). */
  formattedString?: Record<string, unknown>;
}

/** Common messagebase list item (docs/decisions.md, "Common messagebases"). */
export interface CommonMessagebase {
  messagebaseId: string;
  tmpltName: string;
  messagebaseformId: string;
  /** Always `common` (the public document's Messagebase.brandId). */
  brandId: 'common';
  productCode: string;
  status: string;
  approvalResult: string;
  /** The detail only (the public document's MessagebaseInfo): at least whether the messagebase takes advertising. */
  policyInfo?: Partial<TemplatePolicyInfo>;
}

// ------------------------------------------------------------ agency files

/** Agency message file info (the service reference, Agency message file). */
export interface AgencyFileInfo {
  fileId: string;
  usageType: string;
  mimeType: string;
  status: string;
  expiryDate: ServiceTime;
}

/** Agency file register and status answer. */
export interface AgencyFileResponse {
  status: string;
  data: { fileInfo: AgencyFileInfo };
}

// ------------------------------------------- templates (brand messagebases)
// The public OpenAPI document (MessagebaseForm, MessagebaseInfo, RegMessagebaseInfo,
// RegTemplateInfo, ModTemplateInfo, TemplateFileInfo); docs/decisions.md records
// what it leaves open.

/** Which attributes of a widget a template may change (the form's `widgetPolicy`). */
export interface WidgetPolicy {
  allowedAttributes: string[];
}

/** One input of a form (ParamInfo): what a v2 template body may set. */
export interface TemplateParamInfo {
  param: string;
  isMandatory: boolean;
  type: 'string' | 'file' | 'button' | 'layout' | string;
  contentType: string;
  /** Maximum length of a string value; 0 or less: unchecked. */
  strSize: number;
  fileSize: number | null;
  strRegx: string | null;
  verification: string[];
  imageWidth: number | null;
  imageHeight: number | null;
  couplingId: string | null;
  /** On a template's detail: the value the template set (assumed for file params: `maapfile://<fileId>`). */
  inputText?: string | null;
}

/** A form's limits (PolicyInfo). */
export interface TemplatePolicyInfo {
  cardCount: number;
  maxTitleSize: number;
  maxButtonCount: number;
  maxDescriptionSize: number;
  maxMediaSize: number;
  buttonsAllowed: boolean;
  adHeaderAllowed: boolean;
  adBodyAllowed: boolean;
}

/** A form's writing guide (GuideInfo). */
export interface TemplateGuideInfo {
  maxLineCount: number;
  maxDisplayText: number;
  maxDescriptionSize: number;
  imageWidth: string | number;
  imageHeight: string | number;
  detailInfo: unknown;
}

/** A template form list item (MessagebaseForm). */
export interface MessagebaseFormListItem {
  messagebaseformId: string;
  formName: string;
  cardType: string;
  bizCondition: string[];
  bizCategory: string | null;
  bizService: string | null;
  registerDate: ServiceTime;
  updateDate: ServiceTime;
}

/** A template form in full (MessagebaseFormInfo). */
export interface MessagebaseForm extends MessagebaseFormListItem {
  mediaUrl: unknown[];
  productCode: string;
  spec: string;
  guideInfo: TemplateGuideInfo;
  policyInfo: TemplatePolicyInfo;
  params: TemplateParamInfo[];
  formattedString: Record<string, unknown>;
}

/** A logo the service offers for a form (MessagebaseformLogo). */
export interface MessagebaseFormLogo {
  fileId: string;
  fileUrl: string;
  fileName: string;
}

/** A v2 body entry: a param's value (`maapfile://<fileId>` for a file param) or a line under a cell row. */
export type TemplateBodyItem = { param: string; value: string } | { lineIndex: number };

/** v2 buttons: one group per card. */
export interface TemplateButtonGroup {
  suggestions?: Suggestion[] | Record<string, unknown>[];
}

/** POST /brand/{brandId}/messagebase: one of `regMessagebases` (RegMessagebaseInfo). */
export interface TemplateV1Request {
  brandId: string;
  custTmpltId: string;
  messagebaseformId: string;
  tmpltName: string;
  agencyId?: string;
  formattedString: Record<string, unknown>;
}

/** POST /brand/{brandId}/v2/messagebase (RegTemplateInfo). */
export interface TemplateV2Request {
  brandId: string;
  custTmpltId: string;
  messagebaseformId: string;
  tmpltName: string;
  agencyId?: string;
  body: TemplateBodyItem[];
  buttons?: TemplateButtonGroup[];
}

/** POST /brand/{brandId}/v2/messagebase/{messagebaseId} (ModTemplateInfo). */
export type TemplateV2Modification = Omit<TemplateV2Request, 'custTmpltId' | 'messagebaseformId'> & { messagebaseformId?: string };

/** A brand template list item (Messagebase). */
export interface TemplateListItem {
  groupId: string | null;
  messagebaseId: string;
  tmpltName: string;
  messagebaseformId: string;
  brandId: string;
  status: 'ready' | 'pause' | string;
  approvalResult: ReviewState | string;
  approvalReason: string | null;
  registerDate: ServiceTime;
  approvalDate: ServiceTime | null;
  updateDate: ServiceTime;
  registerId: string;
  updateId: string | null;
}

/** A brand template in full (MessagebaseInfo), plus the assumed v2 fields `body` and `buttons`. */
export interface TemplateDetail extends TemplateListItem {
  productCode: string;
  spec: string;
  cardType: string;
  agencyId: string | null;
  inputText: string | null;
  attribute: string[];
  guideInfo: TemplateGuideInfo;
  policyInfo: TemplatePolicyInfo;
  params: TemplateParamInfo[];
  files?: TemplateFile[];
  formattedString: Record<string, unknown>;
  /** Assumed (docs/decisions.md): the user's id, which the document's ids embed (`U<brandId>-<custTmpltId>`). */
  custTmpltId?: string;
  /** Assumed (docs/decisions.md): the body and buttons a v2 template was registered with. */
  body?: TemplateBodyItem[];
  buttons?: TemplateButtonGroup[];
}

/** A template image file (TemplateFileInfo). */
export interface TemplateFile {
  fileId: string;
  url: string;
  fileName: string;
  imageWidth: number;
  imageHeight: number;
}

// ------------------------------------------------------------------- brands -

/** A home-screen button of the brand page (MenuItemInfo). */
export interface BrandMenuItem {
  buttonType: string;
  weblink?: string;
  applink?: { packageName: string; action: string; uri: string };
}

/** A brand image (a MediaUrl item). */
export interface BrandMedia {
  fileId: string;
  url: string;
  typeName: 'profile' | 'background' | 'icon' | string;
  fileName?: string;
}

/** A brand as the list gives it (BrandInfo). */
export interface BrandInfo {
  brandId: string;
  name: string;
  brandKey?: string;
  registerDate?: ServiceTime;
  approvalDate?: ServiceTime | null;
  updateDate?: ServiceTime;
  /** The brand state (저장, 승인대기, … 검수완료(수정)). */
  status: ReviewState | string;
  mediaUrl?: BrandMedia[];
  chatbotDate?: ServiceTime | null;
  messagebaseDate?: ServiceTime | null;
}

/** A brand's page (BrandDetail: BrandInfo and the page fields). */
export interface BrandDetail extends BrandInfo {
  description: string;
  tel: string;
  menus?: BrandMenuItem[];
  categoryId: string;
  categoryName?: string | null;
  subCategoryId: string;
  subCategoryName?: string | null;
  categoryOpt?: string | null;
  zipCode?: string | null;
  roadAddress?: string | null;
  detailAddress?: string | null;
  email?: string | null;
  webSiteUrl?: string | null;
  approvalReason?: string | null;
  brandFeedUrl?: string | null;
  initTab?: string | null;
  initFeedItem?: string | null;
  initFeedItems?: string[] | null;
  templateColor?: string | null;
  bizInfoYn?: string | null;
  bizInfoTitle?: string | null;
  bizInfoContent?: string | null;
}

/** The page fields sent in the regBrand part (RegBrandInfo.regBrand). */
export interface RegBrand {
  name: string;
  description: string;
  tel: string;
  menus?: BrandMenuItem[];
  categoryId: string;
  subCategoryId: string;
  categoryOpt?: string;
  zipCode?: string;
  roadAddress?: string;
  detailAddress?: string;
  email?: string;
  webSiteUrl?: string;
  initTab?: string;
  initFeedItem?: string;
  initFeedItems?: string[];
  templateColor?: string;
  bizInfoYn?: string;
  bizInfoTitle?: string;
  bizInfoContent?: string;
}

/** A brand category with its sub-categories (Category). */
export interface BrandCategory {
  categoryId: string;
  categoryName?: string;
  subCategories: { subCategoryId: string; subCategoryName?: string }[];
  updateDate?: ServiceTime;
}

/**
 * The types of the notifications the service sends (the `type` of a
 * notification's body): those the public OpenAPI document lists, and the
 * reference's `agencyKey`, as the service spells them.
 */
export const NOTIFICATION_TYPES = ['brand', 'chatbot', 'template', 'messagebaseform', 'format', 'autoreplymsg', 'logo', 'agencykey', 'contract', 'formatbr'] as const;

/** Who may operate a brand, as the privilege list gives it (PrivilegeInfo). */
export interface PrivilegeInfo {
  /** Manager: the representative; SubManager: an operator (a master or manager of the company); Agency: an agency operator. */
  privilegeType: 'Manager' | 'SubManager' | 'Agency';
  id: string;
  /** Ok; Processing while the carriers are told; Waiting: asked for in the console, granted by a POST naming it. */
  status: 'Ok' | 'Processing' | 'Waiting';
}

/** A privilege asked for (RegPrivilegeInfo): a grant (SubManager, Agency) or the representative handed over (Manager). */
export interface RegPrivilegeInfo {
  privilegeType: 'Manager' | 'SubManager' | 'Agency';
  id: string;
}
