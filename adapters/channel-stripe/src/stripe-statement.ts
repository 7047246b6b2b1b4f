import type { ChannelStatement, StatementLine, StatementQuery } from '@payments/core';
import type Stripe from 'stripe';
import { scopedId } from './stripe-ids';
import { BALANCE_TRANSACTION_TYPES, UnmappedStripeValue, mapped, type BalanceMovement } from './stripe-mapping';

/** One merchant's Stripe account, as the statement reads it. */
export interface StripeAccount {
  readonly merchantId: string;
  readonly stripe: Stripe;
}

/** Stripe's largest page. */
const PAGE = 100;
/** The most pages read back from the newest to find the oldest, on a first read of an account. */
const MAX_BACKWARD_PAGES = 100;

/** The statement's cursor: each account's last balance transaction read. */
type Cursor = Record<string, string>;

function readCursor(after: string | undefined): Cursor {
  if (after === undefined || after === '') return {};
  try {
    const parsed: unknown = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const entries = Object.entries(parsed);
      if (entries.every(([, value]) => typeof value === 'string')) return Object.fromEntries(entries.map(([merchant, value]) => [merchant, String(value)]));
    }
  } catch {
    // falls through: a cursor this channel did not make
  }
  throw new UnmappedStripeValue('statement cursor', after.slice(0, 16));
}

const writeCursor = (cursor: Cursor): string => Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');

/**
 * A page of the statement over every merchant's account: each account's balance transactions after
 * its cursor, oldest first, account after account, at most `query.limit` transactions. Stripe lists
 * newest first, so an account read for the first time is read back to its oldest transaction.
 */
export async function readStatement(accounts: readonly StripeAccount[], query: StatementQuery, asOf: Date): Promise<ChannelStatement> {
  const cursor = readCursor(query.after);
  const lines: StatementLine[] = [];
  let remaining = Math.max(1, Math.floor(query.limit));
  let hasMore = false;
  for (const account of accounts) {
    if (remaining === 0) {
      hasMore = true;
      break;
    }
    const { transactions, more } = await newTransactions(account.stripe, cursor[account.merchantId], remaining);
    for (const transaction of transactions) {
      lines.push(...(await linesOf(account, transaction)));
      cursor[account.merchantId] = transaction.id;
    }
    remaining -= transactions.length;
    hasMore ||= more;
  }
  return { lines, next: writeCursor(cursor), hasMore, asOf };
}

const EXPAND = ['data.source'];

/** Up to `limit` transactions after `after`, oldest first, and whether more wait. */
async function newTransactions(
  stripe: Stripe,
  after: string | undefined,
  limit: number,
): Promise<{ transactions: Stripe.BalanceTransaction[]; more: boolean }> {
  if (after !== undefined) {
    // `ending_before` answers the transactions right after the cursor, newest first.
    const page = await stripe.balanceTransactions.list({ ending_before: after, limit: Math.min(limit, PAGE), expand: EXPAND });
    return { transactions: [...page.data].reverse(), more: page.has_more };
  }
  const newestFirst: Stripe.BalanceTransaction[] = [];
  let startingAfter: string | undefined;
  for (let pages = 0; pages < MAX_BACKWARD_PAGES; pages++) {
    const page = await stripe.balanceTransactions.list({ limit: PAGE, expand: EXPAND, ...(startingAfter ? { starting_after: startingAfter } : {}) });
    newestFirst.push(...page.data);
    const last = page.data.at(-1);
    if (!page.has_more || !last) break;
    startingAfter = last.id;
  }
  const oldestFirst = newestFirst.reverse();
  return { transactions: oldestFirst.slice(0, limit), more: oldestFirst.length > limit };
}

/** A balance transaction's statement lines: the movement (`BALANCE_TRANSACTION_TYPES`) and its fee. */
async function linesOf(account: StripeAccount, transaction: Stripe.BalanceTransaction): Promise<StatementLine[]> {
  const key = transaction.type === 'adjustment' ? `adjustment:${transaction.reporting_category}` : transaction.type;
  const movement: BalanceMovement = mapped('balance transaction type', BALANCE_TRANSACTION_TYPES, key);
  if (movement.kind === 'none') return [];
  // The statement is in the currency the payer paid; a converted transaction would not be.
  if (transaction.exchange_rate !== null) throw new UnmappedStripeValue('converted balance transaction', transaction.id);
  const currency = transaction.currency.toUpperCase();
  const occurredAt = new Date(transaction.created * 1000);
  const source = transaction.source;
  if (source === null || typeof source === 'string') throw new UnmappedStripeValue('balance transaction without its source', transaction.id);
  const { reference, channelId } = await identify(account, movement.source, source);
  const lines: StatementLine[] = [{ kind: movement.kind, reference, channelId, amount: movement.sign * transaction.amount, currency, occurredAt }];
  if (transaction.fee !== 0) {
    lines.push({ kind: 'fee', reference, channelId: scopedId(account.merchantId, transaction.id), amount: transaction.fee, currency, occurredAt });
  }
  return lines;
}

/** Our reference and the channel's id of what moved: a payment's order, a refund, a dispute. */
async function identify(
  account: StripeAccount,
  expected: 'charge' | 'refund' | 'dispute',
  source: Stripe.BalanceTransactionSource,
): Promise<{ reference: string; channelId: string }> {
  if (source.object !== expected) throw new UnmappedStripeValue(`balance transaction source for a ${expected}`, source.object);
  if (source.object === 'dispute') {
    const id = scopedId(account.merchantId, source.id);
    return { reference: id, channelId: id };
  }
  if (source.object === 'refund') {
    const reference = source.metadata?.['reference'];
    if (!reference) throw new UnmappedStripeValue('refund this service did not make', source.id);
    return { reference, channelId: scopedId(account.merchantId, source.id) };
  }
  const charge = source;
  const intentId = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
  if (!intentId) throw new UnmappedStripeValue('charge without a PaymentIntent', charge.id);
  // Stripe copies the PaymentIntent's metadata onto its charge; ask the intent when it did not.
  const reference = charge.metadata['reference'] ?? (await account.stripe.paymentIntents.retrieve(intentId)).metadata['reference'];
  if (!reference) throw new UnmappedStripeValue('charge this service did not make', charge.id);
  return { reference, channelId: scopedId(account.merchantId, intentId) };
}
