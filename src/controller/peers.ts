// Forwarding notifications between shards. A Kubernetes Service hands each
// webhook request to one pod, and a pod serves only its shard's brands; with
// `--shard-peers` a pod that receives a notification for another shard's brand
// posts it on to the pod that owns it. Forwarding is a shortcut, never needed
// for correctness: the owner's periodic resync catches whatever is lost.

import { RcsctlError } from '../errors.js';
import { shardLabel, shardOf, type Shard } from '../plan/shard.js';
import type { Log } from './log.js';
import type { ControllerMetrics } from './metrics.js';
import type { Notification } from './notifications.js';

/** The header that marks a forwarded request: its notifications are never forwarded again. */
export const FORWARDED_HEADER = 'x-rcsctl-forwarded';

/** How long one forward may take (default): a slow peer costs nothing but the forward. */
export const DEFAULT_FORWARD_TIMEOUT_MS = 2_000;

/** What `forward` made of one body's notifications for other shards. */
export interface Forwarder {
  /** Post each notification to the replica of its brand's shard, in the background. */
  forward(notifications: Notification[]): void;
  /** Wait for the forwards in flight (each bounded by its timeout). */
  close(): Promise<void>;
}

/**
 * The webhook URL of every shard, from a template whose `{shard}` is the
 * 1-based shard index (as the StatefulSet's pods are numbered). Throws E_USAGE
 * when there is no shard, no `{shard}`, or an expansion is not an http(s) URL.
 */
export function peerUrls(template: string, shard: Shard | undefined): Map<number, string> {
  if (shard === undefined) throw new RcsctlError('E_USAGE', '--shard-peers means something only with --shard');
  if (!template.includes('{shard}')) throw new RcsctlError('E_USAGE', `--shard-peers must contain {shard} (the 1-based shard index), like http://rcsctl-controller-{shard}.rcsctl-controller-shards:9464/webhook, not "${template}"`);
  const urls = new Map<number, string>();
  for (let i = 1; i <= shard.count; i++) {
    const text = template.replaceAll('{shard}', String(i));
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new RcsctlError('E_USAGE', `--shard-peers gives "${text}" for shard ${i}, which is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RcsctlError('E_USAGE', `--shard-peers must give http or https URLs, not "${text}"`);
    urls.set(i, url.href);
  }
  return urls;
}

/** A forwarder from shard `shard` to the replicas at `urls`, carrying the webhook's own bearer token. */
export function makeForwarder(urls: Map<number, string>, shard: Shard, token: string, log: Log, metrics: ControllerMetrics, timeoutMs = DEFAULT_FORWARD_TIMEOUT_MS): Forwarder {
  const inFlight = new Set<Promise<void>>();

  async function post(owner: number, list: Notification[]): Promise<void> {
    const url = urls.get(owner)!;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', [FORWARDED_HEADER]: shardLabel(shard) },
        body: JSON.stringify(list),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      metrics.forward('forwarded', list.length);
      log('info', 'notification.forwarded', { shard: `${owner}/${shard.count}`, notifications: list.length });
    } catch (err) {
      metrics.forward('failed', list.length);
      const message = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : err instanceof Error ? err.message : String(err);
      log('warn', 'notification.forward_failed', { shard: `${owner}/${shard.count}`, url, notifications: list.length, message, brands: [...new Set(list.map((n) => n.brandId))].slice(0, 20) });
    }
  }

  return {
    forward(notifications) {
      const byOwner = new Map<number, Notification[]>();
      for (const n of notifications) {
        const owner = shardOf(n.brandId!, shard.count);
        // Never to itself: its own brands are its own work.
        if (owner === shard.index) continue;
        const list = byOwner.get(owner) ?? [];
        list.push(n);
        byOwner.set(owner, list);
      }
      for (const [owner, list] of byOwner) {
        const p = post(owner, list).finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
    },
    async close() {
      await Promise.all([...inFlight]);
    },
  };
}
