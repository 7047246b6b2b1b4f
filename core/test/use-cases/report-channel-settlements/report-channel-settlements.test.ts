import test from 'ava';
import type { PaymentAttempt } from '../../../src/payments/domain/payment-attempt.entity';
import type { ChannelOrderStatus } from '../../../src/payments/ports/payment-channel.port';
import { settlementRecheckMs } from '../../../src/payments/use-cases/report-channel-settlements.use-case';
import { FakeChannel, fakeCapabilities, fakeChannels } from '../harness';
import { edgeShop } from '../money-fixtures';

/** A channel that settles only the orders it is told to, and counts what it is asked. */
class SlowSettlingChannel extends FakeChannel {
  override readonly capabilities = fakeCapabilities({ modes: ['test', 'live'], methods: ['alipay_plus'] });
  readonly orders = new Map<string, PaymentAttempt>();
  readonly settled = new Set<string>();
  readonly asked: string[] = [];
  constructor(private readonly now: () => Date) {
    super();
  }
  override async queryOrder(_mode: unknown, channelOrderId: string): Promise<ChannelOrderStatus> {
    this.asked.push(channelOrderId);
    const attempt = this.orders.get(channelOrderId)!;
    return {
      channelOrderId,
      reference: attempt.id,
      status: 'paid',
      amount: attempt.amount,
      currency: attempt.currency,
      ...(this.settled.has(channelOrderId) ? { settledAt: this.now() } : {}),
    };
  }
}

test('payments a channel has not settled yet are asked about again later, so they never crowd out the ones behind them', async (t) => {
  // The channel needs the shop's clock; the shop tells it of payments only once they are made.
  const shop = await edgeShop('THB', (attempt) => fake.orders.set(attempt.channelOrderId!, attempt));
  const { clock } = shop;
  const fake = new SlowSettlingChannel(() => clock.now());
  const job = shop.reportChannelSettlements(fakeChannels(fake));

  // Two old payments the channel will settle days from now, then a fresh one it settled already.
  const slow = [await shop.succeededWallet(10_000, 'THB'), await shop.succeededWallet(10_000, 'THB')];
  clock.advance(60_000);
  const fresh = await shop.succeededWallet(10_000, 'THB');
  fake.settled.add(fresh.attempt.channelOrderId!);

  // Batches of one: each unsettled payment is asked once and waits; the fresh one is reached.
  for (let pass = 0; pass < 3; pass += 1) await shop.runJob(job, 1);
  t.deepEqual(
    fake.asked,
    [...slow, fresh].map(({ attempt }) => attempt.channelOrderId),
  );
  t.is((await shop.intentOf(fresh.intent.id)).status, 'channel_settled');

  // Not asked again before a quarter of their wait has passed; then asked, and settled once the channel did.
  await shop.runJob(job, 10);
  t.is(fake.asked.length, 3, 'nothing is due');
  fake.settled.add(slow[0].attempt.channelOrderId!);
  clock.advance(settlementRecheckMs(60_000));
  await shop.runJob(job, 10);
  t.is((await shop.intentOf(slow[0]?.intent.id)).status, 'channel_settled');
  t.is((await shop.intentOf(slow[1]?.intent.id)).status, 'succeeded');
});

test("the wait before asking again grows with the payment's age, from a second to an hour", (t) => {
  t.is(settlementRecheckMs(0), 1000);
  t.is(settlementRecheckMs(60_000), 15_000);
  t.is(settlementRecheckMs(7 * 24 * 3600 * 1000), 3_600_000);
});
