// In-memory desired and live objects for the kind and planner unit tests: no
// network, no files on disk. Each builder fills what the service or the loader
// would, and takes overrides for what a test is about.

import { createHash } from 'node:crypto';
import type { AgencyFileInfo, AutoReplyDetail, AutoReplyFile, ChatbotDetail, Logo } from '../../src/api/types.js';
import { KINDS } from '../../src/kinds/index.js';
import type { PlanContext } from '../../src/kinds/resource-kind.js';
import type { DesiredAutoReply, DesiredChatbot, DesiredFile, DesiredLogo, DesiredTemplate } from '../../src/kinds/index.js';
import type { DesiredBrand, LocalFile, SourceLocation } from '../../src/manifest/types.js';
import { planContext } from '../../src/plan/build-plan.js';
import type { LiveBrand } from '../../src/plan/types.js';

export const BRAND = 'BR.demo000001';
export const SOURCE: SourceLocation = { file: 'brand.yaml', line: 1, col: 1, path: '/' };
const DATE = '2026-11-21T10:00:00.000+09';

/** A local file as the loader makes it: hashed, with its content-addressed upload name. */
export function localFile(relPath: string, content: string | Buffer): LocalFile {
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const base = relPath.split('/').pop() as string;
  const dot = base.lastIndexOf('.');
  const stem = base.slice(0, dot);
  const extension = base.slice(dot + 1).toLowerCase();
  return {
    absPath: `/manifests/${relPath}`,
    relPath,
    bytes,
    sha256,
    size: bytes.length,
    extension,
    mimeType: extension === 'png' ? 'image/png' : 'image/jpeg',
    uploadName: `${stem}-${sha256.slice(0, 12)}.${extension}`,
  };
}

/** A desired brand with nothing in it but what `parts` gives. */
export function desiredBrand(parts: {
  prune?: DesiredBrand['prune'];
  files?: DesiredFile[];
  autoReplies?: DesiredAutoReply[];
  logos?: DesiredLogo[];
  chatbots?: DesiredChatbot[];
  templates?: DesiredTemplate[];
} = {}): DesiredBrand {
  return {
    brandId: BRAND,
    prune: parts.prune ?? [],
    files: new Map((parts.files ?? []).map((f) => [f.handle, f])),
    autoReplies: new Map((parts.autoReplies ?? []).map((a) => [a.handle, a])),
    logos: new Map((parts.logos ?? []).map((l) => [l.handle, l])),
    chatbots: new Map((parts.chatbots ?? []).map((c) => [c.chatbotId, c])),
    agencyFiles: new Map(),
    templates: new Map((parts.templates ?? []).map((t) => [t.handle, t])),
    manifestFiles: ['brand.yaml'],
    source: SOURCE,
  };
}

/** A live brand holding what `parts` gives. */
export function liveBrand(parts: Partial<Omit<LiveBrand, 'files'>> & { files?: AutoReplyFile[] } = {}): LiveBrand {
  return {
    brandId: BRAND,
    autoReplies: parts.autoReplies ?? [],
    files: new Map((parts.files ?? []).map((f) => [f.fileId, f])),
    logos: parts.logos ?? [],
    chatbots: parts.chatbots ?? [],
    agencyFiles: parts.agencyFiles ?? new Map(),
    templates: parts.templates ?? { items: [], forms: new Map(), formIds: [] },
  };
}

/** The reference context the planner would build for this pair of brands. */
export function contextFor(brand: DesiredBrand, live: LiveBrand): PlanContext {
  return planContext(
    brand,
    live,
    KINDS.map((kind) => ({ kind, match: kind.diff.match(kind.desired(brand), kind.live(live), brand) })),
  );
}

/** A desired auto-reply. */
export function desiredAutoReply(handle: string, over: Partial<DesiredAutoReply> = {}): DesiredAutoReply {
  return { handle, name: handle, messagebaseId: 'SCS00000', body: { description: `about ${handle}` }, source: SOURCE, ...over };
}

/** A live auto-reply detail, with every server-owned field filled. */
export function liveAutoReply(id: string, over: Partial<AutoReplyDetail> = {}): AutoReplyDetail {
  return {
    brandId: BRAND,
    autoReplyMsgId: id,
    autoReplyMsgName: id,
    messagebaseId: 'SCS00000',
    approvalResult: '등록완료',
    registerDate: DATE,
    updateDate: DATE,
    registerId: 'master',
    updateId: 'master',
    status: 'ACTIVE',
    aprvRet: 'OK',
    autoReplyMsgType: 'SCL',
    autoReplyMsgTypeNm: '말풍선',
    cardCount: 0,
    copyAllowed: true,
    body: { description: `about ${id}` },
    ...over,
  };
}

/** A live room detail. */
export function liveChatbot(chatbotId: string, over: Partial<ChatbotDetail> = {}): ChatbotDetail {
  return {
    groupId: null,
    chatbotId,
    brandId: BRAND,
    subNum: chatbotId,
    isMainNum: true,
    subTitle: 'Coffee Co',
    service: 'a2p',
    display: '01',
    inputField: 1,
    subDescr: null,
    botAgencyId: null,
    saftyStatusYn: 'Y',
    psMenuUse: false,
    approvalResult: '승인',
    registerDate: DATE,
    approvalDate: DATE,
    updateDate: DATE,
    registerId: 'master',
    updateId: 'master',
    mediaUrl: [],
    rcsReply: '1',
    approvalReason: null,
    status: 'published',
    searchWeight: null,
    webhook: null,
    botTcPage: null,
    persistentMenu: [],
    ...over,
  } as ChatbotDetail;
}

/** A desired room. */
export function desiredChatbot(chatbotId: string, over: Partial<DesiredChatbot> = {}): DesiredChatbot {
  return { chatbotId, source: SOURCE, ...over };
}

/** A live logo. */
export function liveLogo(fileId: string, over: Partial<Logo> = {}): Logo {
  return {
    fileId,
    fileUrl: `https://files.example/${fileId}`,
    name: 'Main logo',
    fileName: 'logo.png',
    description: null,
    approvalResult: '승인',
    approvalReason: null,
    registerDate: DATE,
    approvalDate: DATE,
    updateDate: DATE,
    registerId: 'master',
    updateId: 'master',
    ...over,
  };
}

/** A live agency file. */
export function liveAgencyFile(fileId: string, over: Partial<AgencyFileInfo> = {}): AgencyFileInfo {
  return { fileId, usageType: 'send', mimeType: 'image/png', status: 'ready', expiryDate: DATE, ...over };
}
