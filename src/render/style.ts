// Terminal styling: ANSI colours when the output is a terminal and NO_COLOR is
// not set (decided once, in GlobalOptions.color), plain text otherwise.

/** Colour functions; identity functions when colour is off. */
export interface Style {
  green(s: string): string;
  yellow(s: string): string;
  red(s: string): string;
  magenta(s: string): string;
  cyan(s: string): string;
  bold(s: string): string;
  dim(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

/** The style for `color`. */
export function makeStyle(color: boolean): Style {
  if (!color) {
    const id = (s: string): string => s;
    return { green: id, yellow: id, red: id, magenta: id, cyan: id, bold: id, dim: id };
  }
  return {
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    red: wrap(31, 39),
    magenta: wrap(35, 39),
    cyan: wrap(36, 39),
    bold: wrap(1, 22),
    dim: wrap(2, 22),
  };
}

/** Strip ANSI colour codes (for tests and width calculations). */
export function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\u001b\[[0-9;]*m/g, '');
}
