import type { LedgerCauseType, SettlementCoverage } from '../../ledger';
import type { Settlement } from './settlement.entity';

/**
 * What a settlement pays, by the type of the lines it covers (docs/settlements.md, "A settlement's
 * summary"): the entries of its merchant's available account that name it, grouped by the type
 * their balance transaction shows. Every amount is the sum of what those lines moved on available;
 * the groups and `other` add up to the settlement's amount.
 */

/** The line types a settlement can cover (the balance transaction types that move available money, its own payout aside). */
export const SUMMARY_LINE_TYPES = [
  'release',
  'refund',
  'refund_reversal',
  'dispute_hold',
  'dispute_release',
  'dispute_loss',
  'settlement_failure',
  'adjustment',
] as const;
export type SummaryLineType = (typeof SUMMARY_LINE_TYPES)[number];

/** The line type of a journal cause, as balance transactions name it. */
const CAUSE_LINE_TYPES: Partial<Record<LedgerCauseType, SummaryLineType>> = {
  release: 'release',
  refund: 'refund',
  refund_failed: 'refund_reversal',
  dispute_opened: 'dispute_hold',
  dispute_hold: 'dispute_hold',
  dispute_won: 'dispute_release',
  dispute_lost: 'dispute_loss',
  dispute_claim: 'dispute_loss',
  settlement_failed: 'settlement_failure',
};

/** Lines of one type: how many, and what they moved on available (signed, exact). */
export interface SummaryLineTotal {
  readonly count: number;
  readonly amount: bigint;
}

/** The released payments' own figures, as their payments were booked. */
export interface SummaryPayments extends SummaryLineTotal {
  /** What the payers paid, in the settlement currency: `net + fee`. */
  readonly gross: bigint;
  /** Our fees on them. */
  readonly fee: bigint;
  /** Their nets: what the merchant got of them. `amount` is less where a refund or hold took some before release. */
  readonly net: bigint;
}

export interface SettlementSummary {
  readonly lines: Readonly<Record<Exclude<SummaryLineType, 'release'>, SummaryLineTotal>> & { readonly release: SummaryPayments };
  /**
   * What the amount pays beyond its lines (negative: what its lines hold beyond it). 0 for every
   * settlement made since the ledger records what settlements cover, but the first one of an
   * account settled before: that one also pays what the earlier settlements left in available, which
   * no line accounts for; and the earlier settlements themselves, whose lines were attributed by
   * their order, not by their rule.
   */
  readonly other: bigint;
}

/** A settlement's summary from what its covered entries add up to. */
export function settlementSummary(settlement: Settlement, coverage: SettlementCoverage): SettlementSummary {
  const totals = new Map<SummaryLineType, { count: number; amount: bigint }>(SUMMARY_LINE_TYPES.map((type) => [type, { count: 0, amount: 0n }]));
  let lines = 0n;
  for (const cause of coverage.causes) {
    const total = totals.get(CAUSE_LINE_TYPES[cause.causeType] ?? 'adjustment');
    if (total) {
      total.count += cause.count;
      total.amount += cause.amount;
    }
    lines += cause.amount;
  }
  const of = (type: SummaryLineType): SummaryLineTotal => totals.get(type) ?? { count: 0, amount: 0n };
  const { net, fee } = coverage.released;
  return {
    lines: {
      release: { ...of('release'), gross: net + fee, fee, net },
      refund: of('refund'),
      refund_reversal: of('refund_reversal'),
      dispute_hold: of('dispute_hold'),
      dispute_release: of('dispute_release'),
      dispute_loss: of('dispute_loss'),
      settlement_failure: of('settlement_failure'),
      adjustment: of('adjustment'),
    },
    other: BigInt(settlement.amount.amount) - lines,
  };
}
