import { merchantAccount, platformAccount } from '../../src/ledger/domain/ledger';
import type { AccountScope } from '../../src/common/mode';
import type { PaymentAttempt } from '../../src/payments/domain/payment-attempt.entity';
import type { PaymentIntent } from '../../src/payments/domain/payment-intent.entity';
import { unlockedFx } from '../../src/fx/use-cases/payment-pricing';
import type { SettlementDeps } from '../../src/settlements/use-cases/settlement-batch';
import { VerifyLedger } from '../../src/ledger/use-cases/verify-ledger.use-case';
import { fakeAttempt, fakeIntent, harness } from './harness';

/**
 * A merchant of its own on in-memory storage, settling in `settlementCurrency` on a manual
 * schedule, with wallet payments made to order and its buckets at hand. `onWallet` sees each
 * payment's attempt (a fake channel that must answer for it).
 */
export async function edgeShop(settlementCurrency = 'THB', onWallet: (attempt: PaymentAttempt) => void = () => undefined) {
  const h = harness();
  const { storage, clock } = h;
  const { merchant } = await h.createMerchant.execute({
    name: 'Edge shop',
    email: `edge${Math.random()}@example.com`,
    password: 'a long enough password',
    settlementCurrency,
    settlementSchedule: 'manual',
  });
  const scope: AccountScope = { merchantId: merchant.id, mode: 'test' };
  const settlementDeps: SettlementDeps = { ...h.statusChange, settlements: storage.settlements, ledger: storage.ledger, funds: h.funds };
  let n = 0;

  /** A wallet payment (its rate locks when the channel settles) that succeeded and is not priced yet. */
  const succeededWallet = async (amount: number, currency: string): Promise<{ intent: PaymentIntent; attempt: PaymentAttempt }> => {
    n += 1;
    const now = clock.now();
    const intent = fakeIntent(scope, now, {
      id: `pi_E${n}${Date.now()}`,
      amount,
      currency,
      merchantOrderId: `o-${n}`,
      status: 'succeeded',
      paymentMethod: 'alipay_plus',
      ...(currency === settlementCurrency ? {} : { fx: unlockedFx(currency, settlementCurrency, 'alipay_plus') }),
    });
    await storage.intents.insert(intent);
    const attempt = fakeAttempt(intent, now, {
      id: `pa_E${n}${Date.now()}`,
      status: 'succeeded',
      paymentMethod: 'alipay_plus',
      channelOrderId: `ord_${n}`,
      succeededAt: now,
    });
    await storage.attempts.insert(attempt);
    onWallet(attempt);
    return { intent, attempt };
  };

  const intentOf = async (id: string): Promise<PaymentIntent> => (await storage.intents.findById(scope, id))!;
  const balance = async (account: string): Promise<bigint> => storage.uow.run((transaction) => transaction.bind(storage.ledger).balanceForUpdate(account));
  const buckets = async () => ({
    pending: await balance(merchantAccount(scope, 'pending', settlementCurrency)),
    available: await balance(merchantAccount(scope, 'available', settlementCurrency)),
    hold: await balance(merchantAccount(scope, 'dispute_hold', settlementCurrency)),
    losses: await balance(platformAccount('test', 'dispute_losses', settlementCurrency)),
  });
  const verify = () => new VerifyLedger({ ledger: storage.ledger }).execute({ limit: 20 });
  return { ...h, merchant, scope, succeededWallet, intentOf, buckets, verify, settlementDeps };
}
