import type { Capability } from './capability';
import { checkoutModule } from './checkout.module';
import { consoleModule } from './console.module';
import { dashboardModule } from './dashboard.module';
import { disputesModule } from './disputes.module';
import { exportsModule } from './exports.module';
import { fundsModule } from './funds.module';
import { fxModule } from './fx.module';
import { jobsModule } from './jobs.module';
import { ledgerModule } from './ledger.module';
import { merchantsModule } from './merchants.module';
import { metaModule } from './meta.module';
import { paymentsModule } from './payments.module';
import { reconciliationModule } from './reconciliation.module';
import { refundsModule } from './refunds.module';
import { settlementsModule } from './settlements.module';
import { webhooksModule } from './webhooks.module';

/** Every capability the app serves: the container loads their bindings, the server their routes. */
export const CAPABILITIES: readonly Capability[] = [
  jobsModule,
  merchantsModule,
  paymentsModule,
  refundsModule,
  fxModule,
  fundsModule,
  ledgerModule,
  disputesModule,
  settlementsModule,
  exportsModule,
  reconciliationModule,
  webhooksModule,
  dashboardModule,
  checkoutModule,
  consoleModule,
  metaModule,
];
