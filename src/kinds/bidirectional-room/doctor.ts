// The bidirectional room kind's own doctor check: the bidirectional list answers
// rooms as rcsctl reads them, and a room with a bidirectional ID is not in the
// sender-number list (rcsctl reads it from the bidirectional list alone).

import type { DoctorCheck } from '../../core/doctor-check.js';
import type { DoctorEnv } from '../resource-kind.js';

const DOC = 'the public OpenAPI document, GET /brand/{brandId}/bidirectional/chatbot and GET /brand/{brandId}/chatbot';

type Room = { chatbotId?: unknown; service?: unknown; approvalResult?: unknown };

function resultOf(body: unknown): Room[] | undefined {
  const result = (body as { result?: unknown } | undefined)?.result;
  return Array.isArray(result) ? (result as Room[]) : undefined;
}

/** Reads both lists once (limit 1000) and compares them. */
export async function bidirectionalDoctor({ inspect, brand, base }: DoctorEnv): Promise<DoctorCheck[]> {
  const [bidi, rooms] = await Promise.all([inspect.get(`${base}/bidirectional/chatbot`, { query: { limit: 1000 }, brand }), inspect.get(`${base}/chatbot`, { query: { limit: 1000 }, brand })]);
  const title = 'the bidirectional room list';
  const assumed = 'GET …/bidirectional/chatbot lists rooms with chatbotId, service and approvalResult; a room with service chat is not in GET …/chatbot';
  if (bidi.error !== undefined) return [{ id: 'bidirectional-list', title, status: 'differs', assumed, said: `HTTP ${bidi.status}, ${bidi.error.code} ${bidi.error.message}`, doc: DOC, serviceCode: bidi.error.code }];
  const list = resultOf(bidi.body);
  const shaped = list?.every((r) => typeof r.chatbotId === 'string' && typeof r.service === 'string' && typeof r.approvalResult === 'string') === true;
  const chat = new Set((list ?? []).filter((r) => r.service === 'chat').map((r) => String(r.chatbotId)));
  const both = (resultOf(rooms.body) ?? []).filter((r) => chat.has(String(r.chatbotId))).map((r) => String(r.chatbotId));
  const status = shaped && both.length === 0 ? 'ok' : 'differs';
  const said = !shaped
    ? `HTTP ${bidi.status}, not a list of rooms in that shape`
    : both.length > 0
      ? `${both.length} room${both.length === 1 ? '' : 's'} with a bidirectional ID also in the sender-number list (${both.join(', ')}): the chatbot kind would see ${both.length === 1 ? 'it' : 'them'} too`
      : `HTTP ${bidi.status}, ${list?.length ?? 0} room${list?.length === 1 ? '' : 's'} (${chat.size} with a bidirectional ID), none in the sender-number list`;
  return [{ id: 'bidirectional-list', title, status, assumed, said, doc: DOC }];
}
