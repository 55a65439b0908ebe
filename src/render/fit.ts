// Markdown within a size budget, for a pull-request comment (issue 38): the
// parts (a plan, a drift report) give their heads (a verdict, the one table of
// the brands that change, fail or drifted) and their blocks (one collapsed
// <details> per brand); heads go first, then blocks while they fit, then one
// line naming what was left out and where the full report is. Every unit is
// whole Markdown (a block closes its own <details> and fences), so a cut never
// falls inside a construct.

import { inline } from '../util/markdown.js';

/**
 * The default budget, in bytes of UTF-8: GitHub refuses a comment over 65,536
 * characters (a character is at least one byte), and GitLab's limit is larger;
 * 60,000 leaves the recipes room for their marker and links.
 */
export const DEFAULT_MAX_BYTES = 60_000;

/** The smallest budget `--max-bytes` takes: the heads' verdicts and the left-out line must fit. */
export const MIN_MAX_BYTES = 2_000;

/** A whole piece of Markdown, kept or left out as one. */
export interface Unit {
  lines: string[];
  /** What it is, for the left-out line (`the plan of BR.x`); a head's table row names its brand. */
  label?: string;
  /** How many brands a block details (brands with the same plan share one): 1 when absent. */
  brands?: number;
  /**
   * The same block as an opening, whole items and a closing: when `lines` does
   * not fit, the opening, the items that fit, a line counting the others and
   * the closing are kept instead (a brand of 2,000 drifted resources shows some).
   */
  parts?: { open: string[]; items: string[][]; close: string[] };
}

/** One report in the comment: its head units, shown first, and its detail blocks. */
export interface Part {
  /** `plan`, `drift`: names the left-out counts. */
  name: string;
  head: Unit[];
  blocks: Unit[];
}

export interface FitOptions {
  maxBytes?: number;
  /** Where the full report is: a URL (linked) or the name of a CI artifact (shown as code). */
  fullReport?: string;
  /** Said when no `fullReport` is given. */
  fullReportDefault: string;
}

const bytes = (lines: string[]): number => lines.reduce((n, l) => n + Buffer.byteLength(l, 'utf8') + 1, 0);

/** The parts as Markdown, at most `maxBytes` bytes when that is at least MIN_MAX_BYTES. */
export function fitMarkdown(parts: Part[], foot: string[], opts: FitOptions): string {
  const max = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const room = max - bytes(leftOutLines(parts.map((p) => ({ name: p.name, rows: p.head.length, blocks: p.blocks.length })), opts)) - bytes(foot);
  // Heads are sized first, so that the blocks of the first part cannot crowd out the head of the next;
  // each part is then written whole: its head, then its blocks.
  const kept: string[][][] = parts.map(() => []);
  const left = parts.map((p) => ({ name: p.name, rows: 0, blocks: 0, heads: [] as string[][] }));
  let size = 0;
  const fits = (lines: string[]): boolean => {
    const n = bytes(lines);
    if (size + n > room) return false;
    size += n;
    return true;
  };
  parts.forEach((p, i) => {
    for (const u of p.head) {
      if (fits(u.lines)) (left[i] as { heads: string[][] }).heads.push(u.lines);
      else (left[i] as { rows: number }).rows++;
    }
  });
  parts.forEach((p, i) => {
    for (const u of p.blocks) {
      if (fits(u.lines)) {
        (kept[i] as string[][]).push(u.lines);
        continue;
      }
      const some = u.parts === undefined ? [] : someOf(u.parts, room - size);
      if (some.length > 0 && fits(some)) (kept[i] as string[][]).push(some);
      (left[i] as { blocks: number }).blocks += u.brands ?? 1;
    }
  });
  const out = parts.flatMap((_, i) => [...(left[i]?.heads ?? []), ...(kept[i] ?? [])].flat());
  if (left.some((l) => l.rows > 0 || l.blocks > 0)) out.push(...leftOutLines(left, opts, max));
  out.push(...foot);
  return out.join('\n') + '\n';
}

/** The opening, the items that fit in `room` bytes, a line counting the rest, the closing; none when not one item fits. */
function someOf(p: NonNullable<Unit['parts']>, room: number): string[] {
  const tail = (n: number) => ['', `_${n} more left out here (in the full report, below)._`, ...p.close];
  let lines = [...p.open];
  let size = bytes(lines) + bytes(tail(p.items.length));
  let kept = 0;
  for (const item of p.items) {
    const n = bytes(item);
    if (size + n > room) break;
    lines = lines.concat(item);
    size += n;
    kept++;
  }
  return kept === 0 ? [] : [...lines, ...tail(p.items.length - kept)];
}

/** `_Left out to fit 60000 bytes: the details of 12 brands' plans. The full report: …_` */
function leftOutLines(left: { name: string; rows: number; blocks: number }[], opts: FitOptions, max = opts.maxBytes ?? DEFAULT_MAX_BYTES): string[] {
  const what = left
    .flatMap((l) => [
      ...(l.rows > 0 ? [`${l.rows} line${l.rows === 1 ? '' : 's'} of the ${l.name} summary`] : []),
      ...(l.blocks > 0 ? [`the ${l.name} details of ${l.blocks} brand${l.blocks === 1 ? '' : 's'} (in part or whole)`] : []),
    ])
    .join(', ');
  const full = opts.fullReport === undefined ? opts.fullReportDefault : /^https?:\/\//.test(opts.fullReport) ? `[${inline(opts.fullReport)}](${opts.fullReport.replace(/[()\s<>]/g, encodeURIComponent)})` : `\`${opts.fullReport.replace(/[`\r\n]/g, '')}\``;
  return ['', `> [!NOTE]`, `> **Left out to keep this comment within ${max} bytes:** ${what || 'nothing'}. The full report: ${full}.`];
}
