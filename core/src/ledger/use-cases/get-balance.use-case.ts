import type { MerchantRepository } from '../../merchants';
import type { AccountScope } from '../../common';
import { notFound } from '../../common';
import { merchantAccount, merchantBalance, type MerchantBalance } from '../domain/ledger';
import type { Ledger } from '../ports/ledger.port';
export interface GetBalanceDeps {
  readonly ledger: Ledger;
  readonly merchants: MerchantRepository;
}

/**
 * `GET /v1/balance`: the three buckets from the ledger's balance table, one entry per currency
 * the merchant ever held in this mode, and always its settlement currency (zeros before the
 * first payment), so a reader never meets an empty bucket.
 */
export class GetBalance {
  constructor(private readonly deps: GetBalanceDeps) {}

  async execute(scope: AccountScope): Promise<MerchantBalance> {
    const merchant = await this.deps.merchants.findById(scope.merchantId);
    if (!merchant) throw notFound('merchant', scope.merchantId);
    const rows = await this.deps.ledger.balances(scope);
    const settlementAccount = merchantAccount(scope, 'available', merchant.settlementCurrency);
    const withSettlementCurrency = rows.some((row) => row.currency === merchant.settlementCurrency)
      ? rows
      : [...rows, { account: settlementAccount, currency: merchant.settlementCurrency, balance: 0n }];
    return merchantBalance(withSettlementCurrency);
  }
}
