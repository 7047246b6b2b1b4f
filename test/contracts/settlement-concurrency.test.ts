import test from 'ava';
import {
  isCoreError,
  merchantAccount,
  openSettlement,
  paymentDisputesOf,
  PaymentFunds,
  platformAccount,
  withoutUndefined,
  type Settlement,
  type SettlementDeps,
} from '@payments/core';
import { CryptoRandomSource, SystemClock } from '@payments/node-runtime';
import { aMerchant, aPaymentIntent, T0 } from '../fixtures';
import { sqlStorageAdapter } from './storage-adapters';

/**
 * The database alone keeps two settlements from covering one payment: these run the creation
 * with no LockManager at all (the API adds one on top), ten at once, on SQLite or on MariaDB
 * when PAYMENTS_TEST_DATABASE_URL is set.
 */
test(`${sqlStorageAdapter.name}: ten settlements racing for the same available funds without a lock: one wins, each payment is covered once`, async (t) => {
  const harness = await sqlStorageAdapter.create();
  try {
    const { storage } = harness;
    const merchant = aMerchant({ settlementSchedule: 'manual' });
    await storage.merchants.insert(merchant);
    const scope = { merchantId: merchant.id, mode: 'test' as const };
    const nets = [9_700, 19_400, 29_100, 38_800];
    const intents = nets.map((net) =>
      withoutUndefined(
        aPaymentIntent(scope, {
          status: 'channel_settled',
          net: { amount: net, currency: 'THB' },
          fee: { amount: 300, currency: 'THB' },
          availableAt: T0,
          releasedAt: T0,
          expiresAt: undefined,
        }),
      ),
    );
    const funds = new PaymentFunds({ ledger: storage.ledger, disputes: paymentDisputesOf(storage.disputes) });
    for (const intent of intents) {
      await storage.intents.insert(intent);
      await storage.uow.run(async (transaction) => {
        const bound = transaction.bind(funds);
        await bound.book(intent, T0);
        await bound.release(intent, T0);
      });
    }
    const deps: SettlementDeps = {
      settlements: storage.settlements,
      ledger: storage.ledger,
      funds,
      events: storage.events,
      webhookEndpoints: storage.webhookEndpoints,
      webhookDeliveries: storage.webhookDeliveries,
      clock: new SystemClock(),
      random: new CryptoRandomSource(),
    };

    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        storage.uow.run((transaction) => openSettlement(transaction.bind(deps), { merchant, scope, trigger: 'manual', releasedBefore: new Date() })),
      ),
    );
    const won = outcomes.filter((o): o is PromiseFulfilledResult<Settlement> => o.status === 'fulfilled').map((o) => o.value);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => o.reason as unknown);
    t.is(won.length, 1, JSON.stringify(refused.map((e) => (isCoreError(e) ? e.code : String(e)))));
    for (const error of refused) {
      t.true(isCoreError(error) && error.category === 'conflict', String(error));
    }
    const total = nets.reduce((sum, net) => sum + net, 0);
    t.like(won[0], { payments: 4, amount: { amount: total, currency: 'THB' } });
    for (const intent of intents) t.is((await storage.intents.findById(scope, intent.id))?.settlementId, won[0]?.id);
    t.deepEqual(
      (await storage.settlements.list(scope, { limit: 20 })).data.map((s) => s.id),
      [won[0]?.id],
    );
    const [available, inTransit] = await storage.uow.run(async (transaction) => {
      const ledger = transaction.bind(storage.ledger);
      return [
        await ledger.balanceForUpdate(merchantAccount(scope, 'available', 'THB')),
        await ledger.balanceForUpdate(platformAccount('test', 'payouts_in_transit', 'THB')),
      ];
    });
    t.is(available, 0n);
    t.true((inTransit ?? 0n) >= BigInt(total));
  } finally {
    await harness.destroy();
  }
});
