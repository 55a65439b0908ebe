// Text safe for a terminal: control characters, escape sequences and
// bidirectional controls shown as visible escapes (`\x1b`, `\u202e`) instead
// of acting on the terminal. Used by the CLI's output guard
// (src/cli/safe-output.ts) and by renderers that lay out single lines.

// ESC [ n m for the SGR codes rcsctl uses: reset, bold, dim, normal, red,
// green, yellow, magenta, cyan, default colour.
const OWN_SGR = /^\u001b\[(?:0|1|2|22|31|32|33|35|36|39)m/;

// C0 controls but tab and newline, DEL, C1 controls, the bidirectional
// controls (embeddings, overrides, isolates, marks) and the invisible
// zero-width characters (not the zero-width joiner, which emoji use).
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200c\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

const UNSAFE_ONE = new RegExp(UNSAFE.source);

/** `text` with every unsafe character escaped, keeping rcsctl's own colour codes. */
export function terminalSafe(text: string): string {
  if (!hasUnsafe(text)) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '\u001b') {
      const own = OWN_SGR.exec(text.slice(i, i + 6));
      if (own !== null) {
        out += own[0];
        i += own[0].length;
        continue;
      }
    }
    out += escapeChar(ch);
    i++;
  }
  return out;
}

/**
 * Escape every unsafe character, colour codes included, for text laid out on
 * one line (titles, excerpts); newlines are escaped too, and tabs unless kept.
 */
export function escapeUnsafe(text: string, opts: { keepTabs?: boolean } = {}): string {
  const out = text.replace(UNSAFE, escapeChar).replace(/\n/g, '\\n');
  return opts.keepTabs === true ? out : out.replace(/\t/g, '\\t');
}

function hasUnsafe(text: string): boolean {
  return UNSAFE_ONE.test(text);
}

function escapeChar(ch: string): string {
  if (!UNSAFE_ONE.test(ch)) return ch;
  const code = ch.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

