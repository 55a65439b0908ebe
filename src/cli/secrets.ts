// The credentials in play for a CLI run, and the sensitive values its
// manifests interpolated: the first are refused in manifest content, both are
// added to the run's redaction (hidden in every output and file, sealed in
// saved plans and the live cache).

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { credentialsFromEnv, MIN_SECRET_LENGTH, type Credential, type SensitiveValue } from '../manifest/sensitive.js';
import { cacheDirFor } from '../util/cache-dir.js';
import { loadSealKey, type SealKey } from '../util/seal-key.js';
import type { CommandContext } from './context.js';

/** The token, client secret and brand keys from the environment, and the token file's content; all redacted from now on. */
export function credentialsInPlay(ctx: CommandContext): Credential[] {
  const out = credentialsFromEnv(ctx.io.env);
  const file = ctx.globals().tokenFile;
  if (file !== undefined) {
    try {
      const token = readFileSync(resolve(ctx.io.cwd, file), 'utf8').trim();
      if (token.length >= MIN_SECRET_LENGTH) out.push({ label: 'the --token-file content', value: token });
    } catch {
      // connect() reports an unreadable token file.
    }
  }
  ctx.redaction.add(out.map((c) => ({ name: c.label, value: c.value })));
  return out;
}

/** Redact `sensitive` in all output and files from now on (and seal it in the saved plan and the live cache). */
export function protectSensitive(ctx: CommandContext, sensitive: readonly SensitiveValue[]): void {
  ctx.redaction.add(sensitive);
}

/**
 * The key a saved plan is sealed with (src/util/seal-key.ts), made or read
 * only when first asked: RCSCTL_PLAN_KEY, else this machine's key file in the
 * cache directory (`--cache-dir` too; `--no-cache` turns off the live cache,
 * not the key).
 */
export function planSealKey(ctx: CommandContext, flags: { cacheDir?: string }): () => SealKey {
  let key: SealKey | undefined;
  return () => (key ??= loadSealKey(ctx.io.env, cacheDirFor({ ...(flags.cacheDir !== undefined ? { cacheDir: flags.cacheDir } : {}) }, ctx.io.env, ctx.io.cwd)));
}
