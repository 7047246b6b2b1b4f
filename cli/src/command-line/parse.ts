import { parseArgs } from 'node:util';
import { globalOptions, type Command, type CommandLine, type OptionSpec, type Program } from './command.js';
import { UsageError } from './exit.js';
import { commandHelp, overviewHelp } from './help.js';

/** What a command line asks for: help (for stdout), an overview because no command was named (for stderr), or a command. */
export type Route<K> = { kind: 'help'; text: string } | { kind: 'overview'; text: string } | { kind: 'command'; command: K };

/** Finds the command a command line names; throws a UsageError for a name no command has. */
export function route<K extends Command<never>>(program: Program<K>, argv: string[]): Route<K> {
  // Lenient: only the command words, --help and --version are wanted here; the command's own options are checked later.
  const loose = parseArgs({ args: argv, options: parserOptions(globalOptions(program)), strict: false, allowPositionals: true });
  // Anywhere on the line, as `git --version` or `npm -v`: a bug report's first question has one answer.
  if (program.version !== undefined && loose.values.version === true) return { kind: 'help', text: `${program.version}\n` };
  const words = loose.positionals;
  if (words[0] === 'help') return route(program, [...words.slice(1), '--help']);
  const command = findCommand(program.commands, words);
  if (command) return loose.values.help ? { kind: 'help', text: commandHelp(program, command) } : { kind: 'command', command };
  const group = words[0] && program.commands.some((c) => c.name.startsWith(`${words[0]} `)) ? words[0] : undefined;
  if (loose.values.help) return { kind: 'help', text: overviewHelp(program, group) };
  // No command, or a group without its subcommand.
  if (words.length === 0 || (group && words.length === 1)) return { kind: 'overview', text: overviewHelp(program, group) };
  if (group) throw new UsageError(`Unknown command "${program.name} ${words.slice(0, 2).join(' ')}"; run ${program.name} ${group} --help.`);
  throw new UsageError(`Unknown command "${words[0]}"; run ${program.name} --help.`);
}

/** The command's options (with the global ones) and the arguments after its words; a UsageError for anything else. */
export function parseCommandLine<K extends Command<never>>(program: Program<K>, command: K, argv: string[]): CommandLine {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options: parserOptions({ ...globalOptions(program), ...command.options }), strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(
      `${error instanceof Error ? error.message.replace(/\. To specify a positional.*$/s, '.') : String(error)} See ${program.name} ${command.name} --help.`,
    );
  }
  return { values: parsed.values, positionals: parsed.positionals.slice(command.name.split(' ').length) };
}

/** The command whose words start the positionals; the longest match wins (`events list` over `events`). */
function findCommand<K extends Command<never>>(commands: readonly K[], words: string[]): K | undefined {
  return [...commands]
    .sort((a, b) => b.name.split(' ').length - a.name.split(' ').length)
    .find((command) => command.name.split(' ').every((word, index) => words[index] === word));
}

/** The specs as parseArgs takes them: without the descriptions and value names help shows. */
function parserOptions(options: Record<string, OptionSpec>) {
  return Object.fromEntries(
    Object.entries(options).map(([name, spec]) => [
      name,
      { type: spec.type, ...(spec.short ? { short: spec.short } : {}), ...(spec.multiple ? { multiple: true } : {}) },
    ]),
  ) as NonNullable<Parameters<typeof parseArgs>[0]>['options'];
}
