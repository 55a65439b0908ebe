// Service timestamps: ISO 8601 with milliseconds and an hour-only +09 offset.

const KST_OFFSET_MS = 9 * 60 * 60 * 1000;

/** Format a date as the service does: `2026-11-21T10:00:00.000+09`. */
export function formatServiceTime(date: Date): string {
  const shifted = new Date(date.getTime() + KST_OFFSET_MS);
  return shifted.toISOString().replace('Z', '+09');
}

/** Parse a service timestamp (`…+09`, or any ISO form) to a Date; NaN date if malformed. */
export function parseServiceTime(text: string): Date {
  const fixed = /[+-]\d\d$/.test(text) ? `${text}:00` : text;
  return new Date(fixed);
}

/** Midnight (00:00 in +09) of the day `days` after the +09 calendar day of `date`. */
export function kstMidnightAfter(date: Date, days: number): Date {
  const shifted = new Date(date.getTime() + KST_OFFSET_MS);
  const midnight = Date.UTC(shifted.getUTCFullYear(), shifted.getUTCMonth(), shifted.getUTCDate() + days);
  return new Date(midnight - KST_OFFSET_MS);
}
