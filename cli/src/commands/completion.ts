import { basename } from 'node:path';
import type { Command } from '../command.js';
import { completionScript, SHELLS, type Program } from '../command-line/index.js';
import { UsageError } from '../exit-codes.js';
import { isOneOf } from '../values.js';

/**
 * `payments completion bash|zsh|fish`: the script is made from the program's commands when asked,
 * so it always matches the installed version. `program` is a getter: the program lists this
 * command among its own.
 */
export function completionCommands(program: () => Program<Command>): Command[] {
  return [
    {
      name: 'completion',
      summary: 'Print a shell completion script for every command and option (bash, zsh or fish).',
      args: '[shell]',
      examples: [
        'payments completion bash > ~/.local/share/bash-completion/completions/payments',
        'payments completion zsh > "${fpath[1]}/_payments"',
        'payments completion fish > ~/.config/fish/completions/payments.fish',
        'source <(payments completion bash)',
      ],
      notes:
        'Without [shell], the one $SHELL names. Each script says at its top how to load it for the current shell only, and for every new shell. ' +
        'Commands and options complete; values and ids do not (file names are offered where a value goes).',
      async run(context) {
        const shell = context.positionals[0] ?? basename(context.env.SHELL ?? '');
        if (!isOneOf(SHELLS, shell))
          throw new UsageError(`Name the shell: payments completion ${SHELLS.join('|')}${shell ? ` (not ${JSON.stringify(shell)})` : ''}.`);
        const script = completionScript(program(), shell);
        context.out.data({ shell, script }, () => script);
      },
    },
  ];
}
