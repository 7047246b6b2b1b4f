import { PassThrough } from 'node:stream';
import { createLogger } from '../../src/logger';
import { objectAt, type JsonObject } from './json';

/** A logger writing into memory, and what it wrote so far as parsed lines. */
export function capturedLogger(): { logger: ReturnType<typeof createLogger>; text: () => string; lines: () => JsonObject[] } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return {
    logger: createLogger('info', stream),
    text: () => text,
    lines: () =>
      text
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => objectAt(JSON.parse(line))),
  };
}

/** Lets the logger's stream hand over what it was given (after `logger.flush()`). */
export const flushLogs = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
