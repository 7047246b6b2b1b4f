import test from 'ava';
import fc from 'fast-check';
import { CreateMerchant, DisputeRepository, PaymentAttemptRepository, type AccountScope } from '@payments/core';
import { sign, SIGNATURE_HEADER } from '@payments/channel-simulator';
import { FakeClock } from '@payments/in-memory';
import { AppConfig, simulatorCallbackSecret } from '../src/container';
import type { Config } from '../src/config';
import { assertLedgerVerifies, assertMerchantMoney } from './helpers/money-invariants';
import { paymentFlow } from './helpers/payment-flow';
import { startTestApp, unique, type TestApp } from './helpers/test-app';
import { moneyTick } from './helpers/worker-tick';
import { jsonAt, listAt, numberAt, objectAt } from './helpers/json';

/**
 * Random sequences of what happens to a merchant's money (payments, failures, callbacks replayed
 * and out of order, releases, disputes opened, ruled and argued, settlements) through the real
 * routes, channel and jobs. After every step the ledger must keep its invariants, and what the API
 * shows must add up independently of the ledger.
 */

const clock = new FakeClock(new Date());
/** What the runs reached, so a run that never settled or lost a dispute shows in the log. */
const reached = { settlements: 0, disputesLost: 0, disputesWon: 0, replays: 0 };
let t0: TestApp;

test.before(async () => {
  t0 = await startTestApp({ clock });
});
test.after.always(async () => t0?.close());

interface Shop {
  readonly scope: AccountScope;
  readonly key: string;
  readonly flow: ReturnType<typeof paymentFlow>;
  /** Intents this run paid (or tried to), oldest first. */
  readonly intents: string[];
  /** Intents with a dispute this run opened and no ruling yet: where rulings aim. */
  readonly disputed: Set<string>;
}

async function newShop(): Promise<Shop> {
  const suffix = unique('shop');
  const created = await t0.app
    .get(CreateMerchant)
    .execute({ name: `Shop ${suffix}`, email: `${suffix}@example.com`, password: 'correct horse battery', settlementSchedule: 'manual' });
  const key = created.testApiKey.secret;
  return { scope: { merchantId: created.merchant.id, mode: 'test' }, key, flow: paymentFlow(t0, key), intents: [], disputed: new Set() };
}

type Step =
  | { kind: 'pay'; shop: number; hundreds: number }
  | { kind: 'pay_and_release'; shop: number; hundreds: number }
  | { kind: 'fail'; shop: number }
  | { kind: 'replay_callback'; shop: number; pick: number; status: 'processing' | 'paid' | 'failed'; times: number }
  | { kind: 'tick' }
  | { kind: 'release'; shop: number; pick: number }
  | { kind: 'dispute'; shop: number; pick: number; outcome: 'dispute_opened' | 'dispute_won' | 'dispute_lost' }
  | { kind: 'dispute_round'; shop: number; pick: number; ruling: 'dispute_won' | 'dispute_lost' }
  | { kind: 'replay_dispute'; shop: number; pick: number; times: number }
  | { kind: 'evidence'; shop: number; pick: number }
  | { kind: 'settle'; shop: number; racers: number };

const shopIndex = fc.integer({ min: 0, max: 1 });
const pick = fc.nat({ max: 50 });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('pay' as const), shop: shopIndex, hundreds: fc.integer({ min: 10, max: 900 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('pay_and_release' as const), shop: shopIndex, hundreds: fc.integer({ min: 10, max: 900 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('fail' as const), shop: shopIndex }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('replay_callback' as const),
      shop: shopIndex,
      pick,
      status: fc.constantFrom('processing' as const, 'paid' as const, 'failed' as const),
      times: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('tick' as const) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('release' as const), shop: shopIndex, pick }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('dispute' as const),
      shop: shopIndex,
      pick: fc.nat({ max: 3 }),
      outcome: fc.constantFrom('dispute_opened' as const, 'dispute_opened' as const, 'dispute_won' as const, 'dispute_lost' as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('dispute_round' as const),
      shop: shopIndex,
      pick: fc.nat({ max: 3 }),
      ruling: fc.constantFrom('dispute_won' as const, 'dispute_lost' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replay_dispute' as const), shop: shopIndex, pick, times: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('evidence' as const), shop: shopIndex, pick }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('settle' as const), shop: shopIndex, racers: fc.integer({ min: 1, max: 3 }) }) },
);

/** An intent of the shop, counting back from the newest (small picks favour recent payments). */
function chosen(shop: Shop, index: number): string | undefined {
  return shop.intents.length === 0 ? undefined : shop.intents[shop.intents.length - 1 - (index % shop.intents.length)];
}

const tick = moneyTick(() => t0, clock);

/** Posts a signed simulator notice straight to the callback route, as a channel retrying it would. */
async function deliver(body: Record<string, unknown>): Promise<number> {
  const config = t0.app.get<Config>(AppConfig);
  const raw = JSON.stringify(body);
  const res = await t0.server.inject({
    method: 'POST',
    url: '/channels/simulator/callback/test',
    headers: {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: sign(simulatorCallbackSecret(config.masterKey), Math.floor(clock.now().getTime() / 1000), raw),
    },
    payload: raw,
  });
  return res.statusCode;
}

async function run(shops: Shop[], action: Step): Promise<void> {
  if (action.kind === 'tick') return tick();
  const shop = shops[action.shop];
  const { flow } = shop;
  switch (action.kind) {
    case 'pay':
    case 'fail': {
      // Whole hundreds never end in a magic 01–05, so only the simulate call decides the outcome.
      const intent = await flow.createIntent({ amount: action.kind === 'pay' ? action.hundreds * 100 : 5_000 });
      shop.intents.push(intent.id);
      await flow.attempt(intent.id);
      await flow.simulate(intent.id, action.kind === 'pay' ? { outcome: 'succeeded' } : { outcome: 'failed' });
      return;
    }
    case 'pay_and_release': {
      // A payment taken all the way to available: success, channel settlement, release timer.
      await run(shops, { kind: 'pay', shop: action.shop, hundreds: action.hundreds });
      await tick();
      await tick();
      await flow.advance(shop.intents.at(-1)!, 'release');
      return tick();
    }
    case 'replay_callback': {
      const id = chosen(shop, action.pick);
      if (!id) return;
      const attempts = await t0.app.get<PaymentAttemptRepository>(PaymentAttemptRepository).listForIntent(shop.scope, id);
      const attempt = attempts.at(-1);
      if (!attempt?.channelOrderId) return;
      const body = { id: attempt.channelOrderId, reference: attempt.id, status: action.status, amount: attempt.amount, currency: attempt.currency };
      await Promise.all(Array.from({ length: action.times }, () => deliver(body)));
      reached.replays += action.times;
      return;
    }
    case 'release': {
      const id = chosen(shop, action.pick);
      if (id) await flow.advance(id, 'release');
      return;
    }
    case 'dispute': {
      const open = [...shop.disputed];
      // Rulings aim at an open dispute when there is one (else they exercise the 409).
      const id = action.outcome !== 'dispute_opened' && open.length > 0 ? open[action.pick % open.length] : chosen(shop, action.pick);
      if (!id) return;
      const res = await flow.simulate(id, { outcome: action.outcome });
      if (res.statusCode === 200) {
        if (action.outcome === 'dispute_opened') shop.disputed.add(id);
        else shop.disputed.delete(id);
      }
      if (res.statusCode === 200 && action.outcome === 'dispute_lost') reached.disputesLost += 1;
      if (res.statusCode === 200 && action.outcome === 'dispute_won') reached.disputesWon += 1;
      return;
    }
    case 'dispute_round': {
      // A dispute opened and ruled on one payment, with whatever happened in between elsewhere.
      await run(shops, { kind: 'dispute', shop: action.shop, pick: action.pick, outcome: 'dispute_opened' });
      return run(shops, { kind: 'dispute', shop: action.shop, pick: action.pick, outcome: action.ruling });
    }
    case 'replay_dispute': {
      const id = chosen(shop, action.pick);
      const dispute = id ? await t0.app.get<DisputeRepository>(DisputeRepository).findLatestForIntent(shop.scope, id) : undefined;
      if (dispute) await Promise.all(Array.from({ length: action.times }, () => deliver({ type: 'dispute', id: dispute.channelDisputeId })));
      return;
    }
    case 'evidence': {
      const id = chosen(shop, action.pick);
      const dispute = id ? await t0.app.get<DisputeRepository>(DisputeRepository).findLatestForIntent(shop.scope, id) : undefined;
      if (dispute) await flow.post(`/v1/disputes/${dispute.id}/evidence`, { evidence: { receipt: `receipt for ${id}` } });
      return;
    }
    case 'settle': {
      const before = listAt(await flow.get('/v1/balance'), 'available');
      const answers = await Promise.all(Array.from({ length: action.racers }, () => flow.post('/v1/settlements')));
      const made = answers.filter((res) => res.statusCode === 201);
      reached.settlements += made.length;
      if (made.length > 1) throw new Error(`${made.length} settlements raced for the same funds and all were made`);
      for (const res of answers) {
        if (res.statusCode !== 201 && res.statusCode !== 409) throw new Error(`settlement answered ${res.statusCode}: ${res.payload}`);
      }
      const amount = made.length > 0 ? objectAt(made[0].result, 'amount') : undefined;
      const available = jsonAt(
        before.find((money) => jsonAt(money, 'currency') === amount?.currency),
        'amount',
      );
      if (amount && (typeof available !== 'number' || numberAt(amount, 'amount') > available))
        throw new Error(`settled ${numberAt(amount, 'amount')} with ${JSON.stringify(available)} available`);
      return;
    }
  }
}

/** The invariants (helpers/money-invariants.ts), each checked from a different source than the ledger's own tables. */
async function checkInvariants(shops: Shop[]): Promise<void> {
  await assertLedgerVerifies(t0);
  for (const shop of shops) await assertMerchantMoney(t0, shop.flow, { scope: shop.scope, key: shop.key, currency: 'THB' });
}

test.serial('after every step of random money flows the ledger balances and the balance adds up', async (t) => {
  const details = await fc.check(
    fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 30 }), async (steps) => {
      const shops = [await newShop(), await newShop()];
      for (const [index, action] of steps.entries()) {
        try {
          await run(shops, action);
          await checkInvariants(shops);
        } catch (error) {
          throw new Error(`step ${index} ${JSON.stringify(action)}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }),
    {
      numRuns: Number(process.env.LEDGER_PROPERTY_RUNS ?? 25),
      endOnFailure: true,
      // Replays a failure: LEDGER_PROPERTY_SEED and LEDGER_PROPERTY_PATH from the report.
      ...(process.env.LEDGER_PROPERTY_SEED ? { seed: Number(process.env.LEDGER_PROPERTY_SEED), path: process.env.LEDGER_PROPERTY_PATH } : {}),
    },
  );
  t.log(`reached: ${JSON.stringify(reached)}`);
  // The failing step and its broken invariant, then fast-check's replay line.
  const failure = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  t.false(details.failed, `${failure}\n${fc.defaultReportMessage(details)}`);
});
