import { globalOptions, type Command, type OptionSpec, type Program } from './command.js';

export function commandHelp<K extends Command<never>>(program: Program<K>, command: K): string {
  const lines = [
    `${program.name} ${command.name}: ${command.summary}`,
    '',
    `Usage: ${program.name} ${command.name}${command.args ? ` ${command.args}` : ''}${command.options ? ' [options]' : ''}`,
  ];
  if (command.options && Object.keys(command.options).length) lines.push('', 'Options:', ...optionLines(command.options));
  lines.push('', 'Global options:', ...optionLines(globalOptions(program)));
  if (command.notes) lines.push('', ...wrap(command.notes, 100));
  lines.push('', command.examples.length > 1 ? 'Examples:' : 'Example:', ...command.examples.map((example) => `  ${example}`));
  return `${lines.join('\n')}\n`;
}

/** Every command, or those of one group (`payment-intents`). */
export function overviewHelp<K extends Command<never>>(program: Program<K>, group?: string): string {
  const shown = group ? program.commands.filter((c) => c.name.startsWith(`${group} `)) : program.commands;
  const width = Math.max(...shown.map((c) => c.name.length));
  return [
    program.description,
    '',
    `Usage: ${program.name} ${group ?? '<command>'}${group ? ' <command>' : ''} [options]`,
    '',
    'Commands:',
    ...shown.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Global options:',
    ...optionLines(globalOptions(program)),
    '',
    ...program.epilogue,
    '',
    `Run ${program.name} <command> --help for its options and an example.`,
    '',
  ].join('\n');
}

function optionLines(options: Record<string, OptionSpec>): string[] {
  const rows = Object.entries(options).map(([name, spec]) => [
    `--${name}${spec.type === 'string' ? ` <${spec.valueName ?? 'value'}>` : ''}${spec.multiple ? ' …' : ''}`,
    spec.description,
  ]);
  const width = Math.max(...rows.map(([flag]) => (flag ?? '').length));
  return rows.map(([flag, description]) => `  ${(flag ?? '').padEnd(width)}  ${description}`);
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
