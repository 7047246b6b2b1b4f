export type { Command, CommandLine, OptionSpec, Program, Values } from './command.js';
export { CliError, COMMON_EXIT, UsageError } from './exit.js';
export { commandHelp, overviewHelp } from './help.js';
export { parseCommandLine, route, type Route } from './parse.js';
export { optionalString, requiredString } from './values.js';
export { completionScript, SHELLS, type Shell } from './completion.js';
