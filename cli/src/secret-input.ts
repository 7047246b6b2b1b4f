import { CliError } from './exit-codes.js';

/** The streams a secret is read from and prompted on; process.stdin/stderr, or stand-ins in tests. */
export interface SecretStreams {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  stderr: NodeJS.WritableStream;
}

/** More than any key; what is beyond it is not a key, and is not kept in memory. */
const MAX_INPUT = 4096;

/** The first line of everything piped in (`echo sk_test_… | payments login --stdin`), trimmed. */
export async function readPipedSecret(stdin: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stdin) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (text.length > MAX_INPUT) break;
  }
  return (text.split(/\r?\n/)[0] ?? '').trim();
}

/**
 * Prompts on stderr and reads one line from a terminal in raw mode, so nothing typed or pasted is
 * echoed (nor kept in the terminal's scrollback). Backspace edits; Ctrl-C cancels with exit 130,
 * as an interrupted command does; escape sequences (a paste's bracketing, arrow keys) are dropped.
 */
export function promptSecret(prompt: string, { stdin, stderr }: SecretStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let value = '';
    let escape = false;
    const finish = (error?: Error) => {
      stdin.removeListener('data', onData);
      stdin.removeListener('end', onEnd);
      stdin.setRawMode?.(false);
      stdin.pause();
      stderr.write('\n');
      if (error) reject(error);
      else resolve(value.trim());
    };
    const onEnd = () => finish();
    const onData = (chunk: Buffer | string) => {
      for (const char of typeof chunk === 'string' ? chunk : chunk.toString('utf8')) {
        if (escape) {
          // CSI sequences end at a letter or `~`: `\x1b[200~` (paste start), `\x1b[D` (left arrow).
          if (/[A-Za-z~]/.test(char)) escape = false;
          continue;
        }
        if (char === '\x1b') escape = true;
        else if (char === '\r' || char === '\n' || char === '\x04') return finish();
        else if (char === '\x03') return finish(new CliError('Canceled.', 130));
        else if (char === '\x7f' || char === '\b') value = value.slice(0, -1);
        else if (char >= ' ' && value.length < MAX_INPUT) value += char;
      }
    };
    // Raw mode before the prompt: a key typed (or pasted) the moment the prompt shows must never be echoed.
    stdin.setRawMode?.(true);
    stderr.write(prompt);
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.resume();
  });
}
