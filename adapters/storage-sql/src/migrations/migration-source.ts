import type { Knex } from 'knex';
import { initialSchema } from './001-initial-schema.migration';
import { paymentAttempts } from './002-payment-attempts.migration';
import { dashboardFoundation } from './003-dashboard-foundation.migration';
import { dashboardSessions } from './004-dashboard-sessions.migration';
import { dashboardResources } from './005-dashboard-resources.migration';
import { webhookDeliveries } from './006-webhook-deliveries.migration';
import { ledger } from './007-ledger.migration';
import { disputes } from './008-disputes.migration';
import { settlements } from './009-settlements.migration';
import { simulatorCallbacks } from './010-simulator-callbacks.migration';
import { disputeChecks } from './011-dispute-checks.migration';
import { settlementRequestKeys } from './012-settlement-request-keys.migration';
import { jobItemFailures } from './013-job-item-failures.migration';
import { disputeModesAndDuplicatePayments } from './015-dispute-modes-and-duplicate-payments.migration';
import { settlementParts } from './016-settlement-parts.migration';
import { settlementChecks } from './017-settlement-checks.migration';
import { refunds } from './018-refunds.migration';
import { dashboardConsole } from './019-dashboard-console.migration';
import { multiWriterGuards } from './020-multi-writer-guards.migration';
import { paymentMoney } from './021-payment-money.migration';
import { channelReconciliation } from './022-channel-reconciliation.migration';
import { idempotencyRecoveryPoints } from './023-idempotency-recovery-points.migration';
import { settlementCoverage } from './024-settlement-coverage.migration';
import { consoleSearchAndDeliveryLog } from './025-console-search-and-delivery-log.migration';
import { restrictedApiKeys } from './026-restricted-api-keys.migration';
import { traceContexts } from './027-trace-contexts.migration';
import { channelCredentials } from './028-channel-credentials.migration';

interface NamedMigration {
  readonly name: string;
  readonly migration: Knex.Migration;
}

/** Every migration, in order. Append new ones; never rename or edit a released one. */
const MIGRATIONS: readonly NamedMigration[] = [
  { name: '001-initial-schema', migration: initialSchema },
  { name: '002-payment-attempts', migration: paymentAttempts },
  { name: '003-dashboard-foundation', migration: dashboardFoundation },
  { name: '004-dashboard-sessions', migration: dashboardSessions },
  { name: '005-dashboard-resources', migration: dashboardResources },
  { name: '006-webhook-deliveries', migration: webhookDeliveries },
  { name: '007-ledger', migration: ledger },
  { name: '008-disputes', migration: disputes },
  { name: '009-settlements', migration: settlements },
  { name: '010-simulator-callbacks', migration: simulatorCallbacks },
  { name: '011-dispute-checks', migration: disputeChecks },
  { name: '012-settlement-request-keys', migration: settlementRequestKeys },
  { name: '013-job-item-failures', migration: jobItemFailures },
  { name: '015-dispute-modes-and-duplicate-payments', migration: disputeModesAndDuplicatePayments },
  { name: '016-settlement-parts', migration: settlementParts },
  { name: '017-settlement-checks', migration: settlementChecks },
  { name: '018-refunds', migration: refunds },
  { name: '019-dashboard-console', migration: dashboardConsole },
  { name: '020-multi-writer-guards', migration: multiWriterGuards },
  { name: '021-payment-money', migration: paymentMoney },
  { name: '022-channel-reconciliation', migration: channelReconciliation },
  { name: '023-idempotency-recovery-points', migration: idempotencyRecoveryPoints },
  { name: '024-settlement-coverage', migration: settlementCoverage },
  { name: '025-console-search-and-delivery-log', migration: consoleSearchAndDeliveryLog },
  { name: '026-restricted-api-keys', migration: restrictedApiKeys },
  { name: '027-trace-contexts', migration: traceContexts },
  { name: '028-channel-credentials', migration: channelCredentials },
];

/** The names of every migration, in the order they run. */
export const MIGRATION_NAMES: readonly string[] = MIGRATIONS.map((migration) => migration.name);

/**
 * Migrations listed in code rather than found by a directory glob, so they run the same from
 * compiled `dist/`, from a bundle, or from any working directory.
 */
export class InCodeMigrationSource implements Knex.MigrationSource<NamedMigration> {
  async getMigrations(): Promise<NamedMigration[]> {
    return [...MIGRATIONS];
  }

  getMigrationName(migration: NamedMigration): string {
    return migration.name;
  }

  async getMigration(migration: NamedMigration): Promise<Knex.Migration> {
    return migration.migration;
  }
}
