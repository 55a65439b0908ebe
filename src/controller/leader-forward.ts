// A standby passes the notifications it receives to its shard's leader, at
// the webhook URL the leader recorded with its lease, so that the leader acts
// on them now rather than at its next resync. Marked as forwarded by a standby
// (FORWARDED_HEADER: `standby`), they are never forwarded again: a leader URL
// that names a standby (a Service in front of every replica, say) cannot make
// a loop. A forward that fails is not lost either: the standby keeps nothing
// to send, but it resyncs every brand when it comes to lead, and the leader
// resyncs at its --interval.

import type { Log } from './log.js';
import type { Notification } from './notifications.js';
import { DEFAULT_FORWARD_TIMEOUT_MS, FORWARDED_HEADER } from './peers.js';

/** The FORWARDED_HEADER value of a standby's forward to its leader. */
export const STANDBY_VIA = 'standby';

/** Post `list` to the leader's webhook, trying twice; never throws. */
export async function forwardToLeader(url: string, list: Notification[], opts: { token: string; log: Log; timeoutMs?: number }): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS;
  let last = '';
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${opts.token}`, 'content-type': 'application/json', [FORWARDED_HEADER]: STANDBY_VIA },
        body: JSON.stringify(list),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.arrayBuffer();
      if (res.status === 200) {
        opts.log('info', 'notification.to_leader', { url, notifications: list.length });
        return;
      }
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : err instanceof Error ? err.message : String(err);
    }
    if (attempt === 1) await new Promise((r) => setTimeout(r, 250));
  }
  opts.log('warn', 'notification.to_leader_failed', { url, notifications: list.length, message: last, then: 'this replica resyncs every brand when it comes to lead; the leader resyncs at its --interval' });
}
