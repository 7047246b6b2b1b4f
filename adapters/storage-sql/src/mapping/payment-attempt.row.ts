import type { AttemptFailureCode, Mode, NextAction, PaymentAttempt, PaymentAttemptStatus } from '@payments/core';
import {
  fromJson,
  toDate,
  toMillis,
  toNullable,
  toNullableMillis,
  toNumber,
  toOptional,
  toOptionalDate,
  withoutUndefined,
  type BigIntValue,
} from './column-values';

export interface PaymentAttemptRow {
  seq?: BigIntValue;
  id: string;
  payment_intent_id: string;
  merchant_id: string;
  mode: Mode;
  status: PaymentAttemptStatus;
  amount: BigIntValue;
  currency: string;
  payment_method: string;
  channel: string;
  channel_order_id: string | null;
  next_action: string | null;
  failure_code: AttemptFailureCode | null;
  failure_message: string | null;
  succeeded_at: BigIntValue | null;
  duplicate_of: string | null;
  next_check_at: BigIntValue | null;
  created_at: BigIntValue;
  updated_at: BigIntValue;
  version: number;
  /** 1 on an attempt created pending until it is not (migration 020); no field of the entity. */
  pending_slot?: number | null;
}

export function toPaymentAttemptRow(attempt: PaymentAttempt): PaymentAttemptRow {
  return {
    id: attempt.id,
    payment_intent_id: attempt.paymentIntentId,
    merchant_id: attempt.merchantId,
    mode: attempt.mode,
    status: attempt.status,
    amount: attempt.amount,
    currency: attempt.currency,
    payment_method: attempt.paymentMethod,
    channel: attempt.channel,
    channel_order_id: toNullable(attempt.channelOrderId),
    next_action: attempt.nextAction === undefined ? null : JSON.stringify(attempt.nextAction),
    failure_code: toNullable(attempt.failureCode),
    failure_message: toNullable(attempt.failureMessage),
    succeeded_at: toNullableMillis(attempt.succeededAt),
    duplicate_of: toNullable(attempt.duplicateOf),
    next_check_at: toNullableMillis(attempt.nextCheckAt),
    created_at: toMillis(attempt.created),
    updated_at: toMillis(attempt.updated),
    version: attempt.version,
  };
}

export function toPaymentAttempt(row: PaymentAttemptRow): PaymentAttempt {
  return withoutUndefined({
    id: row.id,
    paymentIntentId: row.payment_intent_id,
    merchantId: row.merchant_id,
    mode: row.mode,
    status: row.status,
    amount: toNumber(row.amount),
    currency: row.currency,
    paymentMethod: row.payment_method,
    channel: row.channel,
    channelOrderId: toOptional(row.channel_order_id),
    nextAction: row.next_action === null ? undefined : fromJson<NextAction>(row.next_action),
    failureCode: toOptional(row.failure_code),
    failureMessage: toOptional(row.failure_message),
    succeededAt: toOptionalDate(row.succeeded_at),
    duplicateOf: toOptional(row.duplicate_of),
    nextCheckAt: toOptionalDate(row.next_check_at),
    created: toDate(row.created_at),
    updated: toDate(row.updated_at),
    version: row.version,
  });
}
