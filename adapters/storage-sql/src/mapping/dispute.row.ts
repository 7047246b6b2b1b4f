import type { Dispute, DisputeEvidence, DisputeStatus, Mode } from '@payments/core';
import {
  fromJson,
  moneyColumns,
  toDate,
  toMillis,
  toMoney,
  toNullable,
  toNullableMillis,
  toNumber,
  toOptional,
  toOptionalDate,
  withoutUndefined,
  type BigIntValue,
} from './column-values';

export interface DisputeRow {
  seq?: BigIntValue;
  id: string;
  merchant_id: string;
  mode: Mode;
  payment_intent_id: string;
  status: DisputeStatus;
  amount: BigIntValue;
  currency: string;
  held_amount: BigIntValue | null;
  held_currency: string | null;
  held_from: NonNullable<Dispute['heldFrom']> | null;
  fee_amount: BigIntValue | null;
  fee_currency: string | null;
  reason: string | null;
  evidence: string;
  channel: string;
  channel_dispute_id: string;
  due_by: BigIntValue;
  opened_at: BigIntValue;
  closed_at: BigIntValue | null;
  created_at: BigIntValue;
  updated_at: BigIntValue;
}

export function toDisputeRow(dispute: Dispute): DisputeRow {
  const [heldAmount, heldCurrency] = moneyColumns(dispute.held);
  const [feeAmount, feeCurrency] = moneyColumns(dispute.fee);
  return {
    id: dispute.id,
    merchant_id: dispute.merchantId,
    mode: dispute.mode,
    payment_intent_id: dispute.paymentIntentId,
    status: dispute.status,
    amount: dispute.amount,
    currency: dispute.currency,
    held_amount: heldAmount,
    held_currency: heldCurrency,
    held_from: toNullable(dispute.heldFrom),
    fee_amount: feeAmount,
    fee_currency: feeCurrency,
    reason: toNullable(dispute.reason),
    evidence: JSON.stringify(dispute.evidence),
    channel: dispute.channel,
    channel_dispute_id: dispute.channelDisputeId,
    due_by: toMillis(dispute.dueBy),
    opened_at: toMillis(dispute.openedAt),
    closed_at: toNullableMillis(dispute.closedAt),
    created_at: toMillis(dispute.created),
    updated_at: toMillis(dispute.updated),
  };
}

export function toDispute(row: DisputeRow): Dispute {
  return withoutUndefined<Dispute>({
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode,
    paymentIntentId: row.payment_intent_id,
    status: row.status,
    amount: toNumber(row.amount),
    currency: row.currency,
    held: toMoney(row.held_amount, row.held_currency),
    heldFrom: toOptional(row.held_from),
    fee: toMoney(row.fee_amount, row.fee_currency),
    reason: toOptional(row.reason),
    evidence: fromJson<DisputeEvidence>(row.evidence),
    channel: row.channel,
    channelDisputeId: row.channel_dispute_id,
    dueBy: toDate(row.due_by),
    openedAt: toDate(row.opened_at),
    closedAt: toOptionalDate(row.closed_at),
    created: toDate(row.created_at),
    updated: toDate(row.updated_at),
  });
}
