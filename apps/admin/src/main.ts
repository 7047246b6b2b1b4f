import { buildContainer, createLogger, loadConfig } from '@payments/api';
import { commandHelp, overviewHelp, parseCommandLine, route, UsageError, type CommandLine } from '@payments/cli/command-line';
import { isCoreError } from '@payments/core';
import { ADMIN, EXIT, type AdminCommand } from './commands';

/** The operator CLI: data as JSON on stdout, errors as JSON on stderr, logs nowhere near stdout. */
async function main(argv: string[]): Promise<number> {
  let command: AdminCommand | undefined;
  try {
    const routed = route(ADMIN, argv);
    if (routed.kind === 'help') {
      process.stdout.write(routed.text);
      return EXIT.ok;
    }
    if (routed.kind === 'overview') return usageError('No command given.', routed.text);
    command = routed.command;
    const line = parseCommandLine(ADMIN, command, argv);
    const expected = command.args ? command.args.split(' ').length : 0;
    if (line.positionals.length !== expected) throw new UsageError(`${command.name} takes ${command.args ?? 'no arguments'}.`);
    return await run(command, line);
  } catch (error) {
    if (error instanceof UsageError) return usageError(error.message, command ? commandHelp(ADMIN, command) : overviewHelp(ADMIN));
    throw error;
  }
}

/** Runs the command on the service's container; a domain error is reported like the API reports it. */
async function run(command: AdminCommand, line: CommandLine): Promise<number> {
  const app = await buildContainer(loadConfig(), { logger: createLogger('warn', 2) });
  try {
    return (await command.run({ ...line, app, print: (value) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`) })) ?? EXIT.ok;
  } catch (error) {
    if (isCoreError(error)) return fail(error.code, error.message, EXIT.failed, error.param);
    throw error;
  } finally {
    await app.close();
  }
}

/** The JSON error, then the help that shows the right command line. */
function usageError(message: string, help: string): number {
  fail('usage', message, EXIT.usage);
  process.stderr.write(help);
  return EXIT.usage;
}

function fail(code: string, message: string, exitCode: number, param?: string): number {
  process.stderr.write(`${JSON.stringify({ error: { code, message, ...(param ? { param } : {}) } })}\n`);
  return exitCode;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${JSON.stringify({ error: { code: 'api_error', message: error instanceof Error ? error.message : String(error) } })}\n`);
    process.exitCode = EXIT.failed;
  },
);
