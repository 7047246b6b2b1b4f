import pino, { type Logger } from 'pino';
import { REDACTED, redactionPaths } from './redaction';

export type { Logger };

/**
 * Structured logs. Every logger of the service is made here, so all of them censor the shared
 * redaction list (./redaction): a second line of defence, code never logs a secret on purpose.
 */
export function createLogger(level: string, destination: number | NodeJS.WritableStream = 1): Logger {
  const stream = typeof destination === 'number' ? pino.destination({ fd: destination, sync: false }) : destination;
  return pino({ level, base: undefined, redact: { paths: redactionPaths(), censor: REDACTED } }, stream);
}
