// Chatbots (conversation rooms), by sender number and by bidirectional ID
// (the service reference, Chatbot update and Bidirectional chatbot list;
// docs/decisions.md, "Rooms").

import { results, single } from './envelope.js';
import type { OperationLabel } from './errors.js';
import { appendFile, appendJson, brandPath, listAll, mapAll, newForm, seg, type UploadFile } from './resource.js';
import { any, anyObject, arr, bool, num, obj, opt, str, unsetAsNull } from './shape.js';
import type { BrandRef, Transport } from './transport.js';
import type { ChatbotDeleteResult, ChatbotDetail, ChatbotInfo, ChatbotListItem } from '../contract/wire.js';
import { ERRORS } from '../contract/codes.js';

/** Client methods for chatbots. */
export interface ChatbotsApi {
  /** Every room of the brand (list items). */
  list(brand: BrandRef): AsyncIterable<ChatbotListItem>;
  /** One room in full, persistent menu included. */
  get(brand: BrandRef, id: string): Promise<ChatbotDetail>;
  /** Rooms with a bidirectional ID, a menu or a linked agency. */
  listBidirectional(brand: BrandRef): AsyncIterable<ChatbotListItem>;
  /** One room through the bidirectional endpoint. */
  getBidirectional(brand: BrandRef, id: string): Promise<ChatbotDetail>;
  /** Register rooms (1 to 1000) with the subscription certificate; a POST, never retried. */
  create(brand: BrandRef, chatbots: ChatbotInfo[], certificate: UploadFile): Promise<ChatbotDetail[]>;
  /** Update a room; answers the updated room (read back when a retry met 64323). */
  update(brand: BrandRef, id: string, info: ChatbotInfo, certificate?: UploadFile): Promise<ChatbotDetail>;
  /** Delete a room. */
  delete(brand: BrandRef, id: string): Promise<ChatbotDeleteResult>;
  /** Withdraw a pending approval request. */
  cancel(brand: BrandRef, id: string): Promise<void>;
}

// docs/decisions.md, "Rooms": Chatbot objects, fields groupId through updateId (the bidirectional list's too).
export const chatbotListFields = {
  groupId: opt(str),
  chatbotId: str,
  brandId: str,
  subNum: opt(str),
  isMainNum: opt(bool),
  subTitle: str,
  service: str,
  display: str,
  inputField: num,
  subDescr: opt(str),
  botAgencyId: opt(str),
  saftyStatusYn: str,
  psMenuUse: opt(bool),
  approvalResult: str,
  registerDate: opt(str),
  approvalDate: opt(str),
  updateDate: opt(str),
  registerId: opt(str),
  updateId: opt(str),
};
const listItem = obj(chatbotListFields);

// docs/decisions.md, "Rooms": detail with every field of the Chatbot resource.
const detail = obj({
  ...chatbotListFields,
  mediaUrl: opt(arr(anyObject)),
  rcsReply: opt(str),
  approvalReason: opt(str),
  status: opt(str),
  searchWeight: opt(str),
  webhook: opt(str),
  botTcPage: opt(str),
  persistentMenu: opt(arr(obj({ type: str, title: str, ordNo: num, postbackId: opt(str) }))),
});

// docs/decisions.md, "Rooms": DELETE answers `[{chatbotId, releatedChatbots}]` (their spelling).
const deleteResult = obj({ chatbotId: str, releatedChatbots: opt(arr(obj({ chatbotId: str }))) });

function entity(id: string, name?: string): string {
  return name === undefined ? `chatbot ${id}` : `chatbot "${name}" (${id})`;
}

/** The chatbot methods over `transport`. */
export function chatbotsApi(transport: Transport): ChatbotsApi {
  const getAt = async (brand: BrandRef, path: string, id: string): Promise<ChatbotDetail> => {
    const label: OperationLabel = { operation: 'get', entity: entity(id) };
    const res = await transport.send({ method: 'GET', path, brand, label });
    return normaliseDetail(single<ChatbotDetail>(res, detail, label));
  };
  return {
    list(brand) {
      return mapAll(listAll<ChatbotListItem>(transport, brandPath(brand, '/chatbot'), listItem, { operation: 'list', entity: `chatbots of ${brand.id}` }, brand), readListItem);
    },
    get(brand, id) {
      return getAt(brand, brandPath(brand, `/chatbot/${seg(id)}`), id);
    },
    listBidirectional(brand) {
      return mapAll(
        listAll<ChatbotListItem>(transport, brandPath(brand, '/bidirectional/chatbot'), listItem, { operation: 'list', entity: `bidirectional chatbots of ${brand.id}` }, brand),
        readListItem,
      );
    },
    getBidirectional(brand, id) {
      return getAt(brand, brandPath(brand, `/bidirectional/chatbot/${seg(id)}`), id);
    },
    async create(brand, chatbots, certificate) {
      const first = chatbots[0];
      const label: OperationLabel = {
        operation: 'create',
        entity: chatbots.length === 1 && first !== undefined ? entity(first.mdn, first.subTitle) : `${chatbots.length} chatbots`,
      };
      const res = await transport.send({
        method: 'POST',
        path: brandPath(brand, '/chatbot'),
        brand,
        label,
        form: () => {
          const form = newForm();
          appendFile(form, 'subNumCertificate', certificate);
          // docs/decisions.md, "Rooms": part `chatbots` holds JSON `{chatbots:[RegChatbotInfo...]}`.
          appendJson(form, 'chatbots', { chatbots });
          return form;
        },
      });
      return results<ChatbotDetail>(res, detail, label).map(normaliseDetail);
    },
    async update(brand, id, info, certificate) {
      const label: OperationLabel = { operation: 'update', entity: entity(id, info.subTitle) };
      const res = await transport.send({
        method: 'PUT',
        path: brandPath(brand, `/chatbot/${seg(id)}`),
        brand,
        label,
        successAfterRetry: [ERRORS.noChanges.code],
        form: () => {
          const form = newForm();
          // the service reference, Chatbot update: part `chatbot` is JSON text.
          appendJson(form, 'chatbot', info);
          if (certificate !== undefined) appendFile(form, 'subNumCertificate', certificate);
          return form;
        },
      });
      if (res.acceptedCode !== undefined) return getAt(brand, brandPath(brand, `/chatbot/${seg(id)}`), id);
      return normaliseDetail(single<ChatbotDetail>(res, detail, label));
    },
    async delete(brand, id) {
      const label: OperationLabel = { operation: 'delete', entity: entity(id) };
      const res = await transport.send({
        method: 'DELETE',
        path: brandPath(brand, `/chatbot/${seg(id)}`),
        brand,
        label,
        successAfterRetry: [ERRORS.invalidChatbotId.code],
      });
      if (res.acceptedCode !== undefined) return { chatbotId: id, releatedChatbots: [] };
      const out = single<ChatbotDeleteResult>(res, deleteResult, label);
      return { chatbotId: out.chatbotId, releatedChatbots: out.releatedChatbots ?? [] };
    },
    async cancel(brand, id) {
      const label: OperationLabel = { operation: 'cancel approval of', entity: entity(id) };
      const res = await transport.send({ method: 'PUT', path: brandPath(brand, `/chatbot/${seg(id)}/cancel`), brand, label });
      results(res, any, label);
    },
  };
}

/** Room list fields that may hold no value (read as null whether absent, null or ""); the bidirectional routes' rooms too. */
export const UNSET_LIST_FIELDS = ['groupId', 'subDescr', 'botAgencyId', 'approvalDate'] as const;

/** A room of a list (or an answer that gives a list item), its fields without a value null. */
export function readListItem(l: ChatbotListItem): ChatbotListItem {
  return unsetAsNull(l, UNSET_LIST_FIELDS);
}

/** Lists the service may omit become empty lists, and fields without a value null, so callers need not guard. */
function normaliseDetail(d: ChatbotDetail): ChatbotDetail {
  const read = unsetAsNull(d, [...UNSET_LIST_FIELDS, 'approvalReason', 'searchWeight', 'webhook', 'botTcPage']);
  return { ...read, mediaUrl: d.mediaUrl ?? [], persistentMenu: d.persistentMenu ?? [] };
}
