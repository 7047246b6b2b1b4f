import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Structured logs. Known secret-bearing fields are redacted wherever they appear, as a second
 * line of defence: code never logs a key, token, password or full account number on purpose.
 */
export function createLogger(level: string, destination: number = 1): Logger {
  return pino(
    {
    level,
    base: undefined,
    redact: {
      paths: ['authorization', '*.authorization', 'headers.authorization', 'password', '*.password', 'secret', '*.secret', 'token', '*.token'],
      censor: '[redacted]',
    },
  },
    pino.destination({ fd: destination, sync: false }),
  );
}
