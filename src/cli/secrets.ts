// The credentials in play for a CLI run, and the sensitive values its
// manifests interpolated: the first are refused in manifest content, the
// second hidden in every output and hashed in saved plans.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { credentialsFromEnv, MIN_SECRET_LENGTH, type Credential, type SensitiveValue } from '../manifest/sensitive.js';
import type { CliIO, CommandContext } from './context.js';
import { hideInOutput } from './safe-output.js';

/** The token, client secret and brand keys from the environment, and the token file's content; all hidden in output from now on. */
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
  hideInOutput(ctx.io, out.map((c) => c.value));
  return out;
}

const remembered = new WeakMap<CliIO, SensitiveValue[]>();

/** Hide `sensitive` in all output from now on, and keep it for the saved plan. */
export function protectSensitive(io: CliIO, sensitive: readonly SensitiveValue[]): void {
  if (sensitive.length === 0) return;
  hideInOutput(io, sensitive.map((s) => s.value));
  remembered.set(io, [...(remembered.get(io) ?? []), ...sensitive]);
}

/** The sensitive values a run's manifests interpolated. */
export function sensitiveOf(io: CliIO): SensitiveValue[] {
  return remembered.get(io) ?? [];
}
