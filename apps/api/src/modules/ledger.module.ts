import { Clock, DisputeRepository, GetBalance, Ledger, MerchantRepository, PaymentIntentRepository, ReleaseFunds, UnitOfWork, VerifyLedger } from '@payments/core';
import { ContainerModule } from 'inversify';
import { bindClass } from './wiring';

/** The balance, the ledger's check, and releasing held funds. */
export const ledgerModule = (): ContainerModule =>
  new ContainerModule((options) => {
    bindClass(options, GetBalance, { ledger: Ledger, merchants: MerchantRepository });
    bindClass(options, VerifyLedger, { ledger: Ledger });
    bindClass(options, ReleaseFunds, { uow: UnitOfWork, intents: PaymentIntentRepository, disputes: DisputeRepository, ledger: Ledger, clock: Clock });
  });
