// Exit codes of every command.

/** Success, or no difference. */
export const EXIT_OK = 0;
/** An error: bad input, a failed request, a refused plan. */
export const EXIT_ERROR = 1;
/** Differences found (`plan --detailed-exitcode`, `drift`). */
export const EXIT_CHANGES = 2;
/** `apply` finished but some steps were blocked or held by a gate. */
export const EXIT_HELD = 3;

/** Any of the exit codes above. */
export type ExitCode = typeof EXIT_OK | typeof EXIT_ERROR | typeof EXIT_CHANGES | typeof EXIT_HELD;
