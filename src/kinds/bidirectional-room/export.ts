// Bidirectional rooms back to a manifest: a room with a bidirectional ID with
// its fields and its persistent menu, a converted sender-number room with its
// agency link (its menu is its room's, under chatbots:).

import type { ChatbotDetail } from '../../api/types.js';
import { exportedMenu } from '../chatbot/export.js';
import type { ExportContext, KindExporter } from '../resource-kind.js';

/** The `bidirectionalRooms:` section. */
export const bidirectionalExporter: KindExporter<ChatbotDetail> = {
  section: 'bidirectionalRooms',
  entries(rooms, ctx) {
    const out: Record<string, unknown> = {};
    for (const r of [...rooms].sort((a, b) => a.chatbotId.localeCompare(b.chatbotId))) out[r.chatbotId] = entry(r, ctx);
    return out;
  },
};

function entry(r: ChatbotDetail, ctx: ExportContext): Record<string, unknown> {
  if (r.service !== 'chat') return { botAgencyId: r.botAgencyId };
  const out: Record<string, unknown> = { subTitle: r.subTitle, subNum: r.subNum, display: r.display, inputField: r.inputField };
  if (r.subDescr !== null && r.subDescr !== '') out.subDescr = r.subDescr;
  out.saftyStatusYn = r.saftyStatusYn;
  if (r.botAgencyId !== null && r.botAgencyId !== '') out.botAgencyId = r.botAgencyId;
  // Its menu, as a sender-number room's is written (the persistent menu kind manages it from here).
  const menu = exportedMenu(r, ctx);
  if (menu !== undefined) out.persistentMenu = menu;
  return out;
}
