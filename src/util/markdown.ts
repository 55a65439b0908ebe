// Escaping for GitHub-flavoured Markdown in pull-request comments: text from the
// service or a manifest must never break a table, a fence or the page's HTML.

/** Escape HTML-significant characters. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text safe inside a table cell. */
export function cell(text: string): string {
  return escapeHtml(text).replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

/** Text safe on one line outside a table. */
export function inline(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, ' ');
}

/** Keep a line inside a code fence from closing it. */
export function fence(line: string): string {
  return line.replace(/```/g, '`\u200b``');
}
