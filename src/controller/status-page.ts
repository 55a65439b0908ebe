// The small HTML page at `/`: the /status table for a person.

import type { ControllerStatus } from './status.js';

const COLOURS: Record<string, string> = { 'in-sync': '#1a7f37', drifted: '#bf8700', 'waiting-review': '#0969da', blocked: '#8250df', failed: '#cf222e', reconciling: '#57606a', standby: '#57606a' };

/** The status page (escaped; no script). */
export function renderStatusPage(s: ControllerStatus): string {
  const rows = s.brands
    .map((b) => {
      const reasons = b.pendingReasons.slice(0, 5).map(esc).join('<br>') + (b.pendingReasons.length > 5 ? `<br>… and ${b.pendingReasons.length - 5} more` : '');
      return `<tr><td><a href="status/${encodeURIComponent(b.brandId)}">${esc(b.brandId)}</a></td><td style="color:${COLOURS[b.state] ?? '#000'};font-weight:600">${esc(b.state)}</td><td>${esc(b.lastPassAt ?? '—')}</td><td>${b.lastPassDurationMs !== undefined ? `${b.lastPassDurationMs} ms` : '—'}</td><td>${reasons}</td><td>${esc(b.lastError?.message ?? '')}</td><td>${b.retry !== undefined ? `attempt ${b.retry.attempt}, next at ${esc(b.retry.nextAt)}` : ''}</td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rcsctl controller</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border-bottom:1px solid #d0d7de;padding:4px 10px;text-align:left;vertical-align:top}</style></head>
<body><h1>rcsctl controller</h1>
<p>Mode <b>${esc(s.mode)}</b>${s.shard !== undefined ? `, shard ${esc(s.shard)}` : ''}; ${s.ready ? 'ready' : 'not ready'}; ${s.brands.length} brand${s.brands.length === 1 ? '' : 's'}; ${s.queueDepth} waiting; last resync ${esc(s.lastResyncAt ?? '—')}.</p>
${serviceLine(s)}
<table><thead><tr><th>Brand</th><th>State</th><th>Last pass</th><th>Took</th><th>Pending</th><th>Last error</th><th>Retry</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<p><a href="status">JSON</a> · <a href="metrics">metrics</a></p>
</body></html>
`;
}

/** The service's condition: one line, red unless it is ok. */
function serviceLine(s: ControllerStatus): string {
  const svc = s.service;
  const colour = svc.state === 'ok' ? COLOURS['in-sync'] : COLOURS.failed;
  const error = svc.lastError !== undefined && svc.state !== 'ok' ? `: ${esc(svc.lastError.message)}` : '';
  return `<p id="service">Service <b style="color:${colour}">${esc(svc.state)}</b> since ${esc(svc.since)}${error}.</p>`;
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
