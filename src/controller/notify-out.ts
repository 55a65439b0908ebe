// Notifications out: messages about brands' state changes sent to
// Slack-compatible incoming webhooks and generic JSON webhooks, as Argo CD
// Notifications and Flux's notification-controller send them. (Not to be
// confused with notifications.ts: the service's change notifications coming in.)

/** What a destination can be told about, one message per transition. */
export const NOTIFY_TRIGGERS = ['drifted', 'failed', 'recovered', 'review-completed', 'review-rejected', 'step-applied', 'review-late'] as const;

/** One of NOTIFY_TRIGGERS. */
export type NotifyTrigger = (typeof NOTIFY_TRIGGERS)[number];

/** A destination, read from the configuration file. */
export interface Destination {
  name: string;
  type: 'slack' | 'webhook';
  url: string;
  headers: Record<string, string>;
  triggers: ReadonlySet<NotifyTrigger>;
  /** Brand ids, `*` a wildcard. */
  brands: string[];
  template?: string;
}
