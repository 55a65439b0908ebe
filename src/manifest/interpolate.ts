// `${env:NAME}` interpolation of string values. A missing variable is an
// error; `$${` writes a literal `${`. Interpolated values are never echoed,
// because a brand key is one of them.

import { diagAt, type PathSegments, type SourceDoc } from './source.js';
import type { Diagnostic } from './types.js';

const REF = /\$(\$?)\{([^}]*)\}/g;
const ENV_NAME = /^env:([A-Za-z_][A-Za-z0-9_]*)$/;

/**
 * Interpolate every string value of `src.value` in place; problems become
 * diagnostics. Each value taken from the environment is added to `used`, so
 * the caller can keep it out of every message.
 */
export function interpolateDoc(src: SourceDoc, env: Record<string, string | undefined>, used: Set<string> = new Set(), names?: Map<string, string>): Diagnostic[] {
  const diags: Diagnostic[] = [];
  // Served by the parse cache with no `${` in any value: nothing to do.
  if (src.checkedBefore === true) return diags;
  // One path, extended and cut back as the walk goes; copied only for a string that interpolates.
  const path: (string | number)[] = [];
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return value.includes('${') ? interpolateString(value, [...path]) : value;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        value[i] = walk(value[i]);
        path.pop();
      }
      return value;
    }
    if (value !== null && typeof value === 'object') {
      const obj = value as Record<string, unknown>;
      for (const k of Object.keys(obj)) {
        path.push(k);
        obj[k] = walk(obj[k]);
        path.pop();
      }
      return obj;
    }
    return value;
  };
  const interpolateString = (text: string, path: PathSegments): string =>
    text.replace(REF, (whole, escape: string, inner: string) => {
      if (escape === '$') return whole.slice(1);
      const m = ENV_NAME.exec(inner);
      if (m === null || m[1] === undefined) {
        diags.push(diagAt(src, 'RCS107', path, `"\${${inner}}" is not an interpolation rcsctl knows; write \${env:NAME}, or $\${ for a literal "\${"`));
        return whole;
      }
      const v = env[m[1]];
      if (v === undefined) {
        diags.push(diagAt(src, 'RCS106', path, `environment variable ${m[1]} is not set`));
        return '';
      }
      used.add(v);
      names?.set(m[1], v);
      return v;
    });
  src.value = walk(src.value);
  return diags;
}
