import { GetBalance, Ledger, MerchantRepository, VerifyLedger } from '@payments/core';
import { ContainerModule } from 'inversify';
import { bindClass } from './wiring';
import type { Capability } from './capability';
import getBalance from '../routes/ledger/get-balance.route';
import dashboardGetBalance from '../routes/ledger/dashboard-get-balance.route';

/** The balance, the ledger's check, and releasing held funds. */
export const ledgerModule: Capability = {
  bindings: () =>
    new ContainerModule((options) => {
      bindClass(options, GetBalance, { ledger: Ledger, merchants: MerchantRepository });
      bindClass(options, VerifyLedger, { ledger: Ledger });
    }),
  routes: [getBalance, dashboardGetBalance],
};
