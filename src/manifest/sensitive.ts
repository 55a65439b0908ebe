// Secrets stay secret even when a manifest reaches for them. Two rules:
// - the value of a credential in play (the token, the client secret, the
//   token file's content, any brand key) may not appear anywhere in manifest
//   content: the error names the field, never the value (RCS115);
// - a value interpolated from a variable whose name looks sensitive
//   (RCSCTL_SENSITIVE_VARS, default *TOKEN*,*SECRET*,*KEY*,*PASSWORD*) is
//   shown as `(sensitive)` in every output, and a saved plan keeps only its hash.

import { MIN_SECRET_LENGTH } from '../util/redaction.js';
import { diagAt, type SourceDoc } from './source.js';
import type { Diagnostic } from './types.js';

/** Default name patterns of sensitive variables (`*` matches anything, case-insensitive). */
export const DEFAULT_SENSITIVE_PATTERNS = ['*TOKEN*', '*SECRET*', '*KEY*', '*PASSWORD*'];

/** A credential rcsctl holds, by the name shown in errors (never its value). */
export interface Credential {
  label: string;
  value: string;
}

/** A value taken from a sensitive variable. */
export interface SensitiveValue {
  name: string;
  value: string;
}

/** The patterns in force: RCSCTL_SENSITIVE_VARS (comma-separated) or the defaults. */
export function sensitivePatterns(env: Record<string, string | undefined>): string[] {
  const given = env.RCSCTL_SENSITIVE_VARS;
  if (given === undefined || given.trim() === '') return DEFAULT_SENSITIVE_PATTERNS;
  return given.split(',').map((p) => p.trim()).filter((p) => p !== '');
}

/** Whether a variable name matches one of `patterns`. */
export function isSensitiveName(name: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => new RegExp(`^${p.split('*').map(escapeRegExp).join('.*')}$`, 'i').test(name));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export { MIN_SECRET_LENGTH } from '../util/redaction.js';

/** Every credential in play from the environment: token, client secret, brand keys given for saved plans. */
export function credentialsFromEnv(env: Record<string, string | undefined>): Credential[] {
  const out: Credential[] = [];
  for (const name of ['RCSCTL_TOKEN', 'RCSCTL_CLIENT_SECRET']) {
    const v = env[name];
    if (v !== undefined && v.length >= MIN_SECRET_LENGTH) out.push({ label: name, value: v });
  }
  for (const [name, v] of Object.entries(env)) {
    if (name.startsWith('RCSCTL_BRAND_KEY_') && v !== undefined && v.length >= MIN_SECRET_LENGTH) out.push({ label: name, value: v });
  }
  return out;
}

/**
 * RCS115 for every manifest value holding a credential's value. A brand's own
 * `brand.key` is where its key belongs; anywhere else it is refused.
 */
export function checkCredentials(srcs: readonly SourceDoc[], credentials: readonly Credential[]): Diagnostic[] {
  const usable = credentials.filter((c) => c.value.length >= MIN_SECRET_LENGTH);
  if (usable.length === 0) return [];
  const out: Diagnostic[] = [];
  for (const src of srcs) {
    // Depth first, last child first (the order the findings have always come in); one path, copied only for a finding.
    const path: (string | number)[] = [];
    const visit = (value: unknown): void => {
      if (typeof value === 'string') {
        const isOwnKey = path.length === 2 && path[0] === 'brand' && path[1] === 'key';
        for (const c of usable) {
          if (isOwnKey && c.label.startsWith('the brand key')) continue;
          if (isOwnKey && c.label.startsWith('RCSCTL_BRAND_KEY_')) continue;
          if (value.includes(c.value)) {
            const field = path.length === 0 ? 'the document' : `"${path.join('.')}"`;
            out.push(diagAt(src, 'RCS115', [...path], `${field} holds the value of ${c.label}, a credential; credentials may not appear in manifest content (the value is not shown)`));
            break;
          }
        }
      } else if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) {
          path.push(i);
          visit(value[i]);
          path.pop();
        }
      } else if (value !== null && typeof value === 'object') {
        const keys = Object.keys(value);
        for (let i = keys.length - 1; i >= 0; i--) {
          const k = keys[i] as string;
          path.push(k);
          visit((value as Record<string, unknown>)[k]);
          path.pop();
        }
      }
    };
    visit(src.value);
  }
  return out;
}
