import type { Command, OptionSpec } from './command.js';
import { EXIT } from './exit-codes.js';

export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  json: { type: 'boolean', description: 'Print the API object as JSON on stdout (tables otherwise).' },
  profile: { type: 'string', description: 'Profile to use (default: PAYMENTS_PROFILE, else "default").', valueName: 'name' },
  'api-key': { type: 'string', description: "API key for this call (default: PAYMENTS_API_KEY, else the profile's).", valueName: 'sk_…' },
  'api-base': { type: 'string', description: "API base URL (default: PAYMENTS_API_BASE, the profile's, else http://localhost:4242).", valueName: 'url' },
  verbose: { type: 'boolean', description: 'Log each API answer (status, request id) on stderr.' },
  help: { type: 'boolean', short: 'h', description: 'Show help.' },
};

function optionLines(options: Record<string, OptionSpec>): string[] {
  const rows = Object.entries(options).map(([name, spec]) => [`--${name}${spec.type === 'string' ? ` <${spec.valueName ?? 'value'}>` : ''}${spec.multiple ? ' …' : ''}`, spec.description]);
  const width = Math.max(...rows.map(([flag]) => (flag ?? '').length));
  return rows.map(([flag, description]) => `  ${(flag ?? '').padEnd(width)}  ${description}`);
}

export function commandHelp(command: Command): string {
  const lines = [
    `payments ${command.name}: ${command.summary}`,
    '',
    `Usage: payments ${command.name}${command.args ? ` ${command.args}` : ''}${command.options ? ' [options]' : ''}`,
  ];
  if (command.options && Object.keys(command.options).length) lines.push('', 'Options:', ...optionLines(command.options));
  lines.push('', 'Global options:', ...optionLines(GLOBAL_OPTIONS));
  if (command.notes) lines.push('', ...wrap(command.notes, 100));
  lines.push('', command.examples.length > 1 ? 'Examples:' : 'Example:', ...command.examples.map((example) => `  ${example}`));
  return `${lines.join('\n')}\n`;
}

export function overviewHelp(commands: readonly Command[], prefix?: string): string {
  const shown = prefix ? commands.filter((c) => c.name.startsWith(`${prefix} `)) : commands;
  const width = Math.max(...shown.map((c) => c.name.length));
  return [
    'payments: the payment service from your terminal (built on @payments/sdk).',
    '',
    `Usage: payments ${prefix ?? '<command>'}${prefix ? ' <command>' : ''} [options]`,
    '',
    'Commands:',
    ...shown.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Global options:',
    ...optionLines(GLOBAL_OPTIONS),
    '',
    `Exit codes: ${EXIT.ok} ok, ${EXIT.apiError} API error, ${EXIT.usage} usage, ${EXIT.authentication} authentication/permission, ${EXIT.invalidRequest} invalid request,`,
    `  ${EXIT.notFound} not found, ${EXIT.conflict} conflict/idempotency, ${EXIT.rateLimited} rate limited, ${EXIT.connection} connection, ${EXIT.waitFailed} wait failed or timed out.`,
    '',
    'Example:',
    '  payments login --api-key sk_test_…',
    '  payments trigger payment.succeeded',
    '',
    'Run payments <command> --help for its options and an example.',
    '',
  ].join('\n');
}

/** Splits prose into lines of at most `width` characters, at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
