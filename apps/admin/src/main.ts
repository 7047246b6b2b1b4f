import { buildContainer, createLogger, loadConfig } from '@payments/api';
import { isCoreError } from '@payments/core';
import { ExitWith, findCommand, USAGE, UsageError } from './commands';

/** The operator CLI: data as JSON on stdout, errors as JSON on stderr, logs nowhere near stdout. */
async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let found;
  try {
    found = findCommand(argv);
  } catch (error) {
    return fail('usage', (error as Error).message, 2);
  }
  const config = loadConfig();
  const app = await buildContainer(config, { logger: createLogger('warn', 2) });
  try {
    const result = await found.command(app, found.args);
    const output = result instanceof ExitWith ? result.output : result;
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    return result instanceof ExitWith ? result.exitCode : 0;
  } catch (error) {
    if (error instanceof UsageError) return fail('usage', error.message, 2);
    if (isCoreError(error)) return fail(error.code, error.message, 1, error.param);
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) return fail('usage', error.message, 2);
    throw error;
  } finally {
    await app.close();
  }
}

function fail(code: string, message: string, exitCode: number, param?: string): number {
  process.stderr.write(`${JSON.stringify({ error: { code, message, ...(param ? { param } : {}) } })}\n`);
  if (code === 'usage') process.stderr.write(`${USAGE}\n`);
  return exitCode;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${JSON.stringify({ error: { code: 'api_error', message: error instanceof Error ? error.message : String(error) } })}\n`);
    process.exitCode = 1;
  },
);
