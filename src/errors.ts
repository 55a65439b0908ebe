// One error base class for everything rcsctl reports to a person, rendered in one
// place (src/cli/main.ts) as text or as a JSON envelope.

/** A failure rcsctl explains to the user: a stable code, a message, and JSON details. */
export class RcsctlError extends Error {
  override readonly name: string = 'RcsctlError';

  constructor(
    /** Stable, documented code such as `E_PLAN_DUPLICATE_NAME`. */
    readonly code: string,
    message: string,
    /** Machine-readable details for `--json` output; never holds a secret. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** The JSON shape used by `--json` output. */
  toJSON(): Record<string, unknown> {
    return { code: this.code, message: this.message, ...this.details };
  }
}

/** Unwrap anything thrown into a message safe to print (no stack for known errors). */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
