import type { Ledger } from '../../ledger';
import { merchantAccount } from '../../ledger';
import { settlementSummary, type SettlementSummary } from '../domain/settlement-summary';
import type { Settlement } from '../domain/settlement.entity';

export interface SummarizeSettlementsDeps {
  readonly ledger: Ledger;
}

/**
 * The summaries of settlements as the API shows them with each (docs/settlements.md, "A
 * settlement's summary"): what the lines each covers add up to, by type. One read per currency,
 * however many settlements.
 */
export class SummarizeSettlements {
  constructor(private readonly deps: SummarizeSettlementsDeps) {}

  async execute(settlements: readonly Settlement[]): Promise<Map<string, SettlementSummary>> {
    const byAccount = new Map<string, Settlement[]>();
    for (const settlement of settlements) {
      const account = merchantAccount(settlement, 'available', settlement.amount.currency);
      byAccount.set(account, [...(byAccount.get(account) ?? []), settlement]);
    }
    const summaries = new Map<string, SettlementSummary>();
    for (const [account, group] of byAccount) {
      const coverage = await this.deps.ledger.coveredTotals(
        account,
        group.map((settlement) => settlement.id),
      );
      for (const [index, settlement] of group.entries()) summaries.set(settlement.id, settlementSummary(settlement, coverage[index]));
    }
    return summaries;
  }

  /** The summary of one settlement. */
  async one(settlement: Settlement): Promise<SettlementSummary> {
    const summary = (await this.execute([settlement])).get(settlement.id);
    if (!summary) throw new Error(`No summary of ${settlement.id}.`);
    return summary;
  }
}
