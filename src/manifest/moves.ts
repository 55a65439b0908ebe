// `moved:` declarations checked against the whole brand (every document, and
// what a base gives it): each address names a kind, `to` a resource the brand
// declares, `from` one it no longer declares; no address moves twice, and no
// move starts where another ends (a chain or a cycle). Plan applies them
// (src/plan/moves.ts).

import { DIAGNOSTIC_CODES, type DiagnosticCode } from './codes.js';
import type { DesiredBrand, DesiredMove, Diagnostic, SourceLocation } from './types.js';

/** What the checks need of a kind (the loader passes the registry: the building blocks know no kind). */
export interface MoveKind {
  readonly name: string;
  desired(brand: DesiredBrand): unknown[];
  readonly identity: { key(d: never): string };
}
type AnyKind = MoveKind;

/** The kind and key of `address` (`autoReply.welcome`), or undefined when no kind has that name. */
function parseAddress(KINDS: readonly MoveKind[], address: string): { kind: AnyKind; key: string } | undefined {
  const dot = address.indexOf('.');
  const kind = dot < 1 ? undefined : KINDS.find((k) => k.name === address.slice(0, dot));
  return kind === undefined ? undefined : { kind, key: address.slice(dot + 1) };
}

/** Whether the brand declares a resource at `kind.key`. */
function declares(brand: DesiredBrand, kind: AnyKind, key: string): boolean {
  return kind.desired(brand).some((d) => kind.identity.key(d as never) === key);
}

/** Diagnostics of the brand's `moved:` entries; none when it has none. */
export function checkMoves(brand: DesiredBrand, KINDS: readonly MoveKind[]): Diagnostic[] {
  const moves = brand.moved ?? [];
  if (moves.length === 0) return [];
  const out: Diagnostic[] = [];
  const at = (loc: SourceLocation, code: DiagnosticCode, message: string): void => {
    out.push({ code, severity: DIAGNOSTIC_CODES[code].severity, file: loc.file, line: loc.line, col: loc.col, path: loc.path, message });
  };
  const kindNames = KINDS.map((k) => k.name).join(', ');
  const valid: DesiredMove[] = [];
  for (const m of moves) {
    const from = parseAddress(KINDS, m.from);
    const to = parseAddress(KINDS, m.to);
    if (from === undefined) at(m.fromAt, 'RCS540', `moved from "${m.from}": no kind is named "${m.from.split('.')[0] ?? ''}" (kinds: ${kindNames})`);
    else if (to === undefined) at(m.toAt, 'RCS540', `moved to "${m.to}": no kind is named "${m.to.split('.')[0] ?? ''}" (kinds: ${kindNames})`);
    else if (from.kind !== to.kind) at(m.toAt, 'RCS540', `moved from "${m.from}" to "${m.to}": a resource keeps its kind; from and to must name the same one`);
    else if (m.from === m.to) at(m.toAt, 'RCS543', `moved from "${m.from}" to itself`);
    else valid.push(m);
  }
  const firstFrom = new Map<string, DesiredMove>();
  const firstTo = new Map<string, DesiredMove>();
  const where = (loc: SourceLocation): string => `${loc.file}:${loc.line}:${loc.col}`;
  const kept: DesiredMove[] = [];
  for (const m of valid) {
    const sameFrom = firstFrom.get(m.from);
    const sameTo = firstTo.get(m.to);
    if (sameFrom !== undefined) at(m.fromAt, 'RCS542', `"${m.from}" is moved twice (first at ${where(sameFrom.fromAt)}); one resource has one new address`);
    else if (sameTo !== undefined) at(m.toAt, 'RCS542', `"${m.to}" is the target of two moves (first at ${where(sameTo.toAt)}); two live resources cannot become one`);
    else {
      firstFrom.set(m.from, m);
      firstTo.set(m.to, m);
      kept.push(m);
    }
  }
  const chained = new Set<DesiredMove>();
  for (const m of kept) {
    const next = firstFrom.get(m.to);
    if (next !== undefined) {
      chained.add(m).add(next);
      const cycle = next.to === m.from;
      at(
        m.toAt,
        'RCS543',
        cycle
          ? `moves "${m.from}" → "${m.to}" and "${next.from}" → "${next.to}" (at ${where(next.fromAt)}) form a cycle`
          : `"${m.to}" is moved on again to "${next.to}" (at ${where(next.fromAt)}); write one move from "${m.from}" to "${next.to}"`,
      );
    }
  }
  for (const m of kept) {
    if (chained.has(m)) continue;
    const from = parseAddress(KINDS, m.from) as { kind: AnyKind; key: string };
    const to = parseAddress(KINDS, m.to) as { kind: AnyKind; key: string };
    if (!declares(brand, to.kind, to.key)) at(m.toAt, 'RCS541', `moved to "${m.to}": brand ${brand.brandId} declares no ${to.kind.name} "${to.key}"`);
    else if (declares(brand, from.kind, from.key)) at(m.fromAt, 'RCS544', `moved from "${m.from}", which brand ${brand.brandId} still declares; a move's from is the old address, gone from the manifests`);
  }
  return out;
}
