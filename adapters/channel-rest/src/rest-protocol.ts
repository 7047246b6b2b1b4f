import {
  PAYER_FAILURE_CODES,
  REFUND_FAILURE_CODES,
  STATEMENT_LINE_KINDS,
  type AttemptFailureCode,
  type ChannelStatement,
  type StatementLine,
  type StatementLineKind,
  type NextAction,
  type NextActionType,
  type RefundFailureCode,
} from '@payments/core';

/**
 * Strict readers of the rest protocol's answers (docs/channels/rest.md). They throw
 * `ProtocolViolation`, whose message names the field at fault but never repeats a value the
 * channel sent, so nothing of a channel's answer can leak into our errors or logs.
 */
export class ProtocolViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolViolation';
  }
}

export const ORDER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const CURRENCY_PATTERN = /^[A-Z]{3}$/;
const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]00:00)$/;
const MAX_REFERENCE_LENGTH = 255;
const MAX_QR_DATA_LENGTH = 4096;
const MAX_URL_LENGTH = 2048;

export type ChannelOrderStatusName = 'pending' | 'processing' | 'paid' | 'failed';
const ORDER_STATUSES: readonly ChannelOrderStatusName[] = ['pending', 'processing', 'paid', 'failed'];
const CALLBACK_STATUSES = ['processing', 'paid', 'failed'] as const;
export type CallbackStatusName = (typeof CALLBACK_STATUSES)[number];

/** The failure codes a rest channel may report for a failed order; anything else is our `channel_error`. */
const CHANNEL_FAILURE_CODES: readonly AttemptFailureCode[] = [...PAYER_FAILURE_CODES, 'expired'];

export type JsonObject = Record<string, unknown>;

const isJsonObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A guard for one of a fixed list of values. */
const oneOf =
  <T>(values: readonly T[]) =>
  (value: unknown): value is T =>
    values.some((known) => known === value);

export function parseJsonObject(text: string, what: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProtocolViolation(`The ${what} is not valid JSON.`);
  }
  if (!isJsonObject(value)) throw new ProtocolViolation(`The ${what} is not a JSON object.`);
  return value;
}

function field<T>(object: JsonObject, name: string, check: (value: unknown) => value is T, rule: string): T {
  const value = object[name];
  if (!check(value)) throw new ProtocolViolation(`'${name}' ${rule}.`);
  return value;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isOrderId = (value: unknown): value is string => isString(value) && ORDER_ID_PATTERN.test(value);
const isReference = (value: unknown): value is string => isString(value) && value.length >= 1 && value.length <= MAX_REFERENCE_LENGTH;
const isAmount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
const isCurrency = (value: unknown): value is string => isString(value) && CURRENCY_PATTERN.test(value);
const isOrderStatus = oneOf(ORDER_STATUSES);
const isCallbackStatus = oneOf(CALLBACK_STATUSES);
const isChannelFailureCode = oneOf(CHANNEL_FAILURE_CODES);

/** The fields every order answer and callback carries. */
export interface OrderFields {
  readonly id: string;
  readonly reference: string;
  readonly status: ChannelOrderStatusName;
  readonly amount: number;
  readonly currency: string;
  readonly failureCode?: AttemptFailureCode;
  readonly settledAt?: Date;
}

function readTimestamp(object: JsonObject, name: string): Date {
  const value = field(object, name, isString, 'must be an RFC 3339 UTC timestamp');
  const date = new Date(value);
  if (!RFC3339_UTC.test(value) || Number.isNaN(date.getTime())) throw new ProtocolViolation(`'${name}' must be an RFC 3339 UTC timestamp.`);
  return date;
}

/** A failed order's code: the payer's and `expired` map to ours, an unknown or missing one to `channel_error`. */
function readFailureCode(object: JsonObject): AttemptFailureCode {
  const value = object.failure_code;
  return isChannelFailureCode(value) ? value : 'channel_error';
}

function readOrderFields<Status extends ChannelOrderStatusName>(
  object: JsonObject,
  isStatus: (value: unknown) => value is Status,
): OrderFields & { readonly status: Status } {
  const id = field(object, 'id', isOrderId, 'must be an order id (letters, digits, _ and -, at most 64)');
  const reference = field(object, 'reference', isReference, 'must be a string of 1 to 255 characters');
  const status = field(object, 'status', isStatus, 'is not a status of the protocol');
  const amount = field(object, 'amount', isAmount, 'must be a positive integer of minor units');
  const currency = field(object, 'currency', isCurrency, 'must be an upper-case ISO 4217 code');
  const settledAt = status === 'paid' && object.settled_at !== undefined && object.settled_at !== null ? readTimestamp(object, 'settled_at') : undefined;
  return {
    id,
    reference,
    status,
    amount,
    currency,
    ...(status === 'failed' ? { failureCode: readFailureCode(object) } : {}),
    ...(settledAt ? { settledAt } : {}),
  };
}

/** Reads the query answer (and the void answer, which has its shape). */
export function readOrder(object: JsonObject): OrderFields {
  return readOrderFields(object, isOrderStatus);
}

/** Reads a callback body: an order whose status is one a callback may report. */
export function readCallback(object: JsonObject): OrderFields & { readonly status: CallbackStatusName } {
  return readOrderFields(object, isCallbackStatus);
}

/** An accepted order, or (a repeated create of an order that has failed since) its failure. */
export type CreatedOrder =
  | { readonly id: string; readonly nextAction: NextAction; readonly failureCode?: undefined }
  | { readonly id: string; readonly failureCode: AttemptFailureCode };

/** Reads the create answer and checks it is the order we asked for, with the next action its method needs. */
export function readCreatedOrder(
  object: JsonObject,
  expected: {
    readonly reference: string;
    readonly amount: number;
    readonly currency: string;
    readonly nextAction: NextActionType;
    readonly httpsOnly: boolean;
  },
): CreatedOrder {
  const order = readOrder(object);
  if (order.reference !== expected.reference) throw new ProtocolViolation("'reference' is not the reference we sent.");
  if (order.amount !== expected.amount || order.currency !== expected.currency) {
    throw new ProtocolViolation("'amount' and 'currency' must echo the request.");
  }
  if (order.status === 'failed') return { id: order.id, failureCode: order.failureCode ?? 'channel_error' };
  const nextAction = object.next_action;
  if (!isJsonObject(nextAction)) throw new ProtocolViolation("'next_action' must be an object.");
  if (nextAction.type !== expected.nextAction) throw new ProtocolViolation(`'next_action.type' must be ${expected.nextAction} for this payment method.`);
  if (expected.nextAction === 'qr_code') {
    const qrData = nextAction.qr_data;
    if (!isString(qrData) || qrData.length < 1 || qrData.length > MAX_QR_DATA_LENGTH) {
      throw new ProtocolViolation("'next_action.qr_data' must be a string of 1 to 4096 characters.");
    }
    return { id: order.id, nextAction: { type: 'qr_code', qrData } };
  }
  const url = nextAction.url;
  if (!isString(url) || url.length > MAX_URL_LENGTH || !isWebUrl(url, expected.httpsOnly)) {
    throw new ProtocolViolation(`'next_action.url' must be an absolute ${expected.httpsOnly ? 'https' : 'http(s)'} URL.`);
  }
  return { id: order.id, nextAction: { type: 'redirect', url } };
}

function isWebUrl(value: string, httpsOnly: boolean): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (!httpsOnly && url.protocol === 'http:');
  } catch {
    return false;
  }
}

/** The `error.code` of an error answer, when it has one of the protocol's shape. */
export function readErrorCode(text: string): string | undefined {
  try {
    const object = parseJsonObject(text, 'error answer');
    const error = object.error;
    if (!isJsonObject(error)) return undefined;
    const code = error.code;
    return typeof code === 'string' && /^[a-z0-9_]{1,64}$/.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- disputes (sections 6.1, 9, 10)

export type DisputeStatusName = 'opened' | 'under_review' | 'won' | 'lost';
const DISPUTE_STATUSES: readonly DisputeStatusName[] = ['opened', 'under_review', 'won', 'lost'];
const isDisputeStatus = oneOf(DISPUTE_STATUSES);
const MAX_REASON_LENGTH = 255;

/** The fields of the dispute query answer. */
export interface DisputeFields {
  readonly id: string;
  readonly orderId: string;
  readonly reference: string;
  readonly status: DisputeStatusName;
  readonly amount: number;
  readonly currency: string;
  readonly reason?: string;
}

/** True when a callback body is a dispute notice (`"type": "dispute"`); order callbacks carry no type or `"order"`. */
export function isDisputeNotice(object: JsonObject): boolean {
  return object.type === 'dispute';
}

/** Reads a dispute notice: only which dispute changed; the query says the rest. */
export function readDisputeNotice(object: JsonObject): { readonly id: string } {
  return { id: field(object, 'id', isOrderId, 'must be a dispute id (letters, digits, _ and -, at most 64)') };
}

/** The fields a dispute or a refund answer shares: its id, the order it is about, and what it moves. */
function readOrderClaim(object: JsonObject, idRule: string): { id: string; orderId: string; reference: string; amount: number; currency: string } {
  return {
    id: field(object, 'id', isOrderId, idRule),
    orderId: field(object, 'order_id', isOrderId, 'must be an order id (letters, digits, _ and -, at most 64)'),
    reference: field(object, 'reference', isReference, 'must be a string of 1 to 255 characters'),
    amount: field(object, 'amount', isAmount, 'must be a positive integer of minor units'),
    currency: field(object, 'currency', isCurrency, 'must be an upper-case ISO 4217 code'),
  };
}

/** Reads the dispute query answer (and the evidence answer, which has its shape). */
export function readDispute(object: JsonObject): DisputeFields {
  const claim = readOrderClaim(object, 'must be a dispute id (letters, digits, _ and -, at most 64)');
  const status = field(object, 'status', isDisputeStatus, 'is not a dispute status of the protocol');
  const reason = object.reason;
  // A reason is informative only: a malformed one is dropped rather than failing the query.
  const usableReason = typeof reason === 'string' && reason.length >= 1 && reason.length <= MAX_REASON_LENGTH ? reason : undefined;
  return { ...claim, status, ...(usableReason ? { reason: usableReason } : {}) };
}

// ---------------------------------------------------------------- refunds (section 6.2)

export type RefundStatusName = 'pending' | 'succeeded' | 'failed';
const REFUND_STATUSES: readonly RefundStatusName[] = ['pending', 'succeeded', 'failed'];
const isRefundStatus = oneOf(REFUND_STATUSES);
const isRefundFailureCode = oneOf(REFUND_FAILURE_CODES);

/** The fields of the refund query answer (and of the place answer, which has its shape). */
export interface RefundFields {
  readonly id: string;
  readonly orderId: string;
  readonly reference: string;
  readonly status: RefundStatusName;
  readonly amount: number;
  readonly currency: string;
  readonly failureCode?: RefundFailureCode;
}

/** A decline code of the protocol, or `channel_declined` for any other (or none): a refund has no "channel error" failure. */
export function refundFailureCode(code: unknown): RefundFailureCode {
  return isRefundFailureCode(code) ? code : 'channel_declined';
}

/** True when a callback body is a refund notice (`"type": "refund"`). */
export function isRefundNotice(object: JsonObject): boolean {
  return object.type === 'refund';
}

const REFUND_ID_RULE = 'must be a refund id (letters, digits, _ and -, at most 64)';

/** Reads a refund notice: which refund changed, by the channel's id and our reference; the query says the rest. */
export function readRefundNotice(object: JsonObject): { readonly id: string; readonly reference: string } {
  return {
    id: field(object, 'id', isOrderId, REFUND_ID_RULE),
    reference: field(object, 'reference', isReference, 'must be a string of 1 to 255 characters'),
  };
}

/** Reads the refund query answer. */
export function readRefund(object: JsonObject): RefundFields {
  const claim = readOrderClaim(object, REFUND_ID_RULE);
  const status = field(object, 'status', isRefundStatus, 'is not a refund status of the protocol');
  return { ...claim, status, ...(status === 'failed' ? { failureCode: refundFailureCode(object.failure_code) } : {}) };
}

/** Reads the place answer and checks it is the refund we asked for: same reference, order, amount and currency. */
export function readPlacedRefund(
  object: JsonObject,
  expected: { readonly reference: string; readonly orderId: string; readonly amount: number; readonly currency: string },
): RefundFields {
  const refund = readRefund(object);
  if (refund.reference !== expected.reference) throw new ProtocolViolation("'reference' is not the reference we sent.");
  if (refund.orderId !== expected.orderId) throw new ProtocolViolation("'order_id' is not the order we asked to refund.");
  if (refund.amount !== expected.amount || refund.currency !== expected.currency) {
    throw new ProtocolViolation("'amount' and 'currency' must echo the request.");
  }
  return refund;
}

/** The statement's line types (section 6.3) and ours: a `chargeback` line is keyed by its dispute id. */
const STATEMENT_TYPES: readonly StatementLineKind[] = STATEMENT_LINE_KINDS;
const isStatementType = oneOf(STATEMENT_TYPES);
const isSignedAmount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value !== 0;
const isCursor = (value: unknown): value is string => isString(value) && value.length >= 1 && value.length <= MAX_REFERENCE_LENGTH;
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

/**
 * Reads a statement page (`GET /v1/statement`): at most `limit` lines, each of a known type with
 * the channel's id, our reference, a non-zero integer amount, its currency and time. A
 * chargeback's reference, for us, is its dispute id (`id`); the order's reference it carries is
 * not needed to match it.
 */
export function readStatement(object: JsonObject, limit: number): ChannelStatement {
  const lines = object.lines;
  if (!Array.isArray(lines) || lines.length > limit) throw new ProtocolViolation(`'lines' must be an array of at most ${limit} lines.`);
  const read = lines.map((line: unknown, index): StatementLine => {
    if (!isJsonObject(line)) throw new ProtocolViolation(`'lines[${index}]' must be an object.`);
    const kind = field(line, 'type', isStatementType, 'is not a statement line type of the protocol');
    const id = field(line, 'id', isOrderId, 'must be an id (letters, digits, _ and -, at most 64)');
    const reference = field(line, 'reference', isReference, 'must be a string of 1 to 255 characters');
    const amount = field(line, 'amount', isSignedAmount, 'must be a non-zero integer of minor units');
    const currency = field(line, 'currency', isCurrency, 'must be an upper-case ISO 4217 code');
    const occurredAt = readTimestamp(line, 'occurred_at');
    return { kind, reference: kind === 'chargeback' ? id : reference, channelId: id, amount, currency, occurredAt };
  });
  return {
    lines: read,
    next: field(object, 'next_cursor', isCursor, 'must be a string of 1 to 255 characters'),
    hasMore: field(object, 'has_more', isBoolean, 'must be true or false'),
    asOf: readTimestamp(object, 'as_of'),
  };
}
