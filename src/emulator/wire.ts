// The emulator's own view of the shapes it stores and serves. Deliberately not
// the client's types (src/api/types.ts): each side has its own reading of the
// service, and the contract (src/contract) is what checks both of them.

/** A stored suggestion: the action or reply object as the request gave it (checked, postback kept). */
export interface StoredSuggestion {
  action?: Record<string, unknown> & { postback?: { data: string } };
  reply?: Record<string, unknown> & { autoReplyMsgId?: string; postback?: { data: string } };
}

/** A stored button group; `{}` is a card without buttons. */
export interface StoredButtonGroup {
  suggestions?: StoredSuggestion[];
}

/** A stored persistent menu item, postbackId assigned. */
export interface StoredMenuItem {
  postbackId?: string;
  upPostbackId?: string;
  type: string;
  title: string;
  ordNo: number;
  autoReplyMsgId?: string;
  feedId?: string;
  actionType?: string;
  action?: { dialerAction: { dialPhoneNumber: { phoneNumber: string; fallbackUrl?: string } } };
}

/** A layout component as served. */
export interface ServedLayoutComponent {
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
