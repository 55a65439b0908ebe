// Bidirectional rooms: a room registered with a bidirectional ID (service
// chat), or a sender-number room converted by linking a bidirectional agency
// (docs/decisions.md, "Bidirectional rooms"). The list holds every room with a
// bidirectional ID, a room menu or a linked agency; the detail is the room's.

import { results, single } from './envelope.js';
import type { OperationLabel } from './errors.js';
import { brandPath, listAll, mapAll, seg } from './resource.js';
import { anyObject, arr, bool, num, obj, opt, str, unsetAsNull } from './shape.js';
import type { BrandRef, Transport } from './transport.js';
import type { BiChatbotInfo, ChatbotDetail, ChatbotListItem } from '../contract/wire.js';
import { ERRORS } from '../contract/codes.js';
import { chatbotListFields, readListItem, UNSET_LIST_FIELDS } from './chatbots.js';

/** Client methods for bidirectional rooms. */
export interface BidirectionalApi {
  /** Rooms with a bidirectional ID, a room menu or a linked bidirectional agency. */
  list(brand: BrandRef): AsyncIterable<ChatbotListItem>;
  /** One room in full, through the bidirectional endpoint. */
  get(brand: BrandRef, id: string): Promise<ChatbotDetail>;
  /** Register a room with a bidirectional ID, or convert a sender-number room; answers the room as the service keeps it (its chatbotId may differ from the one sent). A POST, never retried. */
  register(brand: BrandRef, info: BiChatbotInfo & { chatbotId: string; service: 'a2p' | 'chat' }): Promise<ChatbotListItem>;
  /** Change a room; `botAgencyId: ""` unlinks the agency (a converted room becomes a sender-number room again). */
  modify(brand: BrandRef, id: string, info: BiChatbotInfo): Promise<void>;
  /** Delete a room with a bidirectional ID, or unlink a converted room's agency (a sender-number room without one is deleted: callers check first). */
  delete(brand: BrandRef, id: string): Promise<void>;
}

// docs/decisions.md, "Bidirectional rooms": the list's and the answers' fields are the Chatbot's, groupId through updateId.
const listItem = obj(chatbotListFields);
const detail = obj({
  ...chatbotListFields,
  mediaUrl: opt(arr(anyObject)),
  rcsReply: opt(str),
  approvalReason: opt(str),
  webhook: opt(str),
  persistentMenu: opt(arr(obj({ type: str, title: str, ordNo: num }))),
});
const deleted = obj({ chatbotId: str });

function entity(id: string, name?: string): string {
  return name === undefined ? `bidirectional room ${id}` : `bidirectional room "${name}" (${id})`;
}

/** The bidirectional room methods over `transport`. */
export function bidirectionalApi(transport: Transport): BidirectionalApi {
  const path = (brand: BrandRef, id?: string): string => brandPath(brand, id === undefined ? '/bidirectional/chatbot' : `/bidirectional/chatbot/${seg(id)}`);
  return {
    list(brand) {
      return mapAll(listAll<ChatbotListItem>(transport, path(brand), listItem, { operation: 'list', entity: `bidirectional rooms of ${brand.id}` }, brand), readListItem);
    },
    async get(brand, id) {
      const label: OperationLabel = { operation: 'get', entity: entity(id) };
      const res = await transport.send({ method: 'GET', path: path(brand, id), brand, label });
      const d = unsetAsNull(single<ChatbotDetail>(res, detail, label), [...UNSET_LIST_FIELDS, 'approvalReason', 'webhook']);
      return { ...d, mediaUrl: d.mediaUrl ?? [], persistentMenu: d.persistentMenu ?? [] };
    },
    async register(brand, info) {
      const label: OperationLabel = { operation: info.service === 'a2p' ? 'convert' : 'register', entity: entity(info.chatbotId, info.subTitle) };
      // docs/decisions.md, "Bidirectional rooms": JSON `{chatbot: RegBiChatbot}`, answer `[BiChatbot]`.
      const res = await transport.send({ method: 'POST', path: path(brand), brand, label, json: { chatbot: info } });
      return readListItem(single<ChatbotListItem>(res, listItem, label));
    },
    async modify(brand, id, info) {
      const label: OperationLabel = { operation: 'update', entity: entity(id, info.subTitle) };
      const res = await transport.send({ method: 'PUT', path: path(brand, id), brand, label, json: { chatbot: info }, successAfterRetry: [ERRORS.noChanges.code] });
      if (res.acceptedCode === undefined) results(res, listItem, label);
    },
    async delete(brand, id) {
      const label: OperationLabel = { operation: 'delete', entity: entity(id) };
      const res = await transport.send({ method: 'DELETE', path: path(brand, id), brand, label, successAfterRetry: [ERRORS.invalidChatbotId.code, ERRORS.notBidirectional.code] });
      if (res.acceptedCode === undefined) results(res, deleted, label);
    },
  };
}
