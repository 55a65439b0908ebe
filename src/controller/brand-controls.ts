// An operator's hand on the switch: per brand suspend and resume, sync now,
// and the sync windows. A pass asks `gate` whether it may apply; a brand that
// may not is still observed (read, planned, its state reported), and /status
// says why: suspended (by the configuration file, which survives a restart, or
// through the API, for the life of the process), or held by a sync window
// (until when). When a window that held a brand lifts, `tick` asks for its
// pass. The clock is given, so windows are tested without waiting.

import type { SuspendDecl } from './config.js';
import { brandMatches, type SyncWindows, type WindowVerdict } from './sync-windows.js';

/** How a brand came to be suspended, as /status shows it. */
export interface Suspension {
  /** `config`: declared in the configuration file (survives a restart); `api`: POST /brands/{id}/suspend (for the life of the process). */
  by: 'config' | 'api';
  reason?: string;
  since: string;
}

/** What /status adds to a brand about its controls. */
export interface ControlView {
  suspended?: Suspension;
  /** The sync window that keeps the brand from applying now, and until when. */
  syncWindow?: NonNullable<WindowVerdict['held']> & { manualSync: boolean };
}

/** Whether a pass may apply, and why not. */
export interface Gate {
  apply: boolean;
  why?: string;
  /** The pass was asked for through the API (sync now). */
  manual: boolean;
}

/** What a sync-now request met. */
export type SyncAnswer = { accepted: true; applies: boolean; why?: string } | { accepted: false; why: string; until?: string };

/** The suspensions, the sync windows and the pending manual syncs of every brand. */
export class BrandControls {
  private readonly byApi = new Map<string, Suspension>();
  /** Brands the configuration file suspends that the API resumed (until a restart). */
  private readonly resumed = new Set<string>();
  private readonly manual = new Set<string>();
  /** Brands whose last pass a window kept from applying: `tick` passes them again when it lifts. */
  private readonly heldByWindow = new Set<string>();

  constructor(
    private readonly declared: readonly SuspendDecl[],
    private readonly windows: SyncWindows,
    private readonly now: () => Date,
    private readonly startedAt: string,
  ) {}

  /** The brand's suspension, if any. */
  suspension(brandId: string): Suspension | undefined {
    const api = this.byApi.get(brandId);
    if (api !== undefined) return api;
    if (this.resumed.has(brandId)) return undefined;
    const d = this.declared.find((s) => brandMatches([s.brand], brandId));
    return d === undefined ? undefined : { by: 'config', ...(d.reason !== undefined ? { reason: d.reason } : {}), since: this.startedAt };
  }

  /** Suspend through the API; false when it already was. */
  suspend(brandId: string, reason: string | undefined): boolean {
    if (this.suspension(brandId) !== undefined) return false;
    this.resumed.delete(brandId);
    this.byApi.set(brandId, { by: 'api', ...(reason !== undefined && reason !== '' ? { reason } : {}), since: this.now().toISOString() });
    return true;
  }

  /** Resume through the API (one the file declared stays resumed until a restart); false when it was not suspended. */
  resume(brandId: string): boolean {
    if (this.suspension(brandId) === undefined) return false;
    this.byApi.delete(brandId);
    if (this.declared.some((s) => brandMatches([s.brand], brandId))) this.resumed.add(brandId);
    return true;
  }

  /** Sync now: accepted (its pass will apply, or say why not), or refused by a window that allows no manual sync. */
  requestSync(brandId: string, applyMode: boolean): SyncAnswer {
    const s = this.suspension(brandId);
    const v = this.windows.verdict(brandId, this.now());
    if (applyMode && s === undefined && !v.applies && !v.manual) return { accepted: false, why: `${windowWhy(v)}, and the window allows no manual sync`, ...(v.held?.until !== undefined ? { until: v.held.until } : {}) };
    this.manual.add(brandId);
    if (!applyMode) return { accepted: true, applies: false, why: 'observe mode' };
    return s !== undefined ? { accepted: true, applies: false, why: suspendedWhy(s) } : { accepted: true, applies: true };
  }

  /** Whether the pass starting now may apply; takes a pending sync-now request. */
  gate(brandId: string): Gate {
    const manual = this.manual.delete(brandId);
    const s = this.suspension(brandId);
    if (s !== undefined) return { apply: false, why: suspendedWhy(s), manual };
    const v = this.windows.verdict(brandId, this.now());
    if (v.applies || (manual && v.manual)) {
      this.heldByWindow.delete(brandId);
      return { apply: true, manual };
    }
    this.heldByWindow.add(brandId);
    return { apply: false, why: windowWhy(v), manual };
  }

  /** What /status shows of the brand's controls now. */
  view(brandId: string): ControlView {
    const s = this.suspension(brandId);
    const v = this.windows.verdict(brandId, this.now());
    return { ...(s !== undefined ? { suspended: s } : {}), ...(v.held !== undefined ? { syncWindow: { ...v.held, manualSync: v.manual } } : {}) };
  }

  /** The brands a window held whose windows have lifted (each asked for once); call it every little while. */
  lifted(): string[] {
    const now = this.now();
    const out = [...this.heldByWindow].filter((id) => this.windows.verdict(id, now).applies);
    for (const id of out) this.heldByWindow.delete(id);
    return out;
  }

  /** A brand left the manifests. */
  forget(brandId: string): void {
    this.byApi.delete(brandId);
    this.resumed.delete(brandId);
    this.manual.delete(brandId);
    this.heldByWindow.delete(brandId);
  }

  /** Of `brands`, how many are suspended and how many a window holds now (rcsctl_brands_suspended, rcsctl_brands_held_by_window). */
  counts(brands: Iterable<string>): { suspended: number; held: number } {
    const now = this.now();
    let suspended = 0;
    let held = 0;
    for (const id of brands) {
      if (this.suspension(id) !== undefined) suspended++;
      else if (!this.windows.verdict(id, now).applies) held++;
    }
    return { suspended, held };
  }

  /** Windows open now, by kind. */
  openWindows(): { allow: number; deny: number } {
    return this.windows.open(this.now());
  }
}

function suspendedWhy(s: Suspension): string {
  return `suspended (${s.by === 'config' ? 'by the configuration file' : 'through the API'}${s.reason !== undefined ? `: ${s.reason}` : ''}): observed, nothing is applied`;
}

function windowWhy(v: WindowVerdict): string {
  const h = v.held!;
  return h.kind === 'deny'
    ? `inside the sync window ${h.window} until ${h.until ?? '?'}: observed, nothing is applied`
    : `outside every allow window (the next, ${h.window}, opens ${h.until ?? 'never'}): observed, nothing is applied`;
}
