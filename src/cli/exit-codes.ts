// Exit codes of every command.

/** Success, or no difference. */
export const EXIT_OK = 0;
/** An error: bad input, a failed request, a refused plan. */
export const EXIT_ERROR = 1;
/** Differences found (`plan --detailed-exitcode`, `drift`). */
export const EXIT_CHANGES = 2;
/** `apply` finished but some steps were blocked or held by a gate. */
export const EXIT_HELD = 3;

/** `apply` stopped by an interrupt (SIGINT, SIGTERM): 128 + 2, as shells report Ctrl-C. */
export const EXIT_INTERRUPTED = 130;

/** Any of the exit codes above. */
export type ExitCode = typeof EXIT_OK | typeof EXIT_ERROR | typeof EXIT_CHANGES | typeof EXIT_HELD | typeof EXIT_INTERRUPTED;
