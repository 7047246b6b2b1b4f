import { CoreError, type FxRateSource } from '@payments/core';
import { crossRate, tableProblem, type RateTable } from './rate-table';
import { REFERENCE_RATES } from './reference-rates';

/**
 * Mid rates from a table held in memory (by default the reference table shipped in this
 * package); cross rates go through the table's base. Never reaches the network.
 */
export class BundledFxRateSource implements FxRateSource {
  constructor(private readonly table: RateTable = REFERENCE_RATES) {
    const problem = tableProblem(table);
    if (problem) throw new CoreError('api_error', 'internal', `The FX rate table is unusable: ${problem}.`);
  }

  /** The date the table's rates were observed. */
  get asOf(): string {
    return this.table.asOf;
  }

  /** Currencies the table can quote, base included. */
  currencies(): string[] {
    return [...new Set([this.table.base, ...Object.keys(this.table.rates)])].sort();
  }

  /** Throws CoreError `unsupported_currency_pair` (validation, param `from` or `to`) for a currency the table lacks. */
  async midRate(from: string, to: string): Promise<string> {
    return crossRate(this.table, from, to);
  }
}
