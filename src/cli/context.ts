// What every command receives: the streams it writes to, the environment, and
// the global options. Commands never touch process.* directly, so tests run the
// CLI in-process (src/cli/main.ts).

import type { Readable, Writable } from 'node:stream';
import type { ConcurrencySetting } from '../api/limiter.js';
import type { Redaction } from '../util/redaction.js';
import type { ExitCode } from './exit-codes.js';

/** An output stream, with the TTY flag when it is a terminal. */
export type OutStream = Writable & { isTTY?: boolean; columns?: number };

/** The process surroundings a CLI run sees. */
export interface CliIO {
  stdout: OutStream;
  stderr: OutStream;
  stdin?: Readable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  /** Aborts long-running commands (`rcsctl emulator`) when run in-process. */
  signal?: AbortSignal;
}

/** Options that every command accepts . */
export interface GlobalOptions {
  baseUrl?: string;
  agencyBaseUrl?: string;
  tokenFile?: string;
  /** Requests one brand may have waiting at once: the fixed limit, or the cap of `auto`. */
  concurrency: number;
  /** The one limit on requests in flight for the run (absent: fixed at `concurrency`). */
  concurrencySetting?: ConcurrencySetting;
  color: boolean;
  sandbox: boolean;
  seed?: string;
  /** The folder manifests' `path:` files must stay in (--root, RCSCTL_ROOT), absolute; else each manifest's repository. */
  root?: string;
  insecureHttp: boolean;
  /** Show every diagnostic, follow-on YAML errors included. */
  verbose?: boolean;
}

/** Passed to every command module's `register`. */
export interface CommandContext {
  io: CliIO;
  /** The global options, parsed (call inside an action). */
  globals(): GlobalOptions;
  /** Set the process exit code for this run. */
  exit(code: ExitCode): void;
  /**
   * The run's secrets (credentials in play, values of sensitive variables):
   * both output streams and every file the run writes are redacted by it
   * (`writeOutputFile`), the saved plan and the live cache sealed by it.
   */
  redaction: Redaction;
}
