import type { ParseArgsConfig } from 'node:util';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>[string] & { description: string; valueName?: string };

export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** A command line once its command is known: its options and the arguments after the command's words. */
export interface CommandLine {
  readonly values: Values;
  readonly positionals: string[];
}

/** One command of a program; `C` is what the program hands each command it runs. */
export interface Command<C> {
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
  /** Resolves with the exit code (nothing for success). */
  run(context: C): Promise<number | void>;
}

/** A program of commands, and what its overview help says around them. */
export interface Program<K extends Command<never>> {
  /** How it is invoked, as usage lines and examples show it: `payments`. */
  name: string;
  /** The first line of the overview. */
  description: string;
  /** Options every command takes besides --help. */
  globalOptions: Record<string, OptionSpec>;
  /** In the order the overview lists them. */
  commands: readonly K[];
  /** The overview's lines between the global options and the pointer to per-command help: exit codes, examples. */
  epilogue: string[];
  /** What `--version` prints (a line); a program without one has no --version. */
  version?: string;
}

/** The program's global options, with the --help every program has (listed last) and --version when it has one. */
export function globalOptions(program: Program<Command<never>>): Record<string, OptionSpec> {
  return {
    ...program.globalOptions,
    ...(program.version === undefined ? {} : { version: { type: 'boolean', description: 'Print the version and exit.' } }),
    help: { type: 'boolean', short: 'h', description: 'Show help.' },
  };
}
