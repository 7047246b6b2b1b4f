import type { Metadata, Mode, Refund, RefundFailureCode, RefundReason, RefundStatus } from '@payments/core';
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

export interface RefundRow {
  seq?: BigIntValue;
  id: string;
  merchant_id: string;
  mode: Mode;
  payment_intent_id: string;
  status: RefundStatus;
  amount: BigIntValue;
  currency: string;
  reason: RefundReason | null;
  failure_code: RefundFailureCode | null;
  metadata: string;
  debit_amount: BigIntValue;
  debit_currency: string;
  cleared_amount: BigIntValue | null;
  debited_from: Refund['debitedFrom'];
  channel: string;
  channel_order_id: string;
  channel_refund_id: string | null;
  created_at: BigIntValue;
  updated_at: BigIntValue;
  succeeded_at: BigIntValue | null;
}

export function toRefundRow(refund: Refund): RefundRow {
  return {
    id: refund.id,
    merchant_id: refund.merchantId,
    mode: refund.mode,
    payment_intent_id: refund.paymentIntentId,
    status: refund.status,
    amount: refund.amount,
    currency: refund.currency,
    reason: toNullable(refund.reason),
    failure_code: toNullable(refund.failureCode),
    metadata: JSON.stringify(refund.metadata),
    debit_amount: refund.debit.amount,
    debit_currency: refund.debit.currency,
    cleared_amount: toNullable(refund.cleared?.amount),
    debited_from: refund.debitedFrom,
    channel: refund.channel,
    channel_order_id: refund.channelOrderId,
    channel_refund_id: toNullable(refund.channelRefundId),
    created_at: toMillis(refund.created),
    updated_at: toMillis(refund.updated),
    succeeded_at: toNullableMillis(refund.succeededAt),
  };
}

export function toRefund(row: RefundRow): Refund {
  return withoutUndefined<Refund>({
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode,
    paymentIntentId: row.payment_intent_id,
    status: row.status,
    amount: toNumber(row.amount),
    currency: row.currency,
    reason: toOptional(row.reason),
    failureCode: toOptional(row.failure_code),
    metadata: fromJson<Metadata>(row.metadata),
    debit: { amount: toNumber(row.debit_amount), currency: row.debit_currency },
    cleared: row.cleared_amount === null ? undefined : { amount: toNumber(row.cleared_amount), currency: row.debit_currency },
    debitedFrom: row.debited_from,
    channel: row.channel,
    channelOrderId: row.channel_order_id,
    channelRefundId: toOptional(row.channel_refund_id),
    created: toDate(row.created_at),
    updated: toDate(row.updated_at),
    succeededAt: toOptionalDate(row.succeeded_at),
  });
}
