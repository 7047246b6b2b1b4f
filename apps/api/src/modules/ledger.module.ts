import { BalanceTransactionReader, GetBalance, GetBalanceTransaction, Ledger, ListBalanceTransactions, MerchantRepository, VerifyLedger } from '@payments/core';
import { ContainerModule } from 'inversify';
import { bindClass } from './wiring';
import type { Capability } from './capability';
import getBalance from '../routes/ledger/get-balance.route';
import dashboardGetBalance from '../routes/ledger/dashboard-get-balance.route';
import listBalanceTransactions from '../routes/ledger/list-balance-transactions.route';
import getBalanceTransaction from '../routes/ledger/get-balance-transaction.route';
import dashboardListBalanceTransactions from '../routes/ledger/dashboard-list-balance-transactions.route';
import dashboardGetBalanceTransaction from '../routes/ledger/dashboard-get-balance-transaction.route';

/** The balance and its lines (balance transactions), the ledger's check, and releasing held funds. */
export const ledgerModule: Capability = {
  bindings: () =>
    new ContainerModule((options) => {
      bindClass(options, GetBalance, { ledger: Ledger, merchants: MerchantRepository });
      bindClass(options, VerifyLedger, { ledger: Ledger });
      bindClass(options, ListBalanceTransactions, { balanceTransactions: BalanceTransactionReader });
      bindClass(options, GetBalanceTransaction, { balanceTransactions: BalanceTransactionReader });
    }),
  routes: [getBalance, dashboardGetBalance, listBalanceTransactions, getBalanceTransaction, dashboardListBalanceTransactions, dashboardGetBalanceTransaction],
};
