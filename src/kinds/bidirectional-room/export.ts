// Bidirectional rooms back to a manifest: a room with a bidirectional ID with
// its fields, a converted sender-number room with its agency link.

import type { ChatbotDetail } from '../../api/types.js';
import type { KindExporter } from '../resource-kind.js';

/** The `bidirectionalRooms:` section. */
export const bidirectionalExporter: KindExporter<ChatbotDetail> = {
  section: 'bidirectionalRooms',
  entries(rooms) {
    const out: Record<string, unknown> = {};
    for (const r of [...rooms].sort((a, b) => a.chatbotId.localeCompare(b.chatbotId))) out[r.chatbotId] = entry(r);
    return out;
  },
};

function entry(r: ChatbotDetail): Record<string, unknown> {
  if (r.service !== 'chat') return { botAgencyId: r.botAgencyId };
  const out: Record<string, unknown> = { subTitle: r.subTitle, subNum: r.subNum, display: r.display, inputField: r.inputField };
  if (r.subDescr !== null && r.subDescr !== '') out.subDescr = r.subDescr;
  out.saftyStatusYn = r.saftyStatusYn;
  if (r.botAgencyId !== null && r.botAgencyId !== '') out.botAgencyId = r.botAgencyId;
  return out;
}
