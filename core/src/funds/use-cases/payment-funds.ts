import type { AccountScope, Money } from '../../common';
import type { Ledger, LedgerTransaction, MerchantBucket, PaymentMove, SettlementAmount } from '../../ledger';
import {
  duplicatePaymentPosting,
  ledgerTransaction,
  paymentMovePosting,
  paymentPosting,
  settlementCreatedPosting,
  settlementFailedPosting,
  settlementPaidPosting,
  type ChannelMovement,
  type ChannelPayment,
  type DuplicatePayment,
} from '../../ledger';
import { chargebackOf, homeBucket, isPriced, type PaymentFigures, type PricedFigures } from '../domain/payment-money';
import type { PaymentDispute, PaymentDisputes } from '../ports/payment-disputes.port';

export interface PaymentFundsDeps {
  readonly ledger: Ledger;
  readonly disputes: PaymentDisputes;
}

/** A refund as its money sees it: the merchant's debit and what the channel gives back (settlement currency). */
export interface RefundMoney {
  readonly id: string;
  /** The channel that refunds it, and the amount it gives back in the payment's currency (reconciliation). */
  readonly channel: string;
  readonly amount: number;
  readonly currency: string;
  readonly debit: Money;
  /** Absent on refunds recorded before the channel's side was: they moved it by the debit. */
  readonly cleared?: Money;
}

/** Where a failed refund's debit went. */
export type RefundReturn = MerchantBucket | 'dispute_losses';

/** A dispute as its ruling needs it: what the channel took back (lost), by the channel's own dispute id. */
export type RuledDispute = Pick<PaymentDispute, 'id' | 'amount' | 'currency' | 'channel' | 'channelDisputeId'>;

/** What a dispute's opening froze: undefined when it holds nothing (not priced, another holds, a loss took all). */
export type DisputeHoldResult = { readonly held: Money; readonly from: 'available' | 'pending' } | undefined;

/**
 * The one owner of a payment's money (docs/ledger.md, "A payment's money"). Payments, refunds,
 * disputes and settlements ask it to move money and never post to the ledger themselves; each
 * method books one event of the payment's life by its rules, idempotently (every posting is
 * unique on its cause). Where the payment's money sits is read from the journal itself
 * (`Ledger.paymentShares`), so no second copy of it can drift. Call every method inside the unit
 * of work of the change that causes it, with the payment's intent row locked (every change of a
 * payment's money locks it first), and with the intent as that change leaves it.
 *
 * The rules, whatever the order of events:
 * - booked: the net waits in pending (the fee is ours, the channel owes the gross); booked while a
 *   dispute is open, it goes straight to the hold; booked after a loss, to the chargeback;
 * - released: what the payment has in pending moves to available;
 * - a refund debits the merchant's share of the net from where the payment's money sits (available
 *   once released, else pending); the channel gives back the whole amount, and the fee share is
 *   the platform's cost (`refunded_fees`);
 * - a failed refund gives its debit back to the platform when a dispute was lost (the chargeback
 *   took that money already), else to the hold when a dispute is open, else where the payment's
 *   money sits;
 * - a dispute holds everything the payment has left, unless another dispute holds it already or a
 *   loss took it; the hold stays while any dispute of the payment is open; the last one won gives it
 *   back; a loss takes everything the payment has left, charges its fee, and books the chargeback
 *   (the channel took back the disputed amount at the payment's rate; the platform bears the rest).
 */
export class PaymentFunds {
  constructor(private readonly deps: PaymentFundsDeps) {}

  /**
   * Books a priced payment once; a dispute already open holds its net, a lost one takes it.
   * `paidBy` (the succeeded attempt and what its channel collected) is recorded with the posting
   * for the reconciliation with the channel's statement.
   */
  async book(payment: PaymentFigures, now: Date, paidBy?: ChannelPayment): Promise<void> {
    if (!isPriced(payment)) return;
    const booking = paymentPosting(payment, now, paidBy);
    if (await this.deps.ledger.hasPosted(booking.cause)) return;
    // A payment whose every leg rounds to zero (1 IDR to a THB merchant) books no journal row, so
    // it is never "posted": what follows still runs, once per cause, and records a lost dispute's
    // chargeback for the reconciliation with the channel.
    await this.deps.ledger.post(booking);
    const disputes = await this.disputesOf(payment);
    const lost = disputes.filter((dispute) => dispute.state === 'lost');
    const net = payment.net.amount;
    if (lost.length > 0) {
      // Lost before the payment was priced: the chargebacks took it back, the merchant keeps none of it.
      await this.move(payment, 'dispute_claim', payment.id, now, { merchant: { pending: -net }, platform: { dispute_losses: net } });
      for (const dispute of lost) await this.chargeback(payment, dispute, now);
      return;
    }
    const holder = disputes.find((dispute) => dispute.state === 'open');
    if (holder) {
      const held = await this.move(payment, 'dispute_hold', payment.id, now, { merchant: { pending: -net, dispute_hold: net } });
      if (held) await this.deps.disputes.setHeld(payment, holder.id, { amount: (holder.held ?? 0) + net, currency: payment.net.currency });
    }
  }

  /** The release timer fired (`payment.releasedAt` is set): what the payment has in pending becomes available. */
  async release(payment: PaymentFigures, now: Date): Promise<void> {
    if (!isPriced(payment)) return;
    const { pending } = await this.sharesOf(payment);
    if (pending > 0n) await this.move(payment, 'release', payment.id, now, { merchant: { pending: -Number(pending), available: Number(pending) } });
  }

  /** A refund was made: the merchant's debit leaves where the payment's money sits; the channel gives back `cleared`. */
  async refundMade(payment: PricedFigures, refund: RefundMoney, now: Date): Promise<void> {
    const debit = refund.debit.amount;
    const cleared = refund.cleared?.amount ?? debit;
    await this.move(payment, 'refund', refund.id, now, {
      merchant: { [homeBucket(payment)]: -debit },
      platform: { channel_clearing: cleared, refunded_fees: debit - cleared },
      movement: refundMovement(refund, refund.amount),
    });
  }

  /** A refund failed: the channel gave nothing back, and the debit returns (see the rules above). Answers where it went. */
  async refundFailed(payment: PricedFigures, refund: RefundMoney, now: Date): Promise<RefundReturn> {
    const debit = refund.debit.amount;
    const cleared = refund.cleared?.amount ?? debit;
    const disputes = await this.disputesOf(payment);
    // A loss comes first: the chargeback took the payment back, and a dispute opened after it holds nothing.
    const lost = disputes.some((dispute) => dispute.state === 'lost');
    const holder = lost ? undefined : disputes.find((dispute) => dispute.state === 'open');
    const to: RefundReturn = lost ? 'dispute_losses' : holder ? 'dispute_hold' : homeBucket(payment);
    const platform = { channel_clearing: -cleared, refunded_fees: cleared - debit };
    const movement = refundMovement(refund, -refund.amount);
    if (to === 'dispute_losses') {
      await this.move(payment, 'refund_failed', refund.id, now, { platform: { ...platform, dispute_losses: debit }, movement });
    } else {
      await this.move(payment, 'refund_failed', refund.id, now, { merchant: { [to]: debit }, platform, movement });
    }
    if (holder && debit > 0) await this.deps.disputes.setHeld(payment, holder.id, { amount: (holder.held ?? 0) + debit, currency: refund.debit.currency });
    return to;
  }

  /**
   * A dispute opened (call it before recording the dispute): it holds everything the payment has
   * left in pending and available, unless the payment is not priced yet, another open dispute
   * holds it already, or a dispute was lost.
   */
  async disputeOpened(payment: PaymentFigures, disputeId: string, now: Date): Promise<DisputeHoldResult> {
    if (!isPriced(payment)) return undefined;
    const disputes = await this.disputesOf(payment);
    if (disputes.some((dispute) => dispute.id !== disputeId && dispute.state !== 'won')) return undefined;
    const shares = await this.sharesOf(payment);
    const pending = positive(shares.pending);
    const available = positive(shares.available);
    await this.move(payment, 'dispute_opened', disputeId, now, { merchant: { pending: -pending, available: -available, dispute_hold: pending + available } });
    return { held: { amount: pending + available, currency: payment.net.currency }, from: homeBucket(payment) };
  }

  /**
   * A dispute was ruled (call it before recording the ruling). Won: the hold stays for another open
   * dispute of the payment, else goes back where the payment's money sits. Lost: everything the
   * payment has left leaves the merchant, the fee is debited from available, and the chargeback is
   * booked once the payment is priced (`book` does it for one priced later).
   */
  async disputeRuled(payment: PaymentFigures, dispute: RuledDispute, ruling: 'won' | 'lost', fee: Money, now: Date): Promise<void> {
    const others = (await this.disputesOf(payment)).filter((other) => other.id !== dispute.id && other.state === 'open');
    if (ruling === 'won') {
      if (!isPriced(payment)) return;
      const { dispute_hold: held } = await this.sharesOf(payment);
      if (others.length > 0) {
        if (held > 0n) await this.deps.disputes.setHeld(payment, others[0].id, { amount: Number(held), currency: payment.net.currency });
        return;
      }
      if (held > 0n)
        await this.move(payment, 'dispute_won', dispute.id, now, { merchant: { dispute_hold: -Number(held), [homeBucket(payment)]: Number(held) } });
      return;
    }
    for (const other of others.filter((open) => (open.held ?? 0) > 0))
      await this.deps.disputes.setHeld(payment, other.id, { amount: 0, currency: fee.currency });
    if (!isPriced(payment)) {
      await this.move(payment, 'dispute_lost', dispute.id, now, {
        merchant: { available: -fee.amount },
        platform: { fee_revenue: fee.amount },
        currency: fee.currency,
      });
      return;
    }
    const shares = await this.sharesOf(payment);
    const [held, pending, available] = [positive(shares.dispute_hold), positive(shares.pending), positive(shares.available)];
    await this.move(payment, 'dispute_lost', dispute.id, now, {
      merchant: { dispute_hold: -held, pending: -pending, available: -available - fee.amount },
      platform: { fee_revenue: fee.amount, dispute_losses: held + pending + available },
    });
    await this.chargeback(payment, dispute, now);
  }

  /**
   * The channel took back the disputed amount, at the payment's rate: channel_clearing moves by
   * it, and `dispute_losses` bears it, less what the merchant gave back (booked with the ruling).
   */
  private async chargeback(payment: PricedFigures, dispute: RuledDispute, now: Date): Promise<void> {
    const taken = chargebackOf(payment, dispute.amount).amount;
    await this.move(payment, 'chargeback', dispute.id, now, {
      platform: { channel_clearing: taken, dispute_losses: -taken },
      movement: { channel: dispute.channel, kind: 'chargeback', reference: dispute.channelDisputeId, amount: dispute.amount, currency: dispute.currency },
    });
  }

  /** A second payment of an already paid intent: the channel holds it for the payer, not the merchant. */
  async duplicatePayment(payment: DuplicatePayment, now: Date): Promise<void> {
    await this.deps.ledger.post(duplicatePaymentPosting(payment, now));
  }

  /** A settlement made: its amount leaves available for the merchant's bank. */
  async settlementCreated(settlement: SettlementAmount, now: Date): Promise<void> {
    await this.deps.ledger.post(settlementCreatedPosting(settlement, now));
  }

  /** A settlement paid: the money left the platform. */
  async settlementPaid(settlement: SettlementAmount, now: Date): Promise<void> {
    await this.deps.ledger.post(settlementPaidPosting(settlement, now));
  }

  /** A settlement failed: its amount returns to available. */
  async settlementFailed(settlement: SettlementAmount, now: Date): Promise<void> {
    await this.deps.ledger.post(settlementFailedPosting(settlement, now));
  }

  private disputesOf(payment: PaymentFigures): Promise<PaymentDispute[]> {
    return this.deps.disputes.ofPayment(scopeOf(payment), payment.id);
  }

  private sharesOf(payment: PaymentFigures): Promise<Record<MerchantBucket, bigint>> {
    return this.deps.ledger.paymentShares(scopeOf(payment), payment.id);
  }

  /**
   * Posts one move of the payment's money, in its settlement currency (the fee's, for a payment
   * not priced yet); `movement` is what the channel moved with it (reconciliation).
   */
  private async move(payment: PaymentFigures, causeType: PaymentMove['causeType'], causeId: string, now: Date, legs: MoveLegs): Promise<boolean> {
    const currency = legs.currency ?? payment.net?.currency;
    if (currency === undefined) return false;
    const move: PaymentMove = {
      causeType,
      causeId,
      scope: scopeOf(payment),
      paymentIntentId: payment.id,
      currency,
      merchant: legs.merchant,
      platform: legs.platform,
    };
    const tx: LedgerTransaction = paymentMovePosting(move, now);
    return this.deps.ledger.post(legs.movement ? ledgerTransaction({ ...tx, channelMovement: legs.movement }) : tx);
  }
}

/** The legs of a move: signed amounts per merchant bucket and platform account, and what the channel moved. */
interface MoveLegs {
  readonly merchant?: PaymentMove['merchant'];
  readonly platform?: PaymentMove['platform'];
  readonly currency?: string;
  readonly movement?: ChannelMovement;
}

function scopeOf(payment: PaymentFigures): AccountScope {
  return { merchantId: payment.merchantId, mode: payment.mode };
}

/** What the channel moves for a refund: its amount to the payer (negative when a failure takes it back). */
function refundMovement(refund: RefundMoney, amount: number): ChannelMovement {
  return { channel: refund.channel, kind: 'refund', reference: refund.id, amount, currency: refund.currency };
}

/** A share as a number of minor units, or 0 when it is not above zero (a payment's share never passes its net). */
function positive(share: bigint): number {
  return share > 0n ? Number(share) : 0;
}
