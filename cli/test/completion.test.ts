import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { completionScript, type Command, type Program, type Shell } from '../src/command-line/index.js';

/*
 * `payments completion <shell>`: each script is loaded into its shell and asked to complete
 * partial command lines. bash is required; zsh and fish run where they are installed.
 */

const MAIN = join(__dirname, '..', 'src', 'main.js');
const work = mkdtempSync(join(tmpdir(), 'payments-completion-'));

function hasShell(shell: string): boolean {
  return spawnSync(shell, ['-c', 'exit 0']).status === 0;
}

/** The script the built command prints for `shell`, in a file. */
function printedScript(shell: Shell): string {
  const run = spawnSync(process.execPath, [MAIN, 'completion', shell], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  if (run.status !== 0) throw new Error(`payments completion ${shell} exited ${run.status}: ${run.stderr}`);
  const file = join(work, `payments.${shell}`);
  writeFileSync(file, run.stdout);
  return file;
}

/** What bash offers for the last word of `words` once `script` is sourced (COMP_WORDS as bash sets them). */
function bashComplete(script: string, ...words: string[]): string[] {
  const quoted = words.map((word) => `'${word}'`).join(' ');
  const run = spawnSync(
    'bash',
    ['--norc', '-c', `source '${script}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _payments_complete; printf '%s\\n' "\${COMPREPLY[@]}"`],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout.split('\n').filter(Boolean);
}

test('bash: the sourced script completes command words, subcommands and each command’s options', (t) => {
  const script = printedScript('bash');
  t.deepEqual(bashComplete(script, 'payments', 'pay'), ['payment-intents']);
  t.deepEqual(bashComplete(script, 'payments', 'payment-intents', 'cr'), ['create']);
  t.deepEqual(bashComplete(script, 'payments', 'refunds', 'create', '--am'), ['--amount']);
  // Global options complete after any command; the options of other commands do not.
  t.deepEqual(bashComplete(script, 'payments', 'events', 'resend', 'evt_A', '--'), [
    '--forward-to',
    '--json',
    '--profile',
    '--api-key',
    '--api-base',
    '--verbose',
    '--version',
    '--help',
  ]);
  // A value of a global option before the command is not taken for a command word.
  t.deepEqual(bashComplete(script, 'payments', '--profile', 'staging', 'refunds', 'l'), ['list']);
  // After an option that takes a value nothing is offered (the shell's file names are).
  t.deepEqual(bashComplete(script, 'payments', 'wait', 'pi_1', '--status', ''), []);
  t.true(bashComplete(script, 'payments', '').includes('completion'));
  t.true(bashComplete(script, 'payments', '').includes('listen'));
});

test('the script is made from the command list: a program with other commands completes those', (t) => {
  const noop = async () => undefined;
  const program: Program<Command<never>> = {
    name: 'payments',
    description: 'A toy.',
    globalOptions: { json: { type: 'boolean', description: 'JSON.' } },
    commands: [
      {
        name: 'widgets polish',
        summary: "Polish a widget's 'edge': carefully.",
        options: { grit: { type: 'string', description: 'Grit.' } },
        examples: [],
        run: noop,
      },
      { name: 'widgets paint', summary: 'Paint.', examples: [], run: noop },
    ],
    epilogue: [],
  };
  const file = join(work, 'toy.bash');
  writeFileSync(file, completionScript(program, 'bash'));
  t.deepEqual(bashComplete(file, 'payments', 'w'), ['widgets']);
  t.deepEqual(bashComplete(file, 'payments', 'widgets', 'p'), ['polish', 'paint']);
  t.deepEqual(bashComplete(file, 'payments', 'widgets', 'polish', '--g'), ['--grit']);
  t.deepEqual(bashComplete(file, 'payments', ''), ['widgets'], 'only the commands of this program');
  // Quotes in descriptions are escaped for every shell.
  for (const shell of ['zsh', 'fish'] as const) {
    if (!hasShell(shell)) continue;
    const other = join(work, `toy.${shell}`);
    writeFileSync(other, completionScript(program, shell));
    const check = spawnSync(shell, ['-n', other], { encoding: 'utf8' });
    t.is(check.status, 0, `${shell}: ${check.stderr}`);
  }
});

(hasShell('zsh') ? test : test.skip)('zsh: the script registers itself and offers words with their descriptions', (t) => {
  const script = printedScript('zsh');
  // compdef and _describe belong to zsh's completion system; stand-ins record what the script hands them.
  const run = spawnSync(
    'zsh',
    [
      '-fc',
      `compdef() { print "compdef $*" }; source '${script}'
       _describe() { print -l -- \${(P)\${@[-1]}} }; _files() { print FILES }
       words=(payments payment-intents cr); CURRENT=3; _payments
       words=(payments refunds create --am); CURRENT=4; _payments
       words=(payments trigger --file ''); CURRENT=4; _payments`,
    ],
    { encoding: 'utf8' },
  );
  t.is(run.status, 0, run.stderr);
  const lines = run.stdout.split('\n');
  t.is(lines[0], 'compdef _payments payments');
  t.true(lines.includes('create:Create a payment intent (the answer carries checkout_url, only this once).'));
  t.true(lines.some((line) => line.startsWith('--amount:Minor units')));
  t.is(lines.filter(Boolean).at(-1), 'FILES');
});

(hasShell('fish') ? test : test.skip)('fish: complete -C offers the words and options of the command typed', (t) => {
  const script = printedScript('fish');
  const complete = (line: string) => {
    const run = spawnSync('fish', ['--no-config', '-c', `source '${script}'; complete -C '${line}'`], { encoding: 'utf8' });
    t.is(run.status, 0, run.stderr);
    return run.stdout.split('\n').filter(Boolean);
  };
  t.deepEqual(complete('payments payment-intents cr'), ['create\tCreate a payment intent (the answer carries checkout_url, only this once).']);
  t.deepEqual(
    complete('payments refunds create --am').map((line) => line.split('\t')[0]),
    ['--amount'],
  );
  t.deepEqual(complete('payments pay'), ['payment-intents\tpayment-intents commands']);
});

test('completion without a shell it knows is a usage error', (t) => {
  const run = spawnSync(process.execPath, [MAIN, 'completion', 'powershell'], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  t.is(run.status, 2);
  t.is(run.stderr, 'Error: Name the shell: payments completion bash|zsh|fish (not "powershell").\n');
  t.is(run.stdout, '');
  const fromShell = spawnSync(process.execPath, [MAIN, 'completion'], { encoding: 'utf8', env: { PATH: process.env.PATH, SHELL: '/usr/bin/zsh' } });
  t.is(fromShell.status, 0);
  t.true(fromShell.stdout.startsWith('#compdef payments\n'));
});
