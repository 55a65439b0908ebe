// YAML syntax errors as a person needs them: the root cause first, at the
// place to fix. One wrong indent makes the parser report every later sibling
// too; those follow-on errors are kept but marked, so the text view can fold
// them into one line ("N follow-on errors suppressed") and --verbose or JSON
// still has them. An unclosed `{` or `[` is reported where it opens, not
// where the parser gave up.

import type { LineCounter } from 'yaml';
import { diagAtOffset } from './source.js';
import type { Diagnostic } from './types.js';

/** A YAML parse error as the yaml package reports it. */
export interface YamlError {
  code: string;
  message: string;
  pos: [number, number];
}

/** The diagnostics for one document's parse errors: the first is the root cause, the rest are marked follow-on. */
export function yamlErrorDiagnostics(errors: readonly YamlError[], text: string, file: string, lines: LineCounter): Diagnostic[] {
  const sorted = [...errors].sort((a, b) => a.pos[0] - b.pos[0]);
  return sorted.map((e, i) => {
    const unclosed = unclosedFlowOpening(e, text);
    const d =
      unclosed !== undefined
        ? diagAtOffset(file, lines, 'RCS101', unclosed.offset, `this ${unclosed.what} is never closed: add "${unclosed.close}" before the end of the collection (the parser noticed on a later line: ${firstLine(e.message)})`)
        : diagAtOffset(file, lines, 'RCS101', firstVisible(text, e.pos[0]), firstLine(e.message));
    return i === 0 ? d : { ...d, followOn: true };
  });
}

/** The number of diagnostics marked follow-on. */
export function followOnCount(diags: readonly Diagnostic[]): number {
  return diags.filter((d) => d.followOn === true).length;
}

// The parser points at the whitespace before a misplaced key; the key is what to fix.
function firstVisible(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && /[ \r\n]/.test(text[i] as string)) i++;
  return i < text.length ? i : offset;
}

const FLOW = { '{': { close: '}', what: 'flow mapping "{"' }, '[': { close: ']', what: 'flow sequence "["' } } as const;

/** For a "flow collection must end with }" error, the offset of the bracket left open before it. */
function unclosedFlowOpening(e: YamlError, text: string): { offset: number; close: string; what: string } | undefined {
  if (!/^Flow (map|sequence)/.test(e.message) && !/end with an? [}\]]/.test(e.message)) return undefined;
  // Walk from the start of the text to the error, keeping a stack of open brackets outside quotes.
  const stack: number[] = [];
  let quote: string | undefined;
  let comment = false;
  const end = Math.min(e.pos[0], text.length);
  for (let i = 0; i < end; i++) {
    const c = text[i] as string;
    if (comment) {
      if (c === '\n') comment = false;
      continue;
    }
    if (quote !== undefined) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || (c === "'" && (i === 0 || /[\s{[,:]/.test(text[i - 1] as string)))) quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] as string))) comment = true;
    else if (c === '{' || c === '[') stack.push(i);
    else if ((c === '}' || c === ']') && stack.length > 0) stack.pop();
  }
  const open = stack.pop();
  if (open === undefined) return undefined;
  const kind = FLOW[text[open] as '{' | '['];
  return { offset: open, close: kind.close, what: kind.what };
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
