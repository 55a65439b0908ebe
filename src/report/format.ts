// Value formatting shared by the drift renderers (as the plan shows values).

/** A value as shown in a report; `<ref:…>` placeholders read `(known after apply: …)`. */
export function formatValue(v: unknown): string {
  if (typeof v === 'string') {
    const ref = /^<ref:([A-Za-z]+):([^>]+)>$/.exec(v);
    if (ref) return `(known after apply: ${ref[1]}.${ref[2]})`;
    return JSON.stringify(v);
  }
  return JSON.stringify(v) ?? 'undefined';
}
