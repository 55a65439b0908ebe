// Leader and standby: the replicas of one shard share a lock backend (a
// PostgreSQL lock URL), and each shard has a leader lease there, an advisory
// lock on a key of the normalised endpoint and the shard (src/apply/pg-lock.ts).
// The replica that holds it leads: it runs the passes. The others are hot
// standbys: listening, ready, answering /status, sending nothing to the
// service; they try the lease every few seconds, so one takes over within
// seconds of the leader's death (kill -9 included: the lease ends with the
// leader's database connection), and a notification that reaches a standby is
// forwarded to the leader's webhook URL (recorded with the lease), and in any
// case the standby resyncs every brand when it comes to lead.
//
// A leader whose lease connection dies stops at once: every pass it runs is
// aborted through `signal` (no step starts after it), and it becomes a
// standby that reconnects and tries again.
//
// Without a lock URL there is no election: the replica leads alone (`sole`),
// as before; lock files only hold on one machine.

import { holderHere } from '../apply/lock-backend.js';
import type { LockHolder } from '../apply/lock.js';
import { openPgLockBackend, type PgLockBackend } from '../apply/pg-lock.js';
import { errorMessage } from '../errors.js';
import type { Log } from './log.js';

/** A replica's place: `leader`, `standby`, `sole` (no lock URL: no election) or `unknown` (not yet known, or the lock database is out of reach). */
export type LeaderState = 'leader' | 'standby' | 'sole' | 'unknown';

/** What /status shows of the election, and what the probes and metrics read. */
export interface LeadershipView {
  state: LeaderState;
  /** True once this replica knows its place (leader, standby or sole): what /readyz needs. */
  known: boolean;
  /** Since when it is in this state (ISO 8601). */
  since: string;
  /** The shard's lease (`i/n`, or `all`). */
  lease: string;
  /** The leader, as it recorded itself (standby: the other replica; leader: this one). */
  leader?: { host: string; pid: number; url?: string; since: string };
  /** Why the state is unknown: the lock database's last error (its URL without the password). */
  error?: string;
}

/** How to elect. */
export interface LeadershipOptions {
  /** The lock URL (postgres://…); undefined: no election (`sole`). */
  lockUrl?: string;
  /** The service's base URL (the lease is keyed on its normalised endpoint). */
  baseUrl: string;
  /** The shard's label (`i/n`), or undefined for the whole set. */
  shard?: string;
  /** Where this replica takes webhooks (a standby forwards to the leader's). */
  advertiseUrl: string;
  /** How often a standby tries the lease, and an unknown replica reconnects (default 3 s). */
  pollMs?: number;
  /** How often the lease's connection is checked (default 2 s). */
  heartbeatMs?: number;
  log: Log;
  /** Called when this replica comes to lead (resync everything) . */
  onLead: () => void;
}

/** One replica's part in its shard's election. */
export class Leadership {
  private state: LeaderState;
  private since = new Date().toISOString();
  private backend: PgLockBackend | undefined;
  private leaderSeen: LockHolder | undefined;
  private error: string | undefined;
  private leading = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private me: LockHolder;
  private readonly lease: string;

  constructor(private readonly options: LeadershipOptions) {
    this.state = options.lockUrl === undefined ? 'sole' : 'unknown';
    this.lease = options.shard ?? 'all';
    this.me = holderHere(this.lease, options.baseUrl, 'controller', { ...(options.shard !== undefined ? { shard: options.shard } : {}), url: options.advertiseUrl });
  }

  /** The first try: when it returns, the replica knows its place (or says why it cannot). */
  async start(): Promise<void> {
    if (this.state === 'sole') return;
    await this.tick();
  }

  /** True while this replica may run passes (leader, or sole). */
  get isLeading(): boolean {
    return this.state === 'leader' || this.state === 'sole';
  }

  /** Aborted when the lease is lost: passes started while leading stop after their steps in flight. */
  get signal(): AbortSignal {
    return this.leading.signal;
  }

  /** The backend the brand locks are taken in while leading (the lease's own connection), or undefined without a lock URL. */
  get lockBackend(): PgLockBackend | undefined {
    return this.backend;
  }

  /** The leader's webhook URL when another replica leads. */
  get leaderUrl(): string | undefined {
    return this.state === 'standby' ? this.leaderSeen?.url : undefined;
  }

  view(): LeadershipView {
    const l = this.state === 'leader' ? this.me : this.state === 'standby' ? this.leaderSeen : undefined;
    return {
      state: this.state,
      known: this.state !== 'unknown',
      since: this.since,
      lease: this.lease,
      ...(l !== undefined ? { leader: { host: l.host, pid: l.pid, ...(l.url !== undefined ? { url: l.url } : {}), since: l.startedAt } } : {}),
      ...(this.state === 'unknown' && this.error !== undefined ? { error: this.error } : {}),
    };
  }

  /** Give the lease up and disconnect (the controller stops, after its passes). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const b = this.backend;
    this.backend = undefined;
    await b?.close();
  }

  private schedule(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), this.options.pollMs ?? 3_000);
  }

  private become(state: LeaderState): void {
    if (this.state === state) return;
    const from = this.state;
    this.state = state;
    this.since = new Date().toISOString();
    const leader = this.leaderSeen;
    this.options.log(state === 'unknown' ? 'warn' : 'info', 'leadership', {
      from,
      to: state,
      lease: this.lease,
      ...(state === 'standby' && leader !== undefined ? { leader: `${leader.host} pid ${leader.pid}`, ...(leader.url !== undefined ? { leaderUrl: leader.url } : {}) } : {}),
      ...(state === 'unknown' && this.error !== undefined ? { error: this.error } : {}),
    });
    if (from === 'leader') this.leading.abort(new Error('the leader lease was lost'));
    if (state === 'leader') {
      this.leading = new AbortController();
      this.options.onLead();
    }
  }

  /** Connect when needed, try the lease, and learn the leader; then again in pollMs (not while leading: the lease holds until the connection ends). */
  private async tick(): Promise<void> {
    if (this.closed) return;
    try {
      const backend = this.backend ?? (await this.connect());
      if (this.closed) return;
      const me = { ...this.me, startedAt: new Date().toISOString() };
      if (await backend.tryLease(this.options.baseUrl, this.lease, me)) {
        this.me = me;
        this.become('leader');
        return;
      }
      this.leaderSeen = await backend.leaseHolder(this.options.baseUrl, this.lease);
      this.become('standby');
    } catch (err) {
      this.error = errorMessage(err);
      this.become('unknown');
    }
    this.schedule();
  }

  private async connect(): Promise<PgLockBackend> {
    const backend = await openPgLockBackend({ url: this.options.lockUrl!, command: 'controller', ...(this.options.heartbeatMs !== undefined ? { heartbeatMs: this.options.heartbeatMs } : {}) });
    this.backend = backend;
    backend.lost.addEventListener('abort', () => {
      if (this.backend === backend) this.backend = undefined;
      void backend.close();
      if (this.closed) return;
      this.error = errorMessage(backend.lost.reason);
      // Stop writing at once: the lease, and every brand lock, went with the connection.
      this.become('unknown');
      this.schedule();
    });
    return backend;
  }
}
