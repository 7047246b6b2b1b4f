import type { Payments } from '@payments/sdk';
import type { Command as CommandOf, CommandLine } from './command-line/index.js';
import type { ConfigStore } from './config.js';
import type { Output } from './output.js';

export type { OptionSpec, Values } from './command-line/index.js';

/** What a command receives: its parsed options and arguments, the output, and a client on demand. */
export interface Context extends CommandLine {
  readonly out: Output;
  readonly store: ConfigStore;
  readonly profileName: string;
  readonly env: NodeJS.ProcessEnv;
  /** The API base URL in effect (flag, env, profile, default). */
  readonly apiBase: string;
  /** The SDK client for the key in effect; throws an authentication error when there is none. */
  client(): Payments;
  /** What may be shown of the key in effect (its prefix); throws like client() when there is none. */
  keyPrefix(): string;
  /** Aborted on SIGINT/SIGTERM: long-running commands stop cleanly. */
  readonly signal: AbortSignal;
}

export interface Command extends CommandOf<Context> {
  /** Handles SIGINT/SIGTERM itself through `context.signal` (else a signal ends the process). */
  handlesSignals?: boolean;
  /** Has no end of its own (listen): SIGTERM is its normal stop, so it exits with its own code then, not 143. */
  runsUntilStopped?: boolean;
}
