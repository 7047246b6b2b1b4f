import type { FxLock, FxLockPoint, Metadata, Mode, NextAction, NextActionType, PaymentIntent, PaymentIntentStatus } from '@payments/core';
import { merchantOrderSearchKey } from '@payments/core';
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

export interface PaymentIntentRow {
  seq?: BigIntValue;
  id: string;
  merchant_id: string;
  mode: Mode;
  amount: BigIntValue;
  currency: string;
  merchant_order_id: string;
  /** `merchantOrderSearchKey(merchant_order_id)`: what a search matches a prefix of (migration 025). */
  merchant_order_key?: string;
  status: PaymentIntentStatus;
  payment_method: string | null;
  channel_preference: string | null;
  description: string | null;
  customer: string | null;
  return_url: string | null;
  metadata: string;
  fee_amount: BigIntValue | null;
  fee_currency: string | null;
  net_amount: BigIntValue | null;
  net_currency: string | null;
  amount_refunded?: BigIntValue;
  fx: string | null;
  next_action: string | null;
  available_at: BigIntValue | null;
  released_at?: BigIntValue | null;
  settlement_id?: string | null;
  expires_at: BigIntValue | null;
  created_at: BigIntValue;
  updated_at: BigIntValue;
  version: number;
}

/** FX lock as stored in its JSON column: the lock time as epoch ms. */
interface StoredFx {
  locked: boolean;
  lockPoint?: FxLockPoint;
  rate?: string;
  quoteCurrency?: string;
  lockedAt?: number;
}

interface StoredNextAction {
  type: NextActionType;
  url?: string;
  qrData?: string;
}

function fxToJson(fx: FxLock | undefined): string | null {
  if (fx === undefined) return null;
  const stored: StoredFx = { ...fx, lockedAt: fx.lockedAt?.getTime() };
  return JSON.stringify(stored);
}

function fxFromJson(json: string | null): FxLock | undefined {
  if (json === null) return undefined;
  const stored = fromJson<StoredFx>(json);
  return withoutUndefined({ ...stored, lockedAt: stored.lockedAt === undefined ? undefined : new Date(stored.lockedAt) });
}

function nextActionFromJson(json: string | null): NextAction | undefined {
  return json === null ? undefined : fromJson<StoredNextAction>(json);
}

/** Every column of an intent except `seq`, which the database assigns. */
export function toPaymentIntentRow(intent: PaymentIntent): PaymentIntentRow {
  const [feeAmount, feeCurrency] = moneyColumns(intent.fee);
  const [netAmount, netCurrency] = moneyColumns(intent.net);
  return {
    id: intent.id,
    merchant_id: intent.merchantId,
    mode: intent.mode,
    amount: intent.amount,
    currency: intent.currency,
    merchant_order_id: intent.merchantOrderId,
    merchant_order_key: merchantOrderSearchKey(intent.merchantOrderId),
    status: intent.status,
    payment_method: toNullable(intent.paymentMethod),
    channel_preference: toNullable(intent.channelPreference),
    description: toNullable(intent.description),
    customer: toNullable(intent.customer),
    return_url: toNullable(intent.returnUrl),
    metadata: JSON.stringify(intent.metadata),
    fee_amount: feeAmount,
    fee_currency: feeCurrency,
    net_amount: netAmount,
    net_currency: netCurrency,
    amount_refunded: intent.amountRefunded ?? 0,
    fx: fxToJson(intent.fx),
    next_action: intent.nextAction === undefined ? null : JSON.stringify(intent.nextAction),
    available_at: toNullableMillis(intent.availableAt),
    released_at: toNullableMillis(intent.releasedAt),
    settlement_id: toNullable(intent.settlementId),
    expires_at: toNullableMillis(intent.expiresAt),
    created_at: toMillis(intent.created),
    updated_at: toMillis(intent.updated),
    version: intent.version,
  };
}

export function toPaymentIntent(row: PaymentIntentRow): PaymentIntent {
  return withoutUndefined({
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode,
    amount: toNumber(row.amount),
    currency: row.currency,
    merchantOrderId: row.merchant_order_id,
    status: row.status,
    paymentMethod: toOptional(row.payment_method),
    channelPreference: toOptional(row.channel_preference),
    description: toOptional(row.description),
    customer: toOptional(row.customer),
    returnUrl: toOptional(row.return_url),
    metadata: fromJson<Metadata>(row.metadata),
    fee: toMoney(row.fee_amount, row.fee_currency),
    net: toMoney(row.net_amount, row.net_currency),
    amountRefunded: row.amount_refunded === undefined ? undefined : toNumber(row.amount_refunded) || undefined,
    fx: fxFromJson(row.fx),
    nextAction: nextActionFromJson(row.next_action),
    availableAt: toOptionalDate(row.available_at),
    releasedAt: toOptionalDate(row.released_at ?? null),
    settlementId: toOptional(row.settlement_id ?? null),
    expiresAt: toOptionalDate(row.expires_at),
    created: toDate(row.created_at),
    updated: toDate(row.updated_at),
    version: row.version,
  });
}
