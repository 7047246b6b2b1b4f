import fc from 'fast-check';
import type { ServerInjectResponse } from '@hapi/hapi';
import { AppConfig, createLogger, simulatorCallbackSecret, type Config } from '@payments/api';
import type { Knex } from 'knex';
import { AppKnex } from '@payments/api/dist/src/modules/app-tokens';
import { sign, SIGNATURE_HEADER, SimulatedPayoutGateway } from '@payments/channel-simulator';
import { SIGNATURE_HEADER as REST_SIGNATURE_HEADER } from '@payments/channel-rest';
import {
  CreateMerchant,
  DisputeRepository,
  IssueApiKey,
  JobItemFailures,
  LockManager,
  MODES,
  MAX_AMOUNT,
  methodsForCurrency,
  PaymentAttemptRepository,
  ReconcileChannel,
  payableCurrencies,
  SetLiveMode,
  type AccountScope,
  type DestinationVerification,
  type Mode,
  type PayoutGateway,
  type PayoutRequest,
  type PayoutResult,
  type SettlementSchedule,
} from '@payments/core';
import { FakeClock } from '@payments/in-memory';
import { signIn, totpCode } from '@payments/api/dist/test/helpers/dashboard';
import { assertLedgerVerifies, assertMerchantMoney, listAll } from '@payments/api/dist/test/helpers/money-invariants';
import { BOUNDARY_STATUS, faultThenRetry, ROUTE_BOUNDARIES, type Boundary, type PhasedRoute } from '@payments/api/dist/test/helpers/faults';
import { paymentFlow } from '@payments/api/dist/test/helpers/payment-flow';
import { startTestApp, unique, type TestApp, type TestResponse } from '@payments/api/dist/test/helpers/test-app';
import { workerLanes } from '../../src/jobs';
import { Scheduler, type JobObserver, type Lane } from '../../src/scheduler';
import { SandboxLiveChannel } from './live-channel';
import { MoneyDifference, MoneyWatch, type SettlementNews } from './money-watch';
import { apiObjectAt, jsonAt, numberAt, objectAt, textAt } from '@payments/api/dist/test/helpers/json';

/**
 * A seeded, replayable hostile history: several merchants (test and live, several settlement
 * currencies and schedules) through random steps of hostile and extreme inputs, driven through
 * the real routes, the real channels (the simulator; the rest protocol against the channel
 * sandbox for live mode) and the worker's own job list under a fake clock. After every step:
 * no 5xx; every balance and ledger account equals, to the minor unit, what an independent model
 * of the money computes from the facts the run observed (./money-model.ts, fed and compared by
 * ./money-watch.ts), and refunds and settlements are answered as the rules say; the ledger
 * verifies, each merchant's money adds up (apps/api/test/helpers/money-invariants.ts), no lost
 * dispute's money is paid out, and every ordinary merchant's payments reach `channel_settled`
 * and are released within LIVENESS_TICKS worker passes while the hostile merchants' items fail.
 *
 * Stories compose every money action with every other on one payment, in any order: refunds
 * (left pending at a slow channel, failed, succeeded) before and after release, settlement and
 * payout (paid or refused by the bank), while a dispute is open, won or lost, and several
 * disputes per payment.
 */

/** Worker passes (one fake second each) within which an ordinary payment must make each step. */
export const LIVENESS_TICKS = 5;

/** How the run sees one merchant. */
interface Profile {
  readonly name: string;
  /** Hostile merchants send extreme amounts; nothing is promised about their payments. */
  readonly hostile: boolean;
  readonly mode: Mode;
  readonly currency: string;
  readonly schedule: SettlementSchedule;
  readonly delayDays: number;
}

const ROSTER: readonly Profile[] = [
  // The merchant of the opening bug: settles in THB, pays 1 IDR with alipay_plus.
  { name: 'hostile-thb', hostile: true, mode: 'test', currency: 'THB', schedule: 'manual', delayDays: 0 },
  // Three decimals and a daily schedule: tiny and huge amounts both convert into fils.
  { name: 'hostile-kwd-daily', hostile: true, mode: 'test', currency: 'KWD', schedule: 'daily', delayDays: 0 },
  { name: 'hostile-live', hostile: true, mode: 'live', currency: 'THB', schedule: 'manual', delayDays: 0 },
  { name: 'ordinary-thb-daily', hostile: false, mode: 'test', currency: 'THB', schedule: 'daily', delayDays: 0 },
  { name: 'ordinary-sgd-delay-1', hostile: false, mode: 'test', currency: 'SGD', schedule: 'manual', delayDays: 1 },
  { name: 'ordinary-jpy-weekly', hostile: false, mode: 'test', currency: 'JPY', schedule: 'weekly', delayDays: 0 },
  { name: 'ordinary-live', hostile: false, mode: 'live', currency: 'THB', schedule: 'daily', delayDays: 0 },
];

/** Minor units of each catalog currency worth about one US dollar: ordinary amounts are a few to a few hundred of these. */
const ORDINARY_UNIT: Readonly<Record<string, number>> = { THB: 3_300, SGD: 130, MYR: 430, PHP: 5_600, IDR: 1_600_000, USD: 100 };

/** Amounts at the edges: one minor unit, 99, powers of ten, and the documented maximum and just below it. */
const HOSTILE_AMOUNTS: readonly number[] = [
  1,
  2,
  99,
  ...Array.from({ length: 16 }, (_, k) => 10 ** k),
  MAX_AMOUNT,
  MAX_AMOUNT - 1,
  MAX_AMOUNT - 100,
  Math.floor(MAX_AMOUNT / 2),
  Math.floor(MAX_AMOUNT / 2) + 1,
  2 ** 52,
];

/**
 * The refund amounts drawn for an intent of `whole`: the whole remainder (no amount), one minor
 * unit, half, one more than the intent, an amount ending in 06 (the simulated channel declines it
 * on its next pass) and a third. Below one unit, no amount is sent (the remainder).
 */
function refundAmount(whole: number, size: number): number | undefined {
  const declined = whole >= 106 ? Math.floor(whole / 200) * 100 + 6 : whole >= 6 ? 6 : 1;
  const amount = [undefined, 1, Math.floor(whole / 2), whole + 1, declined, Math.floor(whole / 3)][size % REFUND_SIZES];
  return amount === undefined || amount < 1 ? undefined : amount;
}
const REFUND_SIZES = 6;

type Outcome = 'succeeded' | 'failed' | 'pending';

/**
 * What becomes of a refund once made: the simulated channel reports it on the next worker pass
 * (`channel`: succeeded, or failed for amounts ending in 06), or it is told now to fail or to
 * succeed, or the channel is slow (`leave`): the refund stays pending until a `refund_outcome`
 * (test mode; a live refund is declined at once by the sandbox, which takes none).
 */
type RefundThen = 'channel' | 'fail' | 'succeed' | 'leave';
/** Whether the (simulated, test-mode) bank pays the payouts of a step or refuses them. */
type Bank = 'pays' | 'fails';
/**
 * A fault at a phase boundary of a request whose work calls a channel between transactions
 * (apps/api/test/helpers/faults.ts), then the client's retry with the same Idempotency-Key; or none.
 */
type Fault = Boundary | 'none';

/** One act of a story: every money action on one payment, in any order. */
export type StoryAct =
  | { act: 'refund'; size: number; then: RefundThen; fault: Fault }
  | { act: 'refund_outcome'; outcome: 'failed' | 'succeeded' }
  | { act: 'dispute'; outcome: 'opened' | 'won' | 'lost' }
  | { act: 'release' }
  | { act: 'settle'; bank: Bank }
  | { act: 'tick' };

/** A payment drawn: the merchant, indexes into its amounts, currencies and methods, and a fault of its attempt. */
interface Payment {
  merchant: number;
  amount: number;
  currency: number;
  method: number;
  fault: Fault;
}

export type Step =
  | ({ kind: 'pay'; outcome: Outcome } & Payment)
  | ({ kind: 'pay_and_dispute'; ruling: 'won' | 'lost' | 'none' } & Payment)
  | ({ kind: 'story'; acts: StoryAct[] } & Payment)
  | { kind: 'callbacks'; merchant: number; pick: number; statuses: Array<'processing' | 'paid' | 'failed'>; together: boolean }
  | { kind: 'dispute'; merchant: number; pick: number; outcome: 'opened' | 'won' | 'lost' }
  | { kind: 'refund'; merchant: number; pick: number; size: number; racers: number; then: RefundThen; fault: Fault }
  | { kind: 'refund_outcome'; merchant: number; pick: number; outcome: 'failed' | 'succeeded' }
  | { kind: 'dispute_notice'; merchant: number; pick: number; times: number }
  | { kind: 'evidence'; merchant: number; pick: number; fault: Fault }
  | { kind: 'release'; merchant: number; pick: number }
  | { kind: 'settle'; merchant: number; racers: number; bank: Bank }
  | { kind: 'big_batch'; merchant: number; payments: number }
  | { kind: 'dashboard'; merchant: number; edit: 'schedule' | 'name' | 'team'; picks: [number, number] }
  | { kind: 'tick'; count: number }
  | { kind: 'midnight'; bank: Bank };

const merchant = fc.nat({ max: ROSTER.length - 1 });
const pick = fc.nat({ max: 40 });
/** No fault `clean` times in `clean + 1`, else one of the route's boundaries. */
const faultOf = (route: PhasedRoute, clean: number): fc.Arbitrary<Fault> =>
  fc.oneof({ weight: clean, arbitrary: fc.constant('none' as const) }, { weight: 1, arbitrary: fc.constantFrom(...ROUTE_BOUNDARIES[route]) });
const payment = { merchant, amount: fc.nat({ max: 10_000 }), currency: fc.nat({ max: 50 }), method: fc.nat({ max: 10 }), fault: faultOf('attempt', 7) };
const callbackStatus = fc.constantFrom('processing' as const, 'paid' as const, 'failed' as const);
const refundSize = fc.nat({ max: REFUND_SIZES - 1 });
const refundThen = fc.constantFrom<RefundThen>('channel', 'fail', 'succeed', 'leave', 'leave');
const bank = fc.constantFrom<Bank>('pays', 'pays', 'fails');
const storyAct: fc.Arbitrary<StoryAct> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ act: fc.constant('refund' as const), size: refundSize, then: refundThen, fault: faultOf('refund', 3) }) },
  { weight: 2, arbitrary: fc.record({ act: fc.constant('refund_outcome' as const), outcome: fc.constantFrom('failed' as const, 'succeeded' as const) }) },
  { weight: 4, arbitrary: fc.record({ act: fc.constant('dispute' as const), outcome: fc.constantFrom('opened' as const, 'won' as const, 'lost' as const) }) },
  { weight: 2, arbitrary: fc.record({ act: fc.constant('release' as const) }) },
  { weight: 2, arbitrary: fc.record({ act: fc.constant('settle' as const), bank }) },
  { weight: 1, arbitrary: fc.record({ act: fc.constant('tick' as const) }) },
);
/**
 * A story around a dispute, whose compositions random acts rarely line up: a refund left pending
 * (before or after release) when a dispute opens, then the refund's outcome and the ruling in
 * either order, maybe a second dispute (after a win, or after a loss), maybe a settlement.
 */
const disputeStory: fc.Arbitrary<StoryAct[]> = fc
  .record({
    releaseFirst: fc.boolean(),
    size: refundSize,
    outcome: fc.constantFrom('failed' as const, 'succeeded' as const),
    ruling: fc.constantFrom('won' as const, 'lost' as const),
    outcomeFirst: fc.boolean(),
    again: fc.constantFrom('none' as const, 'opened' as const, 'won' as const, 'lost' as const),
    settle: fc.constantFrom<Bank | 'no'>('no', 'pays', 'fails'),
    fault: faultOf('refund', 3),
  })
  .map((drawn) => {
    const outcome: StoryAct = { act: 'refund_outcome', outcome: drawn.outcome };
    const ruling: StoryAct = { act: 'dispute', outcome: drawn.ruling };
    return [
      ...(drawn.releaseFirst ? [{ act: 'release' } as const] : []),
      { act: 'refund', size: drawn.size, then: 'leave', fault: drawn.fault } as const,
      { act: 'dispute', outcome: 'opened' } as const,
      ...(drawn.outcomeFirst ? [outcome, ruling] : [ruling, outcome]),
      ...(drawn.again === 'none' ? [] : [{ act: 'dispute', outcome: 'opened' } as const]),
      ...(drawn.again === 'won' || drawn.again === 'lost' ? [{ act: 'dispute', outcome: drawn.again } as const] : []),
      ...(drawn.settle === 'no' ? [] : [{ act: 'release' } as const, { act: 'settle', bank: drawn.settle } as const]),
    ];
  });

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      ...payment,
      outcome: fc.constantFrom<Outcome>('succeeded', 'succeeded', 'succeeded', 'failed', 'pending'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('pay_and_dispute' as const),
      ...payment,
      ruling: fc.constantFrom('won' as const, 'lost' as const, 'none' as const),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('story' as const),
      ...payment,
      acts: fc.oneof(fc.array(storyAct, { minLength: 2, maxLength: 7 }), disputeStory),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('callbacks' as const),
      merchant,
      pick,
      statuses: fc.array(callbackStatus, { minLength: 1, maxLength: 4 }),
      together: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('dispute' as const),
      merchant,
      pick: fc.nat({ max: 4 }),
      outcome: fc.constantFrom('opened' as const, 'opened' as const, 'won' as const, 'lost' as const),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      merchant,
      pick: fc.nat({ max: 6 }),
      size: refundSize,
      racers: fc.integer({ min: 1, max: 2 }),
      then: refundThen,
      fault: faultOf('refund', 3),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('refund_outcome' as const),
      merchant,
      pick,
      outcome: fc.constantFrom('failed' as const, 'succeeded' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dispute_notice' as const), merchant, pick, times: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('evidence' as const), merchant, pick, fault: faultOf('evidence', 1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('release' as const), merchant, pick }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('settle' as const), merchant, racers: fc.integer({ min: 1, max: 3 }), bank }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('big_batch' as const), merchant: fc.nat({ max: 2 }), payments: fc.integer({ min: 2, max: 3 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('dashboard' as const),
      merchant,
      edit: fc.constantFrom('schedule' as const, 'name' as const, 'team' as const),
      picks: fc.tuple(fc.nat({ max: 3 }), fc.nat({ max: 3 })),
    }),
  },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('tick' as const), count: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('midnight' as const), bank }) },
);

/**
 * The steps of a seed: the opening bug's payment first (1 IDR by alipay_plus for the THB
 * merchant, simulated paid), then `count - 1` random steps. The same seed gives the same steps.
 */
export function stepsOf(seed: number, count: number): Step[] {
  const opening: Step = {
    kind: 'pay',
    merchant: 0,
    amount: HOSTILE_AMOUNTS.indexOf(1),
    currency: payableCurrencies().indexOf('IDR'),
    method: 1_000,
    outcome: 'succeeded',
    fault: 'none',
  };
  const random = count > 1 ? fc.sample(fc.array(step, { minLength: count - 1, maxLength: count - 1 }), { seed, numRuns: 1 })[0] : [];
  return [opening, ...random];
}

interface SimMerchant {
  readonly profile: Profile;
  readonly scope: AccountScope;
  readonly key: string;
  readonly flow: ReturnType<typeof paymentFlow>;
  /** The same calls, answered whatever their status: for the first try a fault breaks off, which a 5xx ends. */
  readonly faultedFlow: ReturnType<typeof paymentFlow>;
  /** Intents this run created, oldest first. */
  readonly intents: string[];
  /** Intents with a dispute opened and no ruling yet. */
  readonly disputed: Set<string>;
  /** Live: the sandbox's dispute id per intent. */
  readonly channelDisputes: Map<string, string>;
  readonly checkedSettlements: Set<string>;
  /** Refunds the (slow) channel has not reported and will not on its own: a `refund_outcome` settles them. */
  readonly held: string[];
  /** The merchant's settlement currency (as the money watch reads it). */
  readonly currency: string;
}

/** When an ordinary payment was first seen needing the next step of its way (tick numbers). */
interface Progress {
  succeededAt?: number;
  releasableAt?: number;
}

export interface RunSummary {
  readonly seed: number;
  readonly steps: number;
  readonly ticks: number;
  readonly ms: number;
  /** What the run reached, so a run that never settled or lost a dispute shows in the log. */
  readonly reached: Record<string, number>;
  /** The money compositions the model saw (a refund failing while a dispute is open, …). */
  readonly compositions: Record<string, number>;
  /** Items the worker's jobs recorded as failing at the end (job, lane, error code: how many). */
  readonly failingItems: Record<string, number>;
}

export class StepFailure extends Error {}

/**
 * Test-mode payouts through the simulated bank, which refuses the next `refuse` payouts when told
 * (a closed account): their settlements fail and their amounts return to available.
 */
class FlakyPayouts implements PayoutGateway {
  refuse = 0;
  private readonly bank = new SimulatedPayoutGateway();
  private readonly refused = new Set<string>();

  supports(mode: Mode): boolean {
    return this.bank.supports(mode);
  }
  verifyDestination(mode: Mode): Promise<DestinationVerification> {
    return this.bank.verifyDestination(mode);
  }
  async sendPayout(request: PayoutRequest): Promise<PayoutResult> {
    if (!this.refused.has(request.reference) && this.refuse > 0 && this.bank.supports(request.mode)) {
      this.refuse -= 1;
      this.refused.add(request.reference);
    }
    return this.refused.has(request.reference) ? { status: 'failed', failureReason: 'account_closed' } : this.bank.sendPayout(request);
  }
  queryPayout(mode: Mode, reference: string): Promise<PayoutResult | undefined> {
    return this.refused.has(reference) ? Promise.resolve({ status: 'failed', failureReason: 'account_closed' }) : this.bank.queryPayout(mode, reference);
  }
}

/** One seeded run on a fresh app and database (SQLite, or MariaDB + Redis from the environment). */
export async function runHostileHistory(seed: number, count: number): Promise<RunSummary> {
  const started = Date.now();
  // On a whole hour after the real time: the sandbox refuses orders that expire in its (real) past.
  const clock = new FakeClock(new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 3_600_000));
  const live = await SandboxLiveChannel.start(clock);
  let t0: TestApp | undefined;
  try {
    const payouts = new FlakyPayouts();
    t0 = await startTestApp({ clock, channels: [live], payoutGateway: payouts });
    const world = await World.create(t0, clock, live, payouts);
    const steps = stepsOf(seed, count);
    for (const [index, action] of steps.entries()) {
      try {
        world.label(`step ${index} ${action.kind}`);
        await world.run(action);
        await world.check();
      } catch (error) {
        throw new StepFailure(
          `seed ${seed}, step ${index} of ${steps.length} ${JSON.stringify(action)}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    // The payments of the last steps must get there too.
    for (let index = 0; index <= LIVENESS_TICKS; index += 1) {
      try {
        world.label(`closing tick ${index}`);
        await world.run({ kind: 'tick', count: 1 });
        await world.check();
      } catch (error) {
        throw new StepFailure(`seed ${seed}, closing tick ${index}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    world.reached.settlementsChecked = world.merchants.reduce((sum, shop) => sum + shop.checkedSettlements.size, 0);
    world.reached.retried503 = world.retried.count;
    const failingItems: Record<string, number> = {};
    for (const failure of await t0.app.get<JobItemFailures>(JobItemFailures).list(10_000)) {
      const key = `${failure.job}/${failure.lane}: ${failure.errorCode}`;
      failingItems[key] = (failingItems[key] ?? 0) + 1;
    }
    return {
      seed,
      steps: steps.length,
      ticks: world.ticks,
      ms: Date.now() - started,
      reached: world.reached,
      compositions: world.compositions(),
      failingItems,
    };
  } finally {
    await t0?.close();
    await live.close();
  }
}

class World {
  ticks = 0;
  readonly reached: Record<string, number> = {
    payments: 0,
    refused: 0,
    settlements: 0,
    disputesLost: 0,
    disputesWon: 0,
    callbacks: 0,
    dashboardRaces: 0,
    jobFailures: 0,
  };
  private readonly progress = new Map<string, Progress>();
  private readonly lanes: Lane[];
  private readonly observer: JobObserver;
  /** The independent model of the money, fed with what the run observes. */
  private readonly watch: MoneyWatch;

  private constructor(
    private readonly t0: TestApp,
    private readonly clock: FakeClock,
    private readonly live: SandboxLiveChannel,
    private readonly payouts: FlakyPayouts,
    readonly merchants: SimMerchant[],
    /** Answers 503 with Retry-After that were retried once (and then answered below 500). */
    readonly retried: { count: number },
  ) {
    this.lanes = workerLanes(t0.app);
    this.watch = new MoneyWatch(t0, t0.app.get<Config>(AppConfig).disputeFeeMinor);
    for (const shop of merchants) this.watch.register(shop);
    this.observer = {
      jobRan: (_job, _lane, run) => {
        if (run.outcome === 'failed') this.count('jobFailures');
      },
    };
  }

  static async create(t0: TestApp, clock: FakeClock, live: SandboxLiveChannel, payouts: FlakyPayouts): Promise<World> {
    // Every answer goes through here: a 5xx is a broken invariant whatever the input was, but for
    // a 503 that asks to be retried (Retry-After: a callback or statement that timed out on a
    // loaded machine), which is retried once with the same Idempotency-Key, as the SDK does.
    const retried = { count: 0 };
    const guarded: TestApp = {
      ...t0,
      request: async (options) => {
        let res = await t0.request(options);
        if (res.statusCode === 503 && res.headers['retry-after'] !== undefined) {
          retried.count += 1;
          res = await t0.request(options);
        }
        if (res.statusCode >= 500) throw new Error(`${options.method} ${options.url} answered ${res.statusCode}: ${res.payload}`);
        return res;
      },
    };
    const merchants: SimMerchant[] = [];
    for (const profile of ROSTER) {
      const suffix = unique(profile.name);
      const created = await t0.app.get(CreateMerchant).execute({
        name: `Shop ${suffix}`,
        email: `${suffix}@example.com`,
        password: 'correct horse battery',
        settlementCurrency: profile.currency,
        settlementSchedule: profile.schedule,
        settlementDelayDays: profile.delayDays,
      });
      const merchantId = created.merchant.id;
      let key = created.testApiKey.secret;
      if (profile.mode === 'live') {
        await t0.app.get(SetLiveMode).execute({ merchantId, enabled: true });
        key = (await t0.app.get(IssueApiKey).execute({ merchantId, mode: 'live' })).secret;
      }
      merchants.push({
        profile,
        scope: { merchantId, mode: profile.mode },
        key,
        flow: paymentFlow(guarded, key),
        faultedFlow: paymentFlow(t0, key),
        intents: [],
        disputed: new Set(),
        channelDisputes: new Map(),
        checkedSettlements: new Set(),
        held: [],
        currency: profile.currency,
      });
    }
    return new World(t0, clock, live, payouts, merchants, retried);
  }

  private count(what: string, by = 1): void {
    this.reached[what] = (this.reached[what] ?? 0) + by;
  }

  compositions(): Record<string, number> {
    return this.watch.reached;
  }

  /** Names what the model books next (a step, an act of a story), for the story of a difference. */
  label(text: string): void {
    this.watch.model.label = text;
  }

  /**
   * Feeds the model what happened to `shops` (all merchants by default). The run observes after
   * each action whose order matters to the money, so the model sees them in their order. After a
   * worker pass, a settlement made by a schedule must have paid the whole available balance: the
   * settlement jobs run last in a pass, and a payout refused in it gives its amount back.
   */
  private observe(shops: readonly SimMerchant[] = this.merchants): Promise<Map<SimMerchant, SettlementNews>> {
    return this.watch.observe(shops);
  }

  /**
   * Throws unless a merchant that was just settled has nothing left above zero in available,
   * beyond what one settlement can carry and `later`: what payments released after the period a
   * scheduled batch closed hold there, which waits for the next period.
   */
  private assertSettledWhole(shop: SimMerchant, settled: bigint, why: string, later = 0n): void {
    const left = this.watch.available(shop) - later;
    if (left > 0n && left + settled <= BigInt(MAX_AMOUNT)) {
      throw new MoneyDifference(
        `${shop.profile.name} (${shop.scope.merchantId}): ${why}, yet ${left} ${shop.currency} stays in available by the model (settled ${settled}): a settlement pays the whole positive available balance\n${this.watch.story(shop, 'available')}`,
      );
    }
  }

  /** One pass of every lane of the worker's jobs, as the worker runs them, a fake second after the last; then what it did is observed. */
  private async tick(): Promise<void> {
    this.clock.advance(1_000);
    // A new scheduler each pass: its own interval memory (real time) would skip the minute jobs.
    await new Scheduler(this.lanes, 1_000, createLogger('silent'), this.t0.app.get<LockManager>(LockManager), this.observer).pass();
    this.ticks += 1;
    for (const [shop, news] of await this.observe()) {
      if (news.created > 0 && news.failed === 0) this.assertSettledWhole(shop, news.amount, `a worker pass made ${news.created} settlement(s)`, news.later);
    }
  }

  async run(action: Step): Promise<void> {
    switch (action.kind) {
      case 'tick':
        for (let index = 0; index < action.count; index += 1) await this.tick();
        return;
      case 'midnight': {
        // A minute past the next UTC midnight: daily (and on Mondays weekly) periods close.
        const now = this.clock.now().getTime();
        this.clock.set(new Date(Math.floor(now / 86_400_000) * 86_400_000 + 86_400_000 + 60_000));
        // Scheduled settlements are made at the pass after midnight: the books are reconciled after it.
        return this.withBank(action.bank, async () => {
          await this.tick();
          await this.reconcile();
        });
      }
      case 'story':
        return this.story(action);
      case 'pay':
        await this.pay(action, action.outcome);
        return;
      case 'pay_and_dispute': {
        // Opened before any worker pass: a wallet payment in another currency is not priced yet.
        const id = await this.pay(action, 'succeeded');
        if (!id) return;
        const shop = this.merchants[action.merchant];
        await this.dispute(shop, id, 'opened');
        if (action.ruling !== 'none') await this.dispute(shop, id, action.ruling);
        return;
      }
      case 'callbacks':
        return this.callbacks(action);
      case 'dispute': {
        const shop = this.merchants[action.merchant];
        const open = [...shop.disputed];
        // Rulings aim at an open dispute when there is one (else they exercise the refusal).
        const id = action.outcome !== 'opened' && open.length > 0 ? open[action.pick % open.length] : this.chosen(shop, action.pick);
        if (id) await this.dispute(shop, id, action.outcome);
        return;
      }
      case 'dispute_notice':
        return this.disputeNotice(action);
      case 'refund': {
        const shop = this.merchants[action.merchant];
        const id = this.chosen(shop, action.pick);
        if (id) await this.refund(shop, id, action.size, action.racers, action.then, action.fault);
        return;
      }
      case 'refund_outcome': {
        // A refund the slow channel holds, else any pending one of the merchant.
        const shop = this.merchants[action.merchant];
        const pending = shop.held.length > 0 ? shop.held : (await listAll(shop.flow, '/v1/refunds?status=pending')).map((refund) => refund.id);
        if (pending.length > 0) await this.refundOutcome(shop, pending[action.pick % pending.length], action.outcome);
        return;
      }
      case 'evidence': {
        const shop = this.merchants[action.merchant];
        const id = this.chosen(shop, action.pick);
        const dispute = id ? await this.t0.app.get<DisputeRepository>(DisputeRepository).findLatestForIntent(shop.scope, id) : undefined;
        if (id && dispute) await this.evidence(shop, dispute.id, id, action.fault);
        return;
      }
      case 'release': {
        const shop = this.merchants[action.merchant];
        const id = this.chosen(shop, action.pick);
        // The test-mode timer shortcut; live mode refuses it with a 4xx.
        if (id) await shop.flow.advance(id, 'release');
        return;
      }
      case 'settle':
        return this.withBank(action.bank, async () => {
          await this.settle(this.merchants[action.merchant], action.racers);
        });
      case 'big_batch': {
        // Payments near 2^53 each, released and settled together: their sum passes 2^53.
        const shop = this.merchants[action.merchant];
        const currency = shop.profile.currency === 'KWD' ? 'THB' : shop.profile.currency;
        for (let index = 0; index < action.payments; index += 1) {
          await this.pay(
            {
              merchant: action.merchant,
              amount: HOSTILE_AMOUNTS.indexOf(MAX_AMOUNT - 100),
              currency: payableCurrencies().indexOf(currency),
              method: index,
              fault: 'none',
            },
            'succeeded',
          );
        }
        await this.tick();
        await this.tick();
        for (const id of shop.intents.slice(-action.payments)) await shop.flow.advance(id, 'release');
        await this.tick();
        await this.settle(shop, 2);
        return;
      }
      case 'dashboard':
        return this.dashboard(action);
    }
  }

  /** An intent of the shop, counting back from the newest (small picks favour recent payments). */
  private chosen(shop: SimMerchant, index: number): string | undefined {
    return shop.intents.length === 0 ? undefined : shop.intents[shop.intents.length - 1 - (index % shop.intents.length)];
  }

  /**
   * A story: one payment paid, then acts on it in the order drawn, each observed by the model
   * before the next: refunds (left pending, failed, succeeded), disputes opened and ruled (again
   * after a ruling), release, settlement (the bank paying or refusing the payout), worker passes.
   */
  private async story(action: Extract<Step, { kind: 'story' }>): Promise<void> {
    const shop = this.merchants[action.merchant];
    const id = await this.pay(action, 'succeeded');
    if (!id) return;
    this.count('stories');
    const step = this.watch.model.label;
    for (const [index, act] of action.acts.entries()) {
      this.label(`${step}, act ${index} ${JSON.stringify(act)} on ${id}`);
      switch (act.act) {
        case 'refund':
          await this.refund(shop, id, act.size, 1, act.then, act.fault);
          break;
        case 'refund_outcome': {
          const pending = await listAll(shop.flow, `/v1/refunds?payment_intent=${id}&status=pending`);
          if (pending.length > 0) await this.refundOutcome(shop, pending[0].id, act.outcome);
          break;
        }
        case 'dispute':
          await this.dispute(shop, id, act.outcome);
          break;
        case 'release': {
          // Channel-settled by the simulator's next passes, then its release timer fired (live: at once).
          for (let pass = 0; pass < 3 && textAt(await shop.flow.intent(id), 'status') === 'succeeded'; pass += 1) await this.tick();
          if (shop.profile.mode === 'test') await shop.flow.advance(id, 'release');
          await this.tick();
          break;
        }
        case 'settle':
          await this.withBank(act.bank, async () => {
            // A scheduled merchant is settled at its period's end.
            if ((await this.settle(shop, 1)).every((status) => status === 403)) await this.run({ kind: 'midnight', bank: act.bank });
          });
          break;
        case 'tick':
          await this.tick();
          break;
      }
    }
  }

  /** The simulated bank refuses the next payout while `work` runs (test mode), or pays as usual. */
  private async withBank(bank: 'pays' | 'fails', work: () => Promise<void>): Promise<void> {
    this.payouts.refuse = bank === 'fails' ? 1 : 0;
    try {
      await work();
    } finally {
      if (this.payouts.refuse === 0 && bank === 'fails') this.count('payoutsRefused');
      this.payouts.refuse = 0;
    }
  }

  /** Creates an intent and an attempt, and has the payer pay, fail or walk away, then observes the money. Answers the intent id. */
  private async pay(action: Payment, outcome: Outcome): Promise<string | undefined> {
    const id = await this.payOnly(action, outcome);
    await this.observe([this.merchants[action.merchant]]);
    return id;
  }

  private async payOnly(action: Payment, outcome: Outcome): Promise<string | undefined> {
    const shop = this.merchants[action.merchant];
    const { hostile } = shop.profile;
    const catalog = payableCurrencies();
    const ordinary = Object.keys(ORDINARY_UNIT);
    const currency = hostile ? catalog[action.currency % catalog.length] : ordinary[action.currency % ordinary.length];
    const methods = methodsForCurrency(currency);
    // The opening step names alipay_plus; otherwise any method that takes the currency.
    const method = action.method === 1_000 ? 'alipay_plus' : methods[action.method % methods.length]?.method;
    const amount = hostile
      ? HOSTILE_AMOUNTS[action.amount % HOSTILE_AMOUNTS.length]
      : // Whole hundreds never end in a magic 01–05, so only the payer decides the outcome.
        Math.max(100, Math.round((ORDINARY_UNIT[currency] * (5 + (action.amount % 400))) / 100) * 100);
    const created = await shop.flow.post('/v1/payment_intents', { amount, currency, merchant_order_id: unique('order') });
    if (created.statusCode !== 201) {
      if (!hostile) throw new Error(`an ordinary intent of ${amount} ${currency} was refused: ${created.statusCode} ${created.payload}`);
      this.count('refused');
      return undefined;
    }
    const id = textAt(JSON.parse(created.payload), 'id');
    shop.intents.push(id);
    const attempt = await this.attempt(shop, id, method, action.fault);
    if (attempt.statusCode !== 201) {
      if (!hostile) throw new Error(`an ordinary attempt (${method}, ${amount} ${currency}) was refused: ${attempt.statusCode} ${attempt.payload}`);
      this.count('refused');
      return id;
    }
    this.count('payments');
    if (outcome === 'pending') return id;
    if (shop.profile.mode === 'test') {
      const res = await shop.flow.simulate(id, outcome === 'succeeded' ? { outcome: 'succeeded' } : { outcome: 'failed' });
      if (!hostile && res.statusCode !== 200) throw new Error(`simulating ${outcome} for an ordinary payment answered ${res.statusCode} ${res.payload}`);
      return id;
    }
    const orderId = await this.orderOf(shop, id);
    if (!orderId) return id;
    const answer = await this.live.desk(
      `/sandbox/orders/${orderId}/${outcome === 'succeeded' ? 'pay' : 'fail'}`,
      outcome === 'succeeded' ? {} : { failure_code: 'insufficient_funds' },
    );
    if (answer.status !== 200 && !hostile)
      throw new Error(`the sandbox refused to ${outcome === 'succeeded' ? 'pay' : 'fail'} ${orderId}: ${JSON.stringify(answer.json)}`);
    // The sandbox's own callback is signed with the real clock; the channel's retry, at the service's time.
    await this.deliverLive(JSON.stringify(await this.live.order(orderId)));
    return id;
  }

  private async orderOf(shop: SimMerchant, intentId: string): Promise<string | undefined> {
    const attempts = await this.t0.app.get<PaymentAttemptRepository>(PaymentAttemptRepository).listForIntent(shop.scope, intentId);
    return attempts.at(-1)?.channelOrderId;
  }

  private seconds(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }

  /** A signed simulator notice straight to the callback route, as the channel retrying it would. */
  private async deliverTest(body: Record<string, unknown>): Promise<void> {
    const config = this.t0.app.get<Config>(AppConfig);
    const raw = JSON.stringify(body);
    const signature = sign(simulatorCallbackSecret(config.masterKey), this.seconds(), raw);
    await this.callback('/channels/simulator/callback/test', { [SIGNATURE_HEADER]: signature }, raw);
  }

  /** A signed rest notice for the live channel. */
  private async deliverLive(raw: string): Promise<void> {
    await this.callback('/channels/rest/callback/live', { [REST_SIGNATURE_HEADER]: this.live.sign(raw, this.seconds()) }, raw);
  }

  private async callback(url: string, headers: Record<string, string>, raw: string): Promise<ServerInjectResponse> {
    const res = await this.t0.server.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: raw });
    if (res.statusCode >= 500) throw new Error(`POST ${url} answered ${res.statusCode}: ${res.payload}`);
    this.count('callbacks');
    return res;
  }

  /** Order notices replayed, in the order drawn, one after another or all at once. */
  private async callbacks(action: Extract<Step, { kind: 'callbacks' }>): Promise<void> {
    const shop = this.merchants[action.merchant];
    const id = this.chosen(shop, action.pick);
    if (!id) return;
    const attempt = (await this.t0.app.get<PaymentAttemptRepository>(PaymentAttemptRepository).listForIntent(shop.scope, id)).at(-1);
    if (!attempt?.channelOrderId) return;
    const send = async (status: string): Promise<void> => {
      if (shop.profile.mode === 'test') {
        await this.deliverTest({ id: attempt.channelOrderId, reference: attempt.id, status, amount: attempt.amount, currency: attempt.currency });
      } else {
        // A claim: the service believes only its confirming query.
        const order = await this.live.order(attempt.channelOrderId!);
        if (order) await this.deliverLive(JSON.stringify({ ...order, status }));
      }
    };
    if (action.together) await Promise.all(action.statuses.map(send));
    else for (const status of action.statuses) await send(status);
    // A payment the channel confirms for an intent another attempt paid is the payer's.
    await this.watch.observeDuplicates(shop, id);
  }

  private async dispute(shop: SimMerchant, id: string, outcome: 'opened' | 'won' | 'lost'): Promise<void> {
    let ok: boolean;
    if (shop.profile.mode === 'test') {
      const res = await shop.flow.simulate(id, { outcome: `dispute_${outcome}` });
      ok = res.statusCode === 200;
    } else {
      const orderId = await this.orderOf(shop, id);
      const channelDispute = shop.channelDisputes.get(id);
      const answer =
        outcome === 'opened'
          ? orderId
            ? await this.live.desk(`/sandbox/orders/${orderId}/dispute`)
            : undefined
          : channelDispute
            ? await this.live.desk(`/sandbox/disputes/${channelDispute}/${outcome}`)
            : undefined;
      ok = answer?.status === 200;
      if (answer && ok) {
        const dispute = objectAt(answer.json, 'dispute');
        shop.channelDisputes.set(id, textAt(dispute, 'id'));
        await this.deliverLive(JSON.stringify({ type: 'dispute', ...dispute }));
      }
    }
    if (!ok) return;
    await this.observe([shop]);
    if (outcome === 'opened') shop.disputed.add(id);
    else shop.disputed.delete(id);
    if (outcome === 'lost') this.count('disputesLost');
    if (outcome === 'won') this.count('disputesWon');
  }

  /**
   * Refunds of one of the shop's intents, whatever its state (an unpaid or disputed one is
   * refused, and the model says how): an amount of `refundAmount`, alone or two at once. Then, in
   * test mode, each refund made is told to fail or to succeed now, or held pending at a slow
   * channel, or left for the channel's next pass (`RefundThen`). A lone refund may be broken off
   * by `fault` and retried (`once`).
   */
  private async refund(shop: SimMerchant, id: string, size: number, racers: number, then: RefundThen, fault: Fault): Promise<void> {
    const amount = refundAmount(numberAt(await shop.flow.intent(id), 'amount'), size);
    const body = { payment_intent: id, ...(amount === undefined ? {} : { amount }) };
    const verdict = this.watch.refundVerdict(id, amount);
    const answers =
      racers === 1
        ? [
            await this.once(
              shop,
              'refund',
              fault,
              (flow, key) => flow.post('/v1/refunds', body, key),
              () => this.refundEffects(shop, id),
            ),
          ]
        : await Promise.all(Array.from({ length: racers }, () => shop.flow.post('/v1/refunds', body)));
    const made = answers.filter((res) => res.statusCode === 201).map((res) => apiObjectAt(res.result));
    this.count('refunds', made.length);
    const expected = verdict.status === 201 ? '201' : `${verdict.status} ${verdict.code}`;
    const got = answers.map((res) => (res.statusCode === 201 ? '201' : `${res.statusCode} ${String(jsonAt(res.result, 'error', 'code'))}`));
    if (verdict.status === 201 ? !got.includes('201') : got.some((answer) => answer !== expected)) {
      throw new MoneyDifference(
        `a refund of ${amount ?? 'the remainder'} of ${id}: the rules answer ${expected}, the service ${got.join(', ')}; ${this.watch.model.describePayment(id)}`,
      );
    }
    if (verdict.status !== 201) this.count(`refundsRefused_${verdict.code}`);
    await this.observe([shop]);
    if (shop.profile.mode !== 'test') return;
    for (const refund of made) {
      if (refund.status !== 'pending') continue;
      if (then === 'fail' || then === 'succeed') await this.refundOutcome(shop, refund.id, then === 'fail' ? 'failed' : 'succeeded');
      if (then === 'leave') await this.holdRefund(shop, refund.id);
    }
  }

  /** The intent's refunds, and in test mode the simulated channel's refunds of its orders. */
  private async refundEffects(shop: SimMerchant, id: string): Promise<number[]> {
    const made = (await listAll(shop.flow, `/v1/refunds?payment_intent=${id}`)).length;
    if (shop.profile.mode !== 'test') return [made];
    const orders = this.knex()('simulator_orders')
      .select('id')
      .whereIn('reference', this.knex()('payment_attempts').select('id').where({ payment_intent_id: id }));
    return [made, await this.countOf(this.knex()('simulator_refunds').whereIn('order_id', orders))];
  }

  /** An attempt at paying intent `id` by `method`, maybe broken off by `fault` and retried (`once`). */
  private attempt(shop: SimMerchant, id: string, method: string | undefined, fault: Fault): Promise<TestResponse> {
    return this.once(
      shop,
      'attempt',
      fault,
      (flow, key) => flow.attempt(id, { payment_method: method }, key),
      async () => {
        const made = (await shop.flow.attempts(id)).length;
        if (shop.profile.mode !== 'test') return [made];
        return [
          made,
          await this.countOf(
            this.knex()('simulator_orders').whereIn('reference', this.knex()('payment_attempts').select('id').where({ payment_intent_id: id })),
          ),
        ];
      },
    );
  }

  /** Evidence for the dispute `disputeId` of intent `id`, maybe broken off by `fault` and retried (`once`): announced once. */
  private async evidence(shop: SimMerchant, disputeId: string, id: string, fault: Fault): Promise<void> {
    await this.once(
      shop,
      'evidence',
      fault,
      (flow, key) => flow.post(`/v1/disputes/${disputeId}/evidence`, { evidence: { receipt: `receipt for ${id}` } }, key),
      async () => [await this.countOf(this.knex()('events').where({ type: 'dispute.updated' }).andWhere('data', 'like', `%${disputeId}%`))],
    );
  }

  /**
   * One request of a route whose work calls a channel between transactions, sent with its own
   * Idempotency-Key. With a fault, its first try is broken off at that phase boundary
   * (docs/idempotency.md, recovery points) and the client retries with the same key, after the
   * lease when the process died. Whatever the first try did, the request then had exactly one
   * effect: each of `effects` (the objects made, the channel's orders or refunds for them, the
   * events announcing them) grew by one when the retry succeeded and by none when it was refused,
   * and a replay answers the retry's answer byte for byte. Answers what the client ends with.
   */
  private async once(
    shop: SimMerchant,
    route: PhasedRoute,
    fault: Fault,
    send: (flow: SimMerchant['flow'], key: string) => Promise<TestResponse>,
    effects: () => Promise<number[]>,
  ): Promise<TestResponse> {
    const key = unique(route);
    if (fault === 'none') return send(shop.flow, key);
    const before = await effects();
    const { first, retry, reached } = await faultThenRetry(this.t0.app, this.clock, route, fault, () => send(shop.faultedFlow, key));
    const where = `${route} (key ${key}) broken off at ${fault}`;
    if (!reached) {
      // Refused before the boundary: there was nothing to break off.
      if (first.statusCode >= 500) throw new Error(`${where}: answered ${first.statusCode} ${first.payload} before the boundary`);
      this.count(`faultsUnreached_${route}`);
      return first;
    }
    this.count(`faults_${route}_${fault}`);
    if (first.statusCode !== BOUNDARY_STATUS[fault]) throw new Error(`${where}: the first try answered ${first.statusCode} ${first.payload}`);
    if (retry.statusCode >= 500) throw new Error(`${where}: the retry answered ${retry.statusCode} ${retry.payload}`);
    const grown = (await effects()).map((after, index) => after - before[index]);
    const expected = retry.statusCode < 300 ? 1 : 0;
    if (grown.some((by) => by !== expected)) {
      throw new Error(
        `${where}: one effect expected (${expected} after the retry's ${retry.statusCode}), the counts grew by ${grown.join(', ')}: ${retry.payload}`,
      );
    }
    const replay = await send(shop.faultedFlow, key);
    if (replay.statusCode !== retry.statusCode || replay.payload !== retry.payload) {
      throw new Error(`${where}: the replay answered ${replay.statusCode} ${replay.payload}, the retry ${retry.statusCode} ${retry.payload}`);
    }
    return retry;
  }

  private knex(): Knex {
    return this.t0.app.get<Knex>(AppKnex);
  }

  private async countOf(query: Knex.QueryBuilder): Promise<number> {
    const rows: Array<{ n: number | string }> = await query.count({ n: '*' });
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * The simulated channel is slow with this refund: it reports it only when told (a
   * `refund_outcome`), not on its next pass. Its row in the simulator's refund book loses its
   * report time (the channel's side of the world; the service is not touched).
   */
  private async holdRefund(shop: SimMerchant, refundId: string): Promise<void> {
    const held = await this.t0.app.get(AppKnex)('simulator_refunds').where({ reference: refundId, status: 'pending' }).update({ due_at: null });
    if (held > 0) {
      shop.held.push(refundId);
      this.count('refundsHeld');
    }
  }

  /** The channel reports a pending refund failed or succeeded now (test mode), and the money is observed. */
  private async refundOutcome(shop: SimMerchant, refundId: string, outcome: 'failed' | 'succeeded'): Promise<void> {
    const res = await shop.flow.post(`/v1/test/refunds/${refundId}/simulate`, { outcome });
    if (res.statusCode === 200) this.count(outcome === 'failed' ? 'refundsFailed' : 'refundsSucceeded');
    shop.held.splice(0, shop.held.length, ...shop.held.filter((held) => held !== refundId));
    await this.observe([shop]);
  }

  private async disputeNotice(action: Extract<Step, { kind: 'dispute_notice' }>): Promise<void> {
    const shop = this.merchants[action.merchant];
    const id = this.chosen(shop, action.pick);
    const dispute = id ? await this.t0.app.get<DisputeRepository>(DisputeRepository).findLatestForIntent(shop.scope, id) : undefined;
    if (!dispute) return;
    const notices = Array.from({ length: action.times }, () =>
      shop.profile.mode === 'test'
        ? this.deliverTest({ type: 'dispute', id: dispute.channelDisputeId })
        : this.deliverLive(JSON.stringify({ type: 'dispute', id: dispute.channelDisputeId })),
    );
    await Promise.all(notices);
  }

  /**
   * Manual settlements, `racers` requests at once. More than one may be made (a batch past 2^53 is
   * settled in parts, one per request); the checks after the step prove no payment was paid twice.
   * Whether made or refused (409), nothing above zero may stay in available by the model, unless
   * the bank refused the payout (its amount came back) or one settlement could not carry it all.
   * Answers the status codes.
   */
  private async settle(shop: SimMerchant, racers: number): Promise<number[]> {
    const answers = await Promise.all(Array.from({ length: racers }, () => shop.flow.post('/v1/settlements')));
    const made = answers.filter((res) => res.statusCode === 201).length;
    this.count('settlements', made);
    const news = (await this.observe([shop])).get(shop);
    const refused = answers.filter((res) => res.statusCode === 409).map((res) => String(jsonAt(res.result, 'error', 'code')));
    if (news && news.failed === 0 && (made > 0 || refused.length > 0)) {
      this.assertSettledWhole(shop, news.amount, `POST /v1/settlements ×${racers} made ${made}${refused.length > 0 ? `, refused ${refused.join(', ')}` : ''}`);
    }
    await this.reconcile();
    return answers.map((res) => res.statusCode);
  }

  /**
   * The books against the channels' own statements (docs/reconciliation.md), after every settlement
   * step: in both modes, every statement line matches the ledger's channel movements and every
   * movement a line, once nothing is on its way; an open break fails the step.
   */
  private async reconcile(): Promise<void> {
    for (const mode of MODES) {
      const open = await this.t0.app.get(ReconcileChannel).execute({ mode });
      this.count('reconciliations');
      if (open.length > 0) {
        const shown = JSON.stringify(open.slice(0, 5), (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
        throw new Error(`reconciliation (${mode}): ${open.length} open break(s): ${shown}`);
      }
    }
  }

  /** Two dashboard edits of one merchant at once, by two owners signed in now. */
  private async dashboard(action: Extract<Step, { kind: 'dashboard' }>): Promise<void> {
    const shop = this.merchants[action.merchant];
    const [first, second] = await Promise.all([
      signIn(this.t0, { merchantId: shop.scope.merchantId, role: 'owner' }),
      signIn(this.t0, { merchantId: shop.scope.merchantId, role: 'owner' }),
    ]);
    const as = (user: { cookie: string }, method: string, url: string, payload?: unknown) =>
      this.request({ method, url, headers: { cookie: user.cookie }, payload });
    const schedules = ['daily', 'weekly', 'monthly', 'manual'];
    this.count('dashboardRaces');
    if (action.edit === 'schedule' || action.edit === 'name') {
      const field = action.edit === 'schedule' ? 'settlement_schedule' : 'business_name';
      const values = action.picks.map((value) => (action.edit === 'schedule' ? schedules[value] : `Shop ${value}`));
      const answers = await Promise.all([
        as(first, 'PATCH', '/dashboard/v1/settings', { [field]: values[0] }),
        as(second, 'PATCH', '/dashboard/v1/settings', { [field]: values[1] }),
      ]);
      if (answers.some((res) => res.statusCode === 200)) this.count('settingsEdited');
      const settings = await as(first, 'GET', '/dashboard/v1/settings');
      const shown = jsonAt(settings.result, field);
      if (answers.every((res) => res.statusCode === 200) && settings.statusCode === 200 && !values.some((value) => value === shown)) {
        throw new Error(`after two edits of ${field} to ${values.join(' and ')} the settings show ${JSON.stringify(shown)}`);
      }
      return;
    }
    // The same new colleague added twice at once: one user, not two. Adding takes the acting
    // owner's code (step-up): the next step's, since sign-in spent this one.
    const email = `${unique('colleague')}@example.com`;
    const body = (user: { totpSecret: string }) => ({
      email,
      password: 'correct horse battery staple',
      role: 'developer',
      code: totpCode(this.t0, user.totpSecret, 1),
    });
    const added = await Promise.all([as(first, 'POST', '/dashboard/v1/users', body(first)), as(second, 'POST', '/dashboard/v1/users', body(second))]);
    if (added.filter((res) => res.statusCode === 201).length > 1) throw new Error(`one email was added twice: ${added.map((res) => res.payload).join(' / ')}`);
    const made = added.find((res) => res.statusCode === 201);
    if (!made) return;
    const user = apiObjectAt(made.result);
    this.count('colleaguesAdded');
    // Roles below admin: granting admin or owner would take another code.
    const roles = ['viewer', 'support', 'developer', 'viewer'];
    await Promise.all([
      as(first, 'PATCH', `/dashboard/v1/users/${user.id}`, { role: roles[action.picks[0]] }),
      as(second, 'PATCH', `/dashboard/v1/users/${user.id}`, { role: roles[action.picks[1]] }),
    ]);
  }

  private async request(options: { method: string; url: string; headers: Record<string, string>; payload?: unknown }): Promise<TestResponse> {
    const res = await this.t0.request(options);
    if (res.statusCode >= 500) throw new Error(`${options.method} ${options.url} answered ${res.statusCode}: ${res.payload}`);
    return res;
  }

  /** The invariants after a step. */
  async check(): Promise<void> {
    // The model first: its difference names the rule a broken invariant below would only hint at.
    await this.observe();
    await this.watch.compare(this.merchants);
    await assertLedgerVerifies(this.t0);
    const now = this.clock.now().getTime();
    for (const shop of this.merchants) {
      const { intents, stored } = await assertMerchantMoney(this.t0, shop.flow, {
        scope: shop.scope,
        key: shop.key,
        currency: shop.profile.currency,
        checkedSettlements: shop.checkedSettlements,
      });
      if (shop.profile.hostile) continue;
      const releasedIds = new Set(stored.filter((pi) => pi.releasedAt).map((pi) => pi.id));
      for (const intent of intents) {
        const progress = this.progress.get(intent.id) ?? {};
        if (intent.status === 'succeeded') progress.succeededAt ??= this.ticks;
        if (intent.status === 'channel_settled' && !releasedIds.has(intent.id) && Date.parse(textAt(intent, 'available_at')) <= now)
          progress.releasableAt ??= this.ticks;
        this.progress.set(intent.id, progress);
        const who = `${shop.profile.name}'s ${intent.id} (${numberAt(intent, 'amount')} ${textAt(intent, 'currency')})`;
        if (intent.status === 'succeeded' && this.ticks - progress.succeededAt! > LIVENESS_TICKS) {
          throw new Error(`liveness: ${who} succeeded ${this.ticks - progress.succeededAt!} worker passes ago and is not channel_settled`);
        }
        if (progress.releasableAt !== undefined && !releasedIds.has(intent.id) && this.ticks - progress.releasableAt > LIVENESS_TICKS) {
          throw new Error(`liveness: ${who} was due for release ${this.ticks - progress.releasableAt} worker passes ago and is not available`);
        }
      }
    }
  }
}
