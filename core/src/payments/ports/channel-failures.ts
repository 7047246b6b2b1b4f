import type { Mode } from '../../common';
import { CoreError } from '../../common';
import type { AttemptFailureCode } from '../domain/payment-attempt.entity';
import type { PlaceOrderResult } from './payment-channel.port';

/**
 * The channel could not do what it was asked (unreachable, timed out, an answer that cannot be
 * used): the caller retries later, nothing is guessed.
 */
export function channelError(message: string, cause?: unknown): CoreError {
  return new CoreError('channel_error', 'unavailable', message, cause === undefined ? {} : { cause });
}

/** A callback the channel's rules refuse (signature, contradicted by the query, not ours): 400, it changes nothing. */
export function invalidCallback(message: string): CoreError {
  return new CoreError('invalid_callback', 'validation', message);
}

/** An order the channel refused, with the attempt's failure code. */
export function refusedOrder(failureCode: AttemptFailureCode, message: string): PlaceOrderResult {
  return { outcome: 'refused', failureCode, message };
}

/** Where an adapter reports a failed call: the service's logger, which censors secrets. */
export interface ChannelLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

/** What an adapter makes of a provider's failure: fields safe to log, and the message of the error it becomes. */
export interface ProviderFailure {
  /** Types, codes and request ids only: never the provider's message, which may echo input. */
  readonly fields: Readonly<Record<string, unknown>>;
  readonly message: string;
  /** Kept as the error's cause when it explains the failure to an operator (an unmapped value). */
  readonly cause?: unknown;
}

/**
 * The calls a provider adapter makes (`run`): a `CoreError` passes through as it is; any other
 * failure is logged once, with what `describe` chose to say about it, and becomes `channel_error`.
 */
export class ChannelCalls {
  constructor(
    private readonly channel: string,
    /** `what` names the operation in words (`retrieve charge`). */
    private readonly describe: (error: unknown, what: string) => ProviderFailure,
    private readonly logger?: ChannelLogger,
  ) {}

  async run<T>(mode: Mode, operation: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw this.failure(mode, operation, error);
    }
  }

  /** The error a failed call becomes (`operation` in snake case, as logged). */
  failure(mode: Mode, operation: string, error: unknown): CoreError {
    if (error instanceof CoreError) return error;
    const failure = this.report(mode, operation, error);
    return channelError(failure.message, failure.cause);
  }

  /**
   * Logs a failed call and says what it was, for a failure the adapter answers in its own way (a
   * refused order); `what` names it in the message (default: the operation in words).
   */
  report(mode: Mode, operation: string, error: unknown, what = operation.replace(/_/g, ' ')): ProviderFailure {
    const failure = this.describe(error, what);
    this.logger?.warn({ channel: this.channel, mode, operation, ...failure.fields }, `${this.channel} channel call failed`);
    return failure;
  }
}
