// What the controller's two pages share: escaping, the state colours, the
// stylesheet, times as people read them, and the Content-Security-Policy
// that lets a page run exactly its own inline script (by hash) and fetch only
// from the controller itself.

import { createHash } from 'node:crypto';

/** A colour per state (a state this list does not know is drawn in the ink colour). */
export const STATE_COLOURS: Record<string, string> = { 'in-sync': '#1a7f37', drifted: '#9a6700', 'waiting-review': '#0969da', blocked: '#8250df', failed: '#cf222e', reconciling: '#57606a', standby: '#57606a', suspended: '#6e7781' };

/** The order states sort in: the ones a person must look at first. */
export const STATE_ORDER = ['failed', 'blocked', 'drifted', 'waiting-review', 'reconciling', 'suspended', 'standby', 'in-sync'];

/** Text safe in HTML content and in a quoted attribute. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `3 brands`, `1 brand`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** How long ago `iso` was, as `42 s`, `5 min`, `3 h`, `2 d`. */
export function age(iso: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  return s < 60 ? `${s} s` : s < 3600 ? `${Math.floor(s / 60)} min` : s < 86_400 ? `${Math.floor(s / 3600)} h` : `${Math.floor(s / 86_400)} d`;
}

/** The CSP of a page whose only script is `script` (inline, allowed by its hash), which fetches from its own origin and frames only its own pages. */
export function pagePolicy(script: string, opts: { frames?: boolean } = {}): string {
  const hash = createHash('sha256').update(script).digest('base64');
  return [`default-src 'none'`, `style-src 'unsafe-inline'`, `script-src 'sha256-${hash}'`, `connect-src 'self'`, ...(opts.frames === true ? [`frame-src 'self'`] : []), `base-uri 'none'`, `form-action 'none'`, `frame-ancestors 'none'`].join('; ');
}

/** The CSP of a preview page (its own CSS and inline images only), framed by the brand page. */
export const PREVIEW_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

/** The stylesheet both pages use. */
export const PAGE_CSS = `
[hidden]{display:none!important}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI","Noto Sans KR",sans-serif;margin:1.5em 2em;color:#1f2328;background:#fff}
h1{font-size:1.5em;margin:.2em 0 .4em}h2{font-size:1.15em;margin:1.4em 0 .5em}
a{color:#0969da}
table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #d0d7de;padding:5px 10px;text-align:left;vertical-align:top}
th{background:#f6f8fa;white-space:nowrap}
th button{all:unset;cursor:pointer;font-weight:600}th button:focus-visible{outline:2px solid #0969da}
th[aria-sort=ascending] button::after{content:" \\25B2"}th[aria-sort=descending] button::after{content:" \\25BC"}
.state{font-weight:600;white-space:nowrap}
.counts{display:flex;flex-wrap:wrap;gap:.5em;margin:.6em 0;padding:0;list-style:none}
.counts button{border:1px solid #d0d7de;border-radius:2em;background:#f6f8fa;padding:.25em .9em;cursor:pointer;font:inherit}
.counts button[aria-pressed=true]{background:#ddf4ff;border-color:#0969da}
.counts b{font-size:1.1em}
.filters{display:flex;flex-wrap:wrap;gap:1em;align-items:end;margin:.8em 0}
.filters label{display:flex;flex-direction:column;font-size:.85em;color:#59636e;gap:.2em}
.filters input,.filters select{font:inherit;padding:.2em .4em}
.muted{color:#59636e}.small{font-size:.85em}
.reasons{margin:0;padding-left:1.1em}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.8em 1em;overflow-x:auto;white-space:pre-wrap;word-break:break-word}
pre .add{color:#1a7f37}pre .del{color:#cf222e}pre .chg{color:#9a6700}pre .blk{color:#cf222e;font-weight:600}pre .rev{color:#8250df}pre .unm{color:#59636e}pre .err{color:#cf222e}
.sev-error{color:#cf222e;font-weight:600}.sev-warning{color:#9a6700;font-weight:600}.sev-info{color:#59636e}
details>summary{cursor:pointer}
iframe.preview{width:100%;height:720px;border:1px solid #d0d7de;border-radius:6px}
#updated{font-size:.85em;color:#59636e}#updated.stale{color:#cf222e}
`;
