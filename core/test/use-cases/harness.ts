import { createInMemoryStorage, FakeClock, type InMemoryStorage } from '@payments/in-memory';
import { CryptoDigest, CryptoRandomSource, ScryptPasswordHasher } from '@payments/node-runtime';
import { Decimal } from 'decimal.js';
import { DEFAULT_FEE_SCHEDULE } from '../../src/fx/domain/fees';
import { PaymentPricing } from '../../src/fx/use-cases/payment-pricing';
import type { StatusChangeDeps } from '../../src/payments/use-cases/payment-intent-status-change';
import type { FxRateSource } from '../../src/fx/ports/fx-rate-source.port';
import type {
  ChannelCapabilities,
  ChannelNotice,
  ChannelOrderStatus,
  PaymentChannel,
  PaymentChannelRegistry,
  PlaceOrderRequest,
  PlaceOrderResult,
} from '../../src/payments/ports/payment-channel.port';
import type { AccountScope, Mode } from '../../src/common/mode';
import { isOneOf, isRecord } from '../../src/common/guards';
import type { PaymentAttempt } from '../../src/payments/domain/payment-attempt.entity';
import type { PaymentIntent } from '../../src/payments/domain/payment-intent.entity';
import type { OperatorAlerts } from '../../src/common/operator-alerts.port';
import { CreatePaymentIntent } from '../../src/payments/use-cases/create-payment-intent.use-case';
import { RecordChannelReport } from '../../src/payments/use-cases/record-channel-report.use-case';
import { ReportChannelSettlements } from '../../src/payments/use-cases/report-channel-settlements.use-case';
import { RecordDisputeReport } from '../../src/disputes/use-cases/record-dispute-report.use-case';
import { paymentDisputesOf } from '../../src/disputes/use-cases/payment-disputes';
import { PaymentFunds } from '../../src/funds/use-cases/payment-funds';
import { CreateMerchant } from '../../src/dashboard/use-cases/create-merchant.use-case';
import { IssueApiKey } from '../../src/merchants/use-cases/issue-api-key.use-case';
import type { ItemJob } from '../../src/jobs/use-cases/item-job';
import { RunItemJobs } from '../../src/jobs/use-cases/run-item-jobs.use-case';

/** Units of each catalog currency per USD (the bundled reference table's figures); `down` makes the source fail. */
export class TestRates implements FxRateSource {
  down = false;
  readonly perUsd: Record<string, string> = { USD: '1', THB: '32.54', SGD: '1.274', MYR: '4.2135', PHP: '56.33', IDR: '16235' };

  async midRate(from: string, to: string): Promise<string> {
    const a = this.perUsd[from];
    const b = this.perUsd[to];
    if (this.down || a === undefined || b === undefined) throw new Error('no rate');
    return new Decimal(b).dividedBy(a).toSignificantDigits(20).toFixed();
  }
}

/**
 * A channel double named `fake`, for what one test needs of a channel: it offers promptpay in THB,
 * in test mode, without simulation, unless the test's channel overrides `capabilities`
 * (`fakeCapabilities`); what the test does not use throws ('not used'), and voiding does nothing.
 */
export abstract class FakeChannel implements PaymentChannel {
  readonly capabilities: ChannelCapabilities = fakeCapabilities();

  async placeOrder(_request: PlaceOrderRequest): Promise<PlaceOrderResult> {
    throw new Error('not used');
  }
  async queryOrder(_mode: Mode, _channelOrderId: string): Promise<ChannelOrderStatus> {
    throw new Error('not used');
  }
  verifyCallback(_mode: Mode, _headers: Readonly<Record<string, string | undefined>>, _rawBody: string): ChannelNotice {
    throw new Error('not used');
  }
  async voidOrder(_mode: Mode, _channelOrderId: string): Promise<void> {}
}

/** What a `FakeChannel` offers: promptpay in THB, in test mode, without simulation, unless `overrides` say otherwise. */
export function fakeCapabilities(overrides: Partial<ChannelCapabilities> = {}): ChannelCapabilities {
  return { name: 'fake', modes: ['test'], methods: ['promptpay'], currencies: ['THB'], canSimulate: false, pendingTimeoutMs: 60_000, ...overrides };
}

/** The registry of one channel, named `fake`. */
export const fakeChannels = (channel: PaymentChannel): PaymentChannelRegistry => ({
  find: (name) => (name === 'fake' ? channel : undefined),
  forMode: () => [channel],
});

/** An intent of 10000 THB made at `now` in `scope`, waiting for its payer unless `fields` say otherwise. */
export const fakeIntent = (scope: AccountScope, now: Date, fields: Pick<PaymentIntent, 'id' | 'merchantOrderId'> & Partial<PaymentIntent>): PaymentIntent => ({
  merchantId: scope.merchantId,
  mode: scope.mode,
  amount: 10000,
  currency: 'THB',
  status: 'requires_payment',
  metadata: {},
  created: now,
  updated: now,
  version: 0,
  ...fields,
});

const REPORTED_STATUSES = ['processing', 'paid', 'failed'] as const;

/** The notice a fake channel sent as JSON, read back where a real channel would check its signature. */
export function noticeOf(rawBody: string): ChannelNotice {
  const notice: unknown = JSON.parse(rawBody);
  if (isRecord(notice) && notice.kind === 'dispute' && typeof notice.channelDisputeId === 'string') {
    return { kind: 'dispute', channelDisputeId: notice.channelDisputeId };
  }
  if (isRecord(notice) && typeof notice.channelOrderId === 'string' && typeof notice.reference === 'string' && typeof notice.reportedStatus === 'string') {
    const { channelOrderId, reference, reportedStatus } = notice;
    if (isOneOf(REPORTED_STATUSES, reportedStatus)) return { kind: 'order', channelOrderId, reference, reportedStatus };
  }
  throw new Error(`Not a notice a fake channel sends: ${rawBody}`);
}

/** An attempt made at `now` for the whole of `intent` at the `fake` channel, by promptpay unless `fields` say otherwise. */
export const fakeAttempt = (
  intent: PaymentIntent,
  now: Date,
  fields: Pick<PaymentAttempt, 'id' | 'status' | 'channelOrderId'> & Partial<PaymentAttempt>,
): PaymentAttempt => ({
  paymentIntentId: intent.id,
  merchantId: intent.merchantId,
  mode: intent.mode,
  amount: intent.amount,
  currency: intent.currency,
  paymentMethod: 'promptpay',
  channel: 'fake',
  created: now,
  updated: now,
  version: 0,
  ...fields,
});

/** Core wired to in-memory adapters and a fake clock, as each use-case test needs it. */
export function harness() {
  const storage: InMemoryStorage = createInMemoryStorage();
  const clock = new FakeClock(new Date('2026-09-01T10:00:00Z'));
  const random = new CryptoRandomSource();
  const digest = new CryptoDigest();
  const funds = new PaymentFunds({ ledger: storage.ledger, disputes: paymentDisputesOf(storage.disputes) });
  const statusChange: StatusChangeDeps = {
    intents: storage.intents,
    events: storage.events,
    webhookEndpoints: storage.webhookEndpoints,
    webhookDeliveries: storage.webhookDeliveries,
    clock,
    random,
  };
  const issueApiKey = new IssueApiKey({ keys: storage.apiKeys, merchants: storage.merchants, clock, random, digest });
  const createMerchant = new CreateMerchant({
    uow: storage.uow,
    merchants: storage.merchants,
    users: storage.users,
    issueApiKey,
    passwords: new ScryptPasswordHasher({ N: 1024, r: 8, p: 1 }),
    clock,
    random,
  });
  let n = 0;
  const newMerchant = () => {
    n += 1;
    return createMerchant.execute({ name: `Shop ${n}`, email: `owner${n}@example.com`, password: 'a long enough password' });
  };
  const noChannels: PaymentChannelRegistry = { find: () => undefined, forMode: () => [] };
  const rates = new TestRates();
  const pricing = new PaymentPricing({ rates, settings: { spreadBps: 50, fees: DEFAULT_FEE_SCHEDULE }, clock });
  const jobs = new RunItemJobs({ failures: storage.jobItemFailures, clock });
  /** One pass of a background job over each of its lanes, through the runner the worker uses. */
  const runJob = <T, R>(job: ItemJob<T, R>, limit: number) => jobs.runEveryLane(job, limit);
  // The use cases several tests build, each with its own link base, channels, alerts or dispute fee.
  const createPaymentIntent = (publicBaseUrl = 'https://pay.example.com') =>
    new CreatePaymentIntent({
      uow: storage.uow,
      intents: storage.intents,
      sessions: storage.checkoutSessions,
      clock,
      random,
      digest,
      settings: { publicBaseUrl },
      pricing,
    });
  /** Priced with no rate source: a payment that needed a rate would fail. */
  const recordChannelReport = (alerts: OperatorAlerts = { duplicatePayment: () => undefined }) => {
    const noRates = new PaymentPricing({
      rates: { midRate: () => Promise.reject(new Error('no rates here')) },
      settings: { spreadBps: 0, fees: DEFAULT_FEE_SCHEDULE },
      clock,
    });
    return new RecordChannelReport({
      uow: storage.uow,
      attempts: storage.attempts,
      merchants: storage.merchants,
      ...statusChange,
      pricing: noRates,
      funds,
      alerts,
    });
  };
  const recordDisputeReport = (disputeFeeMinor: number) =>
    new RecordDisputeReport({
      ...statusChange,
      uow: storage.uow,
      disputes: storage.disputes,
      funds,
      merchants: storage.merchants,
      rules: { disputeFeeMinor },
    });
  const reportChannelSettlements = (channels: PaymentChannelRegistry) =>
    new ReportChannelSettlements({
      uow: storage.uow,
      attempts: storage.attempts,
      merchants: storage.merchants,
      channels,
      ...statusChange,
      pricing,
      funds,
    });
  const useCases = { createPaymentIntent, recordChannelReport, recordDisputeReport, reportChannelSettlements };
  return { storage, clock, random, digest, funds, noChannels, rates, pricing, statusChange, issueApiKey, createMerchant, newMerchant, runJob, ...useCases };
}
