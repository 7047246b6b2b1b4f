import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import test from 'ava';
import { CliError } from '../src/exit-codes.js';
import { promptSecret, readPipedSecret } from '../src/secret-input.js';

/*
 * `payments login` without the key on the command line: piped in, or typed at a prompt that does
 * not echo. The prompt is tested on stand-in streams and, where util-linux `script` can give the
 * command a real terminal, end to end.
 */

const MAIN = join(__dirname, '..', 'src', 'main.js');
const KEY = 'sk_test_abcdefgh12345678';

/** A stdin that says it is a terminal and records raw mode switches. */
function fakeTerminal() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, modes: [] as boolean[] });
  const terminal = Object.assign(stdin, { setRawMode: (raw: boolean) => stdin.modes.push(raw) });
  let shown = '';
  /** Whether raw mode was on when the prompt was written (a key typed at once is then never echoed). */
  let rawAtPrompt: boolean | undefined;
  const stderr = new PassThrough();
  const write = stderr.write.bind(stderr);
  stderr.write = ((chunk: string) => {
    rawAtPrompt ??= stdin.modes.at(-1) === true;
    return write(chunk);
  }) as typeof stderr.write;
  stderr.on('data', (chunk: Buffer) => (shown += chunk.toString('utf8')));
  return { stdin: terminal, stderr, shown: () => shown, rawAtPrompt: () => rawAtPrompt };
}

test('the prompt reads a line in raw mode and echoes nothing; backspace edits, escape sequences are dropped', async (t) => {
  const terminal = fakeTerminal();
  const answer = promptSecret('Key: ', terminal);
  // A paste arrives bracketed (\x1b[200~ … \x1b[201~) when the terminal does that; a typo is erased.
  terminal.stdin.write('\x1b[200~sk_test_abcdefgh1234567X\x1b[201~');
  terminal.stdin.write('\x7f8\r');
  t.is(await answer, KEY);
  t.is(terminal.shown(), 'Key: \n');
  t.deepEqual(terminal.stdin.modes, [true, false], 'raw mode on, then off again');
  t.true(terminal.rawAtPrompt(), 'raw mode was on before the prompt showed');
});

test('Ctrl-C at the prompt cancels with exit 130 and leaves raw mode', async (t) => {
  const terminal = fakeTerminal();
  const answer = promptSecret('Key: ', terminal);
  terminal.stdin.write('sk_te\x03');
  const error = await t.throwsAsync(answer, { instanceOf: CliError, message: 'Canceled.' });
  t.is(error?.exitCode, 130);
  t.deepEqual(terminal.stdin.modes, [true, false]);
});

test('piped: the first line, trimmed', async (t) => {
  const stdin = new PassThrough();
  stdin.end(`  ${KEY}\r\nsecond line\n`);
  t.is(await readPipedSecret(stdin), KEY);
});

const hasScript = spawnSync('script', ['--version']).status === 0;

/** `payments …args` on a pseudo-terminal (util-linux script); `keys` typed once the prompt shows; all the terminal showed. */
function onTerminal(args: string[], keys: string): Promise<{ code: number | null; screen: string; configDir: string }> {
  const configDir = join(mkdtempSync(join(tmpdir(), 'payments-login-tty-')), 'config');
  const command = [process.execPath, MAIN, ...args].map((word) => `'${word}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { env: { PATH: process.env.PATH, PAYMENTS_CONFIG_DIR: configDir } });
  let screen = '';
  let typed = false;
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString('utf8');
    // Typed only once the prompt shows: before raw mode the terminal itself would echo.
    if (!typed && screen.includes('not shown): ')) {
      typed = true;
      child.stdin.write(keys);
    }
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, screen, configDir })));
}

(hasScript ? test : test.skip)('on a terminal, login prompts and the key typed is not shown', async (t) => {
  const run = await onTerminal(['login', '--skip-verify'], `${KEY}\r`);
  t.is(run.code, 0, run.screen);
  t.true(run.screen.startsWith('API key (sk_test_…, sk_live_…, rk_test_… or rk_live_…, not shown): \r\n'), run.screen);
  t.false(run.screen.includes(KEY), 'the terminal never showed the key');
  t.true(run.screen.includes('sk_test_abcdefgh…'));
  t.regex(readFileSync(join(run.configDir, 'config.json'), 'utf8'), new RegExp(`"api_key": "${KEY}"`));

  const canceled = await onTerminal(['login', '--skip-verify'], 'sk_test_abc\x03');
  t.is(canceled.code, 130, canceled.screen);
  t.false(canceled.screen.includes('sk_test_abc'));
});
