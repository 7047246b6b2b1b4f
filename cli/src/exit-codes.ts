import {
  ApiConnectionError,
  AuthenticationError,
  ConflictError,
  IdempotencyError,
  InvalidRequestError,
  NotFoundError,
  PaymentFailedError,
  PaymentsError,
  PermissionError,
  RateLimitError,
} from '@payments/sdk';
import { constants } from 'node:os';
import { CliError, COMMON_EXIT } from './command-line/index.js';

export { CliError, UsageError } from './command-line/index.js';

/**
 * Exit codes, one per error category, so scripts can branch on `$?` without parsing stderr.
 * They are part of the CLI's interface (documented in cli/README.md): never renumber them.
 */
export const EXIT = {
  ok: COMMON_EXIT.ok,
  /** The API failed (5xx, an answer that is not the API's) or a delivery was refused. */
  apiError: 1,
  /** The command line is wrong: unknown command or option, a missing or malformed value. */
  usage: COMMON_EXIT.usage,
  /** 401/403: no key, a bad key, or a key that may not do this (live key on a test route …). */
  authentication: 3,
  /** 400/402/413: a parameter the API refused, or a payment the channel refused. */
  invalidRequest: 4,
  /** 404: no such object for this key. */
  notFound: 5,
  /** 409/422: state conflict or Idempotency-Key reuse. */
  conflict: 6,
  /** 429 after the SDK's own retries. */
  rateLimited: 7,
  /** The API (or a --forward-to receiver) could not be reached or did not answer in time. */
  connection: 8,
  /** `wait` (or a trigger's wait step) ran out of time or the object can no longer get there. */
  waitFailed: 9,
  /** Ctrl-C (SIGINT): 128 + 2, as a shell reports a command the signal ended. */
  interrupted: 130,
} as const;

/** What a signal that stopped a command makes it exit with: 128 + the signal's number (130 for SIGINT, 143 for SIGTERM). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

export function exitCodeOf(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof AuthenticationError || error instanceof PermissionError) return EXIT.authentication;
  if (error instanceof InvalidRequestError || error instanceof PaymentFailedError) return EXIT.invalidRequest;
  if (error instanceof NotFoundError) return EXIT.notFound;
  if (error instanceof ConflictError || error instanceof IdempotencyError) return EXIT.conflict;
  if (error instanceof RateLimitError) return EXIT.rateLimited;
  if (error instanceof ApiConnectionError) return EXIT.connection;
  return EXIT.apiError;
}

/** The `code` of an error the CLI itself detected, by its exit code; the API's own codes are kept as they are. */
const CLI_ERROR_CODES: Readonly<Record<number, string>> = {
  [EXIT.apiError]: 'api_error',
  [EXIT.usage]: 'usage',
  [EXIT.authentication]: 'authentication_required',
  [EXIT.notFound]: 'resource_not_found',
  [EXIT.connection]: 'connection_error',
  [EXIT.waitFailed]: 'wait_failed',
};

export interface ErrorEnvelope {
  error: { code: string; message: string; param?: string; request_id?: string };
}

/**
 * The error in the API's envelope (`{error: {code, message, param?, request_id?}}`), what `--json`
 * prints on stderr: a script parses one shape whether the API or the CLI refused.
 */
export function errorEnvelope(error: unknown): ErrorEnvelope {
  const message = error instanceof Error ? oneLine(error.message) : oneLine(String(error));
  if (error instanceof PaymentsError) {
    return {
      error: {
        code: error.code ?? CLI_ERROR_CODES[exitCodeOf(error)] ?? 'api_error',
        message,
        ...(error.param ? { param: error.param } : {}),
        ...(error.requestId ? { request_id: error.requestId } : {}),
      },
    };
  }
  const exitCode = exitCodeOf(error);
  return { error: { code: exitCode >= 128 ? 'interrupted' : (CLI_ERROR_CODES[exitCode] ?? 'cli_error'), message } };
}

/** One line for stderr: the message, then what support needs (code, status, request id, param). */
export function describeError(error: unknown): string {
  if (error instanceof PaymentsError) {
    const details = [
      error.code && `code ${error.code}`,
      error.statusCode && `status ${error.statusCode}`,
      error.param && `param ${error.param}`,
      error.requestId && `request ${error.requestId}`,
    ].filter(Boolean);
    return oneLine(`Error: ${error.message}${details.length ? ` (${details.join(', ')})` : ''}`);
  }
  if (error instanceof Error) return oneLine(`Error: ${error.message}`);
  return oneLine(`Error: ${String(error)}`);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}
