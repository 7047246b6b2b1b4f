/**
 * The exit codes every program shares: 0 for success, 2 for a command line it cannot run, so a
 * script tells its own mistake from a failure. 1 and 3 on mean what each program documents.
 */
export const COMMON_EXIT = { ok: 0, usage: 2 } as const;

/** A failure the program itself detected, with the exit code it ends with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, COMMON_EXIT.usage);
  }
}
