import type { ChannelStatement, StatementLine, StatementQuery } from '@payments/core';
import type Omise from 'omise';
import type { OmiseClient } from './omise-api';
import { scopedId, scopedRefundId } from './omise-ids';
import { TRANSACTION_KEYS, UnmappedOmiseValue, mapped, type TransactionMovement } from './omise-mapping';

/** One merchant's Omise account, as the statement reads it. */
export interface OmiseAccount {
  readonly merchantId: string;
  readonly omise: OmiseClient;
  /** Every call goes through it (the adapter's timeout). */
  readonly call: <T>(run: () => Promise<T>) => Promise<T>;
}

/** Omise's largest page. */
const PAGE = 100;

/** The statement's cursor: how many of each account's transactions were read. */
type Cursor = Record<string, number>;

function readCursor(after: string | undefined): Cursor {
  if (after === undefined || after === '') return {};
  try {
    const parsed: unknown = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const entries = Object.entries(parsed);
      if (entries.every(([, value]) => Number.isSafeInteger(value) && Number(value) >= 0)) {
        return Object.fromEntries(entries.map(([merchant, value]) => [merchant, Number(value)]));
      }
    }
  } catch {
    // falls through: a cursor this channel did not make
  }
  throw new UnmappedOmiseValue('statement cursor', after.slice(0, 16));
}

const writeCursor = (cursor: Cursor): string => Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');

/**
 * A page of the statement over every merchant's account: each account's transactions after its
 * cursor, oldest first, account after account, at most `query.limit` transactions. Omise lists
 * transactions oldest first by offset and never removes one, so the cursor is how many were read.
 */
export async function readStatement(accounts: readonly OmiseAccount[], query: StatementQuery, asOf: Date): Promise<ChannelStatement> {
  const cursor = readCursor(query.after);
  const lines: StatementLine[] = [];
  let remaining = Math.max(1, Math.floor(query.limit));
  let hasMore = false;
  for (const account of accounts) {
    if (remaining === 0) {
      hasMore = true;
      break;
    }
    const offset = cursor[account.merchantId] ?? 0;
    const page = await account.call(() => account.omise.transactions.list({ offset, limit: Math.min(remaining, PAGE), order: 'chronological' }));
    for (const transaction of page.data) {
      lines.push(...(await linesOf(account, transaction)));
    }
    cursor[account.merchantId] = offset + page.data.length;
    remaining -= page.data.length;
    hasMore ||= page.total > offset + page.data.length;
  }
  return { lines, next: writeCursor(cursor), hasMore, asOf };
}

/** A transaction's statement lines: the movement (`TRANSACTION_KEYS`) and, for a payment, Omise's fee. */
async function linesOf(account: OmiseAccount, transaction: Omise.Transactions.ITransaction): Promise<StatementLine[]> {
  const movement: TransactionMovement = mapped('transaction key', TRANSACTION_KEYS, `${transaction.key}:${transaction.direction}`);
  if (movement.kind === 'none') return [];
  const currency = transaction.currency.toUpperCase();
  const occurredAt = new Date(transaction.created_at);
  if (movement.source === 'dispute') {
    const id = scopedId(account.merchantId, transaction.origin);
    return [{ kind: movement.kind, reference: id, channelId: id, amount: movement.sign * transaction.amount, currency, occurredAt }];
  }
  if (movement.source === 'refund') {
    const found = await account.call(() => account.omise.search.list({ scope: 'refund', query: transaction.origin }));
    const refund = found.data.find((candidate) => candidate.id === transaction.origin);
    const reference: unknown = refund?.metadata?.['reference'];
    if (!refund || typeof reference !== 'string') throw new UnmappedOmiseValue('refund this service did not make', transaction.origin);
    const channelId = scopedRefundId(account.merchantId, refund.charge, refund.id);
    return [{ kind: 'refund', reference, channelId, amount: movement.sign * transaction.amount, currency, occurredAt }];
  }
  const charge = await account.call(() => account.omise.charges.retrieve(transaction.origin));
  const reference: unknown = charge.metadata['reference'];
  if (typeof reference !== 'string' || reference === '') throw new UnmappedOmiseValue('charge this service did not make', transaction.origin);
  const channelId = scopedId(account.merchantId, charge.id);
  // Omise credits the charge's net (its fee and the fee's VAT already taken): the payment line is
  // what the payer paid, and the difference is Omise's fee.
  const fee = charge.amount - transaction.amount;
  const lines: StatementLine[] = [{ kind: 'payment', reference, channelId, amount: movement.sign * charge.amount, currency, occurredAt }];
  if (fee !== 0) lines.push({ kind: 'fee', reference, channelId: scopedId(account.merchantId, transaction.id), amount: fee, currency, occurredAt });
  return lines;
}
