import type { ParseArgsConfig } from 'node:util';
import type { Payments } from '@payments/sdk';
import type { ConfigStore } from './config.js';
import type { Output } from './output.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>[string] & { description: string; valueName?: string };

export type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

/** What a command receives: its parsed options and arguments, the output, and a client on demand. */
export interface Context {
  readonly values: Values;
  readonly positionals: string[];
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

export interface Command {
  /** The words that name it: `payment-intents create`. */
  name: string;
  summary: string;
  /** Positional arguments as shown in usage: `<payment_intent>`. */
  args?: string;
  options?: Record<string, OptionSpec>;
  /** One or more full command lines. */
  examples: string[];
  /** Longer notes for --help. */
  notes?: string;
  /** Handles SIGINT/SIGTERM itself through `context.signal` (else a signal ends the process). */
  handlesSignals?: boolean;
  run(context: Context): Promise<number | void>;
}
