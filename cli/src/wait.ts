import type { PaymentIntent, PaymentIntentStatus, Payments, Refund, RefundStatus } from '@payments/sdk';
import { CliError, EXIT } from './exit-codes.js';
import type { Output } from './output.js';
import { sleep } from './values.js';

/** The happy path in order: reaching a later step counts as having passed an earlier one. */
const PROGRESSION: readonly PaymentIntentStatus[] = ['created', 'requires_payment', 'processing', 'succeeded', 'channel_settled'];
/** Statuses an intent never leaves. */
const FINAL: readonly PaymentIntentStatus[] = ['canceled', 'expired'];

/**
 * Whether `status` satisfies a wait for `wanted`. `succeeded` is also met by `channel_settled`:
 * in test mode the simulator settles on the very next tick, and a poll may never see the
 * intent in between.
 */
export function reached(status: PaymentIntentStatus, wanted: readonly PaymentIntentStatus[]): boolean {
  return wanted.some((target) => {
    if (status === target) return true;
    const at = PROGRESSION.indexOf(target);
    return at >= PROGRESSION.indexOf('succeeded') && PROGRESSION.indexOf(status) > at;
  });
}

export interface WaitOptions {
  timeoutMs: number;
  out: Output;
  signal?: AbortSignal;
}

/**
 * Polls the intent until its status satisfies `wanted`, with backoff from 250 ms to 2 s.
 * Fails with exit 9 on timeout, or at once when the intent reached a final status it cannot leave.
 */
export function waitForIntent(client: Payments, id: string, wanted: readonly PaymentIntentStatus[], options: WaitOptions): Promise<PaymentIntent> {
  return waitForStatus(() => client.paymentIntents.retrieve(id), id, wanted, { ...options, reached, final: (status) => FINAL.includes(status) });
}

/** Polls the refund until its status is one of `wanted`; a refund that ended otherwise (succeeded or failed are final) fails with exit 9. */
export function waitForRefund(client: Payments, id: string, wanted: readonly RefundStatus[], options: WaitOptions): Promise<Refund> {
  return waitForStatus(() => client.refunds.retrieve(id), id, wanted, {
    ...options,
    reached: (status, targets) => targets.includes(status),
    final: (status) => status !== 'pending',
  });
}

interface StatusRules<S extends string> {
  reached: (status: S, wanted: readonly S[]) => boolean;
  /** A status the object never leaves. */
  final: (status: S) => boolean;
}

async function waitForStatus<S extends string, T extends { status: S }>(
  read: () => Promise<T>,
  id: string,
  wanted: readonly S[],
  options: WaitOptions & StatusRules<S>,
): Promise<T> {
  const started = Date.now();
  let delay = 250;
  const label = wanted.join(' or ');
  try {
    for (;;) {
      const object = await read();
      if (options.reached(object.status, wanted)) return object;
      if (options.final(object.status)) throw new CliError(`${id} is ${object.status} and can no longer become ${label}.`, EXIT.waitFailed);
      const elapsed = Date.now() - started;
      if (elapsed >= options.timeoutMs) {
        throw new CliError(`Timed out after ${formatMs(options.timeoutMs)}: ${id} is ${object.status}, not ${label}.`, EXIT.waitFailed);
      }
      if (options.signal?.aborted) throw new CliError(`Stopped while waiting: ${id} is ${object.status}.`, EXIT.waitFailed);
      options.out.progress(`Waiting for ${id} to be ${label}: ${object.status} (${Math.floor(elapsed / 1000)} s)`);
      await sleep(Math.min(delay, options.timeoutMs - elapsed), options.signal);
      delay = Math.min(delay * 1.5, 2000);
    }
  } finally {
    options.out.endProgress();
  }
}

export function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}
