import type { DestinationVerification, PayoutResult } from '@payments/core';

/**
 * Reading the provider's answers (docs/payouts/rest.md). Anything that does not match the
 * protocol is `undefined`: the caller treats it as no answer, never as a decision about money.
 */

const REASON = /^[a-z0-9_]{1,64}$/;

type Json = Record<string, unknown>;

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseObject(body: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return isJson(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A reason code the provider gave, if it is a plain code (free text could carry account details). */
function reasonOf(value: unknown): string | undefined {
  return typeof value === 'string' && REASON.test(value) ? value : undefined;
}

export function parseVerification(body: string): DestinationVerification | undefined {
  const answer = parseObject(body);
  if (answer?.status === 'verified') return { status: 'verified' };
  if (answer?.status === 'rejected') {
    const reason = reasonOf(answer.reason);
    return reason === undefined ? { status: 'rejected' } : { status: 'rejected', reason };
  }
  return undefined;
}

/**
 * A payout object; it must name the reference asked about and echo the amount and currency
 * sent (when they are known), so an answer about another payout is never taken for ours.
 */
export function parsePayout(body: string, expected: { reference: string; amount?: number; currency?: string }): PayoutResult | undefined {
  const answer = parseObject(body);
  if (!answer || answer.reference !== expected.reference) return undefined;
  if (expected.amount !== undefined && (!Number.isSafeInteger(answer.amount) || answer.amount !== expected.amount)) return undefined;
  if (expected.currency !== undefined && answer.currency !== expected.currency) return undefined;
  switch (answer.status) {
    case 'paid':
    case 'processing':
      return { status: answer.status };
    case 'failed':
      return { status: 'failed', failureReason: reasonOf(answer.failure_code) ?? 'payout_failed' };
    default:
      return undefined;
  }
}

/** The `error.code` of an error body, if it has one we can use. */
export function errorCodeOf(body: string): string | undefined {
  const error = parseObject(body)?.error;
  return isJson(error) ? reasonOf(error.code) : undefined;
}
