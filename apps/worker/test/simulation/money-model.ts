/**
 * An independent model of the money: what every merchant holds per bucket and currency, what the
 * platform earned and bore, and what the channels owe, computed from the outside facts of a
 * history alone (a payment priced, released, refunded, disputed, settled …), by the rules of
 * docs/ledger.md, written here again as plain BigInt arithmetic. It imports nothing: no ledger,
 * no postings, no use case of the service, so a rule the service gets wrong cannot be copied into
 * the model that checks it.
 *
 * Signs are the ledger's, "credit positive": a merchant's buckets and the platform's revenue are
 * positive, money in the platform's hands (channel_clearing) or a cost (refunded_fees,
 * dispute_losses) negative. Account codes are the ledger's: `m:<merchant>:<mode>:<bucket>:<CUR>`
 * and `p:<mode>:<name>:<CUR>`.
 */

export type Mode = 'test' | 'live';
export type Bucket = 'pending' | 'available' | 'dispute_hold';
export type PlatformAccountName = 'channel_clearing' | 'fee_revenue' | 'refunded_fees' | 'dispute_losses' | 'payouts_in_transit' | 'payer_refunds_due';
export const BUCKETS: readonly Bucket[] = ['pending', 'available', 'dispute_hold'];

/** Minor units, as the API shows them (numbers up to 2^53 − 1) or exactly (bigint). */
export type Units = number | bigint;

/** One outside fact of a history, as a client of the API (and the channel's side) observes it. */
export type MoneyFact =
  /** A merchant and mode the history runs for, with its settlement currency. */
  | { readonly kind: 'merchant'; readonly merchant: string; readonly mode: Mode; readonly currency: string }
  /** A payment intent of the merchant: its amount and currency (what the payer pays). */
  | { readonly kind: 'payment'; readonly payment: string; readonly merchant: string; readonly mode: Mode; readonly amount: Units; readonly currency: string }
  /** The payment was paid and priced: net and fee in the settlement currency (the intent's `net`, `fee`). */
  | { readonly kind: 'priced'; readonly payment: string; readonly net: Units; readonly fee: Units; readonly currency: string }
  /** The release timer fired. */
  | { readonly kind: 'released'; readonly payment: string }
  /** A refund was made (201): `amount` in the intent's currency. */
  | { readonly kind: 'refund_made'; readonly refund: string; readonly payment: string; readonly amount: Units }
  | { readonly kind: 'refund_succeeded'; readonly refund: string }
  | { readonly kind: 'refund_failed'; readonly refund: string }
  /** A dispute opened over `amount` of the intent's currency. */
  | { readonly kind: 'dispute_opened'; readonly dispute: string; readonly payment: string; readonly amount: Units }
  | { readonly kind: 'dispute_won'; readonly dispute: string }
  | { readonly kind: 'dispute_lost'; readonly dispute: string }
  /** A settlement made for `amount` of the currency. */
  | {
      readonly kind: 'settlement_created';
      readonly settlement: string;
      readonly merchant: string;
      readonly mode: Mode;
      readonly amount: Units;
      readonly currency: string;
    }
  | { readonly kind: 'settlement_paid'; readonly settlement: string }
  | { readonly kind: 'settlement_failed'; readonly settlement: string }
  /** A payer paid an already paid intent again: owed back to the payer, in the currency paid. */
  | { readonly kind: 'duplicate_payment'; readonly attempt: string; readonly mode: Mode; readonly amount: Units; readonly currency: string };

/** What the service must answer to a refund request, by the rules (docs/refunds.md). */
export type RefundVerdict =
  | { readonly status: 201; readonly amount: bigint }
  | { readonly status: 409; readonly code: 'invalid_state_transition' | 'payment_disputed' | 'refund_exceeds_remaining' }
  | { readonly status: 400; readonly code: 'invalid_parameter' };

/** x × y / z rounded half-even (x, y ≥ 0, z > 0). */
export function mulDivHalfEven(x: bigint, y: bigint, z: bigint): bigint {
  if (z <= 0n || x < 0n || y < 0n) throw new Error(`mulDivHalfEven(${x}, ${y}, ${z})`);
  const product = x * y;
  const quotient = product / z;
  const twice = (product % z) * 2n;
  if (twice > z || (twice === z && quotient % 2n === 1n)) return quotient + 1n;
  return quotient;
}

interface ModelRefund {
  readonly id: string;
  readonly payment: ModelPayment;
  readonly amount: bigint;
  /** The merchant's share of the net (settlement currency). */
  readonly debit: bigint;
  /** What the channel gave the payer, at the payment's rate (settlement currency). */
  readonly gross: bigint;
  status: 'pending' | 'succeeded' | 'failed';
}

interface ModelDispute {
  readonly id: string;
  readonly payment: ModelPayment;
  readonly amount: bigint;
  status: 'open' | 'won' | 'lost';
  /** Lost before the payment was priced: its chargeback waits for the price. */
  chargebackDue: boolean;
}

interface ModelPayment {
  readonly id: string;
  readonly merchant: string;
  readonly mode: Mode;
  readonly amount: bigint;
  readonly currency: string;
  priced?: { readonly net: bigint; readonly fee: bigint; readonly gross: bigint; readonly currency: string };
  released: boolean;
  /** Where what the merchant still has of this payment's net sits. */
  readonly share: Record<Bucket, bigint>;
  readonly refunds: ModelRefund[];
  readonly disputes: ModelDispute[];
}

interface ModelSettlement {
  readonly id: string;
  readonly merchant: string;
  readonly mode: Mode;
  readonly amount: bigint;
  readonly currency: string;
  status: 'made' | 'paid' | 'failed';
}

/** One booked move of the model, for the story of an account that differs. */
export interface ModelMove {
  readonly label: string;
  readonly fact: MoneyFact;
  readonly entries: ReadonlyArray<readonly [string, bigint]>;
}

const big = (value: Units): bigint => (typeof value === 'bigint' ? value : BigInt(value));

export function merchantAccountCode(merchant: string, mode: Mode, bucket: Bucket, currency: string): string {
  return `m:${merchant}:${mode}:${bucket}:${currency}`;
}

export function platformAccountCode(mode: Mode, name: PlatformAccountName, currency: string): string {
  return `p:${mode}:${name}:${currency}`;
}

/** The model. Feed it facts in the order they happened (`apply`), read what everyone holds (`accounts`). */
export class MoneyModel {
  private readonly merchants = new Map<string, { readonly currency: string }>();
  private readonly payments = new Map<string, ModelPayment>();
  private readonly refunds = new Map<string, ModelRefund>();
  private readonly disputes = new Map<string, ModelDispute>();
  private readonly settlements = new Map<string, ModelSettlement>();
  private readonly duplicates = new Set<string>();
  private readonly balances = new Map<string, bigint>();
  private readonly moves: ModelMove[] = [];
  /** Names the moves booked next (the simulator's step), for the story of a difference. */
  label = '';

  constructor(private readonly options: { readonly disputeFee: Units } = { disputeFee: 1500 }) {}

  apply(fact: MoneyFact): void {
    const entries: Array<[string, bigint]> = [];
    const book = (account: string, amount: bigint): void => {
      if (amount === 0n) return;
      entries.push([account, amount]);
      this.balances.set(account, (this.balances.get(account) ?? 0n) + amount);
    };
    this.book(fact, book);
    if (entries.length > 0) this.moves.push({ label: this.label, fact, entries });
  }

  /** Every account the model holds a balance on (zeros left out). */
  accounts(): ReadonlyMap<string, bigint> {
    return new Map([...this.balances].filter(([, amount]) => amount !== 0n));
  }

  balance(account: string): bigint {
    return this.balances.get(account) ?? 0n;
  }

  knowsPayment(id: string): boolean {
    return this.payments.has(id);
  }
  isPriced(id: string): boolean {
    return this.payments.get(id)?.priced !== undefined;
  }
  /** What a payment has been through so far, for counting the compositions a history reached. */
  situation(id: string): { priced: boolean; released: boolean; open: boolean; won: boolean; lost: boolean; pendingRefunds: number } {
    const payment = this.payments.get(id);
    const disputes = payment?.disputes ?? [];
    return {
      priced: payment?.priced !== undefined,
      released: payment?.released ?? false,
      open: disputes.some((dispute) => dispute.status === 'open'),
      won: disputes.some((dispute) => dispute.status === 'won'),
      lost: disputes.some((dispute) => dispute.status === 'lost'),
      pendingRefunds: payment?.refunds.filter((refund) => refund.status === 'pending').length ?? 0,
    };
  }

  paymentOfRefund(id: string): string | undefined {
    return this.refunds.get(id)?.payment.id;
  }

  /** Where what the merchant still has of a payment's net sits. */
  share(id: string): Readonly<Record<Bucket, bigint>> {
    return this.payments.get(id)?.share ?? { pending: 0n, available: 0n, dispute_hold: 0n };
  }
  isReleased(id: string): boolean {
    return this.payments.get(id)?.released ?? false;
  }
  refundStatus(id: string): ModelRefund['status'] | undefined {
    return this.refunds.get(id)?.status;
  }
  disputeStatus(id: string): ModelDispute['status'] | undefined {
    return this.disputes.get(id)?.status;
  }
  settlementStatus(id: string): ModelSettlement['status'] | undefined {
    return this.settlements.get(id)?.status;
  }
  knowsDuplicate(attempt: string): boolean {
    return this.duplicates.has(attempt);
  }

  /** What the service must answer to a refund of `amount` (the whole remainder when undefined) of a paid, known payment. */
  refundVerdict(paymentId: string, amount?: Units): RefundVerdict {
    if (amount !== undefined && (big(amount) < 1n || big(amount) > 9007199254740991n)) return { status: 400, code: 'invalid_parameter' };
    const payment = this.payments.get(paymentId);
    if (!payment?.priced) return { status: 409, code: 'invalid_state_transition' };
    if (payment.disputes.some((dispute) => dispute.status === 'open')) return { status: 409, code: 'payment_disputed' };
    if (payment.disputes.some((dispute) => dispute.status === 'lost')) return { status: 409, code: 'refund_exceeds_remaining' };
    const remaining = payment.amount - this.refunded(payment).amount;
    const asked = amount === undefined ? remaining : big(amount);
    if (remaining <= 0n || asked > remaining) return { status: 409, code: 'refund_exceeds_remaining' };
    return { status: 201, amount: asked };
  }

  /** The merchant's buckets in one currency. */
  merchantMoney(merchant: string, mode: Mode, currency: string): Record<Bucket, bigint> {
    return {
      pending: this.balance(merchantAccountCode(merchant, mode, 'pending', currency)),
      available: this.balance(merchantAccountCode(merchant, mode, 'available', currency)),
      dispute_hold: this.balance(merchantAccountCode(merchant, mode, 'dispute_hold', currency)),
    };
  }

  /** The model's moves on one account, oldest first. */
  movesOf(account: string): Array<{ label: string; fact: MoneyFact; amount: bigint }> {
    return this.moves.flatMap((move) =>
      move.entries.filter(([code]) => code === account).map(([, amount]) => ({ label: move.label, fact: move.fact, amount })),
    );
  }

  /** A payment's facts as the model sees them, for a report. */
  describePayment(id: string): string {
    const payment = this.payments.get(id);
    if (!payment) return `${id}: unknown to the model`;
    const priced = payment.priced ? `net ${payment.priced.net} fee ${payment.priced.fee} ${payment.priced.currency}` : 'not priced';
    const refunds = payment.refunds.map((refund) => `${refund.id} ${refund.amount} ${refund.status} (debit ${refund.debit}, channel ${refund.gross})`);
    const disputes = payment.disputes.map((dispute) => `${dispute.id} ${dispute.amount} ${dispute.status}`);
    const share = BUCKETS.map((bucket) => `${bucket} ${payment.share[bucket]}`).join(', ');
    return `${id} (${payment.merchant} ${payment.mode}): ${payment.amount} ${payment.currency}, ${priced}, ${payment.released ? 'released' : 'not released'}; its share: ${share}; refunds [${refunds.join('; ')}]; disputes [${disputes.join('; ')}]`;
  }

  /** The payments whose moves touched `account`. */
  paymentsOf(account: string): string[] {
    const ids = new Set<string>();
    for (const { fact } of this.movesOf(account)) {
      const id = this.paymentOfFact(fact);
      if (id) ids.add(id);
    }
    return [...ids];
  }

  private paymentOfFact(fact: MoneyFact): string | undefined {
    switch (fact.kind) {
      case 'payment':
      case 'priced':
      case 'released':
      case 'refund_made':
      case 'dispute_opened':
        return fact.payment;
      case 'refund_succeeded':
      case 'refund_failed':
        return this.refunds.get(fact.refund)?.payment.id;
      case 'dispute_won':
      case 'dispute_lost':
        return this.disputes.get(fact.dispute)?.payment.id;
      default:
        return undefined;
    }
  }

  private refunded(payment: ModelPayment): { amount: bigint; debit: bigint; gross: bigint } {
    const live = payment.refunds.filter((refund) => refund.status !== 'failed');
    return {
      amount: live.reduce((sum, refund) => sum + refund.amount, 0n),
      debit: live.reduce((sum, refund) => sum + refund.debit, 0n),
      gross: live.reduce((sum, refund) => sum + refund.gross, 0n),
    };
  }

  private book(fact: MoneyFact, book: (account: string, amount: bigint) => void): void {
    const m = (payment: { merchant: string; mode: Mode }, bucket: Bucket, currency: string): string =>
      merchantAccountCode(payment.merchant, payment.mode, bucket, currency);
    const p = (mode: Mode, name: PlatformAccountName, currency: string): string => platformAccountCode(mode, name, currency);
    /** Moves `amount` of the payment's share between its buckets (or in/out of the merchant with undefined). */
    const shift = (payment: ModelPayment, from: Bucket | undefined, to: Bucket | undefined, amount: bigint): void => {
      const currency = payment.priced!.currency;
      if (from) {
        payment.share[from] -= amount;
        book(m(payment, from, currency), -amount);
      }
      if (to) {
        payment.share[to] += amount;
        book(m(payment, to, currency), amount);
      }
    };
    /** Where the payment's money sits when nothing holds it. */
    const home = (payment: ModelPayment): Bucket => (payment.released ? 'available' : 'pending');

    switch (fact.kind) {
      case 'merchant':
        this.merchants.set(`${fact.merchant}:${fact.mode}`, { currency: fact.currency });
        return;
      case 'payment': {
        if (this.payments.has(fact.payment)) return;
        this.payments.set(fact.payment, {
          id: fact.payment,
          merchant: fact.merchant,
          mode: fact.mode,
          amount: big(fact.amount),
          currency: fact.currency,
          released: false,
          share: { pending: 0n, available: 0n, dispute_hold: 0n },
          refunds: [],
          disputes: [],
        });
        return;
      }
      case 'priced': {
        const payment = this.payment(fact.payment);
        if (payment.priced) throw new Error(`model: ${payment.id} priced twice`);
        const [net, fee] = [big(fact.net), big(fact.fee)];
        const gross = net + fee;
        payment.priced = { net, fee, gross, currency: fact.currency };
        const { mode } = payment;
        // Booked: the net waits in pending, the fee is ours, the channel owes the gross.
        book(p(mode, 'channel_clearing', fact.currency), -gross);
        book(p(mode, 'fee_revenue', fact.currency), fee);
        shift(payment, undefined, 'pending', net);
        const lost = payment.disputes.filter((dispute) => dispute.status === 'lost');
        if (lost.length > 0) {
          // Lost before the price was known: the chargebacks take it all now.
          const chargebacks = lost.reduce((sum, dispute) => sum + this.chargeback(dispute), 0n);
          for (const dispute of lost) dispute.chargebackDue = false;
          shift(payment, 'pending', undefined, net);
          book(p(mode, 'channel_clearing', fact.currency), chargebacks);
          book(p(mode, 'dispute_losses', fact.currency), -(chargebacks - net));
        } else if (payment.disputes.some((dispute) => dispute.status === 'open')) {
          shift(payment, 'pending', 'dispute_hold', net);
        } else if (payment.released) {
          shift(payment, 'pending', 'available', net);
        }
        return;
      }
      case 'released': {
        const payment = this.payment(fact.payment);
        if (payment.released) return;
        payment.released = true;
        if (payment.priced && payment.share.pending !== 0n) shift(payment, 'pending', 'available', payment.share.pending);
        return;
      }
      case 'refund_made': {
        const payment = this.payment(fact.payment);
        if (!payment.priced) throw new Error(`model: refund ${fact.refund} of ${payment.id}, which is not priced`);
        if (this.refunds.has(fact.refund)) throw new Error(`model: refund ${fact.refund} made twice`);
        const amount = big(fact.amount);
        const before = this.refunded(payment);
        const { net, gross, currency } = payment.priced;
        const debit = mulDivHalfEven(before.amount + amount, net, payment.amount) - before.debit;
        const cleared = mulDivHalfEven(before.amount + amount, gross, payment.amount) - before.gross;
        const refund: ModelRefund = { id: fact.refund, payment, amount, debit, gross: cleared, status: 'pending' };
        this.refunds.set(refund.id, refund);
        payment.refunds.push(refund);
        shift(payment, home(payment), undefined, debit);
        // The channel gives the payer the whole amount; the fee share is the platform's cost.
        book(p(payment.mode, 'channel_clearing', currency), cleared);
        book(p(payment.mode, 'refunded_fees', currency), -(cleared - debit));
        return;
      }
      case 'refund_succeeded': {
        const refund = this.refund(fact.refund);
        if (refund.status === 'pending') refund.status = 'succeeded';
        return;
      }
      case 'refund_failed': {
        const refund = this.refund(fact.refund);
        if (refund.status === 'failed') return;
        if (refund.status === 'succeeded') throw new Error(`model: refund ${refund.id} failed after it succeeded`);
        refund.status = 'failed';
        const { payment } = refund;
        const { currency } = payment.priced!;
        book(p(payment.mode, 'channel_clearing', currency), -refund.gross);
        book(p(payment.mode, 'refunded_fees', currency), refund.gross - refund.debit);
        // The debit goes back: to the platform once a dispute was lost (the chargeback took that
        // money already, and nothing after a loss is held), into the hold while one is open, else home.
        if (payment.disputes.some((dispute) => dispute.status === 'lost')) book(p(payment.mode, 'dispute_losses', currency), refund.debit);
        else if (payment.disputes.some((dispute) => dispute.status === 'open')) shift(payment, undefined, 'dispute_hold', refund.debit);
        else shift(payment, undefined, home(payment), refund.debit);
        return;
      }
      case 'dispute_opened': {
        const payment = this.payment(fact.payment);
        if (this.disputes.has(fact.dispute)) throw new Error(`model: dispute ${fact.dispute} opened twice`);
        const held = payment.disputes.some((dispute) => dispute.status === 'open' || dispute.status === 'lost');
        const dispute: ModelDispute = { id: fact.dispute, payment, amount: big(fact.amount), status: 'open', chargebackDue: false };
        this.disputes.set(dispute.id, dispute);
        payment.disputes.push(dispute);
        if (!payment.priced || held) return;
        // Everything the merchant still has of the payment's net is frozen.
        shift(payment, 'pending', 'dispute_hold', payment.share.pending);
        shift(payment, 'available', 'dispute_hold', payment.share.available);
        return;
      }
      case 'dispute_won': {
        const dispute = this.dispute(fact.dispute);
        if (dispute.status !== 'open') return;
        dispute.status = 'won';
        const { payment } = dispute;
        if (!payment.priced || payment.disputes.some((other) => other.status === 'open')) return;
        shift(payment, 'dispute_hold', home(payment), payment.share.dispute_hold);
        return;
      }
      case 'dispute_lost': {
        const dispute = this.dispute(fact.dispute);
        if (dispute.status !== 'open') return;
        dispute.status = 'lost';
        const { payment } = dispute;
        const fee = big(this.options.disputeFee);
        const currency = payment.priced?.currency ?? this.merchantCurrency(payment);
        // The dispute fee, on every loss, from available.
        book(m(payment, 'available', currency), -fee);
        book(p(payment.mode, 'fee_revenue', currency), fee);
        if (!payment.priced) {
          dispute.chargebackDue = true;
          return;
        }
        // The merchant is taken back everything it still had of the payment; the channel took back
        // the disputed amount at the payment's rate; the platform bears the difference.
        let taken = 0n;
        for (const bucket of BUCKETS) {
          const share = payment.share[bucket];
          taken += share;
          if (share !== 0n) shift(payment, bucket, undefined, share);
        }
        const chargeback = this.chargeback(dispute);
        book(p(payment.mode, 'channel_clearing', currency), chargeback);
        book(p(payment.mode, 'dispute_losses', currency), -(chargeback - taken));
        return;
      }
      case 'settlement_created': {
        if (this.settlements.has(fact.settlement)) throw new Error(`model: settlement ${fact.settlement} made twice`);
        const settlement: ModelSettlement = {
          id: fact.settlement,
          merchant: fact.merchant,
          mode: fact.mode,
          amount: big(fact.amount),
          currency: fact.currency,
          status: 'made',
        };
        this.settlements.set(settlement.id, settlement);
        book(m(settlement, 'available', settlement.currency), -settlement.amount);
        book(p(settlement.mode, 'payouts_in_transit', settlement.currency), settlement.amount);
        return;
      }
      case 'settlement_paid':
      case 'settlement_failed': {
        const settlement = this.settlements.get(fact.settlement);
        if (!settlement) throw new Error(`model: settlement ${fact.settlement} unknown`);
        if (settlement.status !== 'made') return;
        settlement.status = fact.kind === 'settlement_paid' ? 'paid' : 'failed';
        book(p(settlement.mode, 'payouts_in_transit', settlement.currency), -settlement.amount);
        if (fact.kind === 'settlement_paid') book(p(settlement.mode, 'channel_clearing', settlement.currency), settlement.amount);
        else book(m(settlement, 'available', settlement.currency), settlement.amount);
        return;
      }
      case 'duplicate_payment': {
        if (this.duplicates.has(fact.attempt)) return;
        this.duplicates.add(fact.attempt);
        book(p(fact.mode, 'channel_clearing', fact.currency), -big(fact.amount));
        book(p(fact.mode, 'payer_refunds_due', fact.currency), big(fact.amount));
        return;
      }
    }
  }

  /** What the channel took back for a lost dispute: its amount at the payment's rate, fee share included. */
  private chargeback(dispute: ModelDispute): bigint {
    const { priced, amount } = dispute.payment;
    if (!priced) throw new Error(`model: chargeback of ${dispute.id} before its payment is priced`);
    return mulDivHalfEven(dispute.amount, priced.gross, amount);
  }

  private merchantCurrency(payment: ModelPayment): string {
    const merchant = this.merchants.get(`${payment.merchant}:${payment.mode}`);
    if (!merchant) throw new Error(`model: merchant ${payment.merchant} (${payment.mode}) unknown`);
    return merchant.currency;
  }

  private payment(id: string): ModelPayment {
    const payment = this.payments.get(id);
    if (!payment) throw new Error(`model: payment ${id} unknown`);
    return payment;
  }
  private refund(id: string): ModelRefund {
    const refund = this.refunds.get(id);
    if (!refund) throw new Error(`model: refund ${id} unknown`);
    return refund;
  }
  private dispute(id: string): ModelDispute {
    const dispute = this.disputes.get(id);
    if (!dispute) throw new Error(`model: dispute ${id} unknown`);
    return dispute;
  }
}

/**
 * What a history's facts leave every party holding: the model's balance per ledger account
 * (zeros left out), and each merchant's buckets per currency as `GET /v1/balance` should show
 * them. For API tests that compose money features: list the facts of the test, compare.
 */
export function expectedMerchantMoney(
  facts: readonly MoneyFact[],
  options: { readonly disputeFee?: Units } = {},
): { accounts: ReadonlyMap<string, bigint>; merchant(merchant: string, mode: Mode, currency: string): Record<Bucket, bigint> } {
  const model = new MoneyModel({ disputeFee: options.disputeFee ?? 1500 });
  for (const fact of facts) model.apply(fact);
  return { accounts: model.accounts(), merchant: (merchant, mode, currency) => model.merchantMoney(merchant, mode, currency) };
}
