import 'reflect-metadata';
import {
  ApiKeyRepository,
  type EventPublishDeps,
  GetBalance,
  DisputeRepository,
  Ledger,
  VerifyLedger,
  AuthenticateApiKey,
  CancelPaymentIntent,
  CheckoutSessionRepository,
  Clock,
  CreateMerchant,
  CreatePaymentIntent,
  Digest,
  EventOutbox,
  AdvanceTimer,
  ExpirePaymentIntents,
  FxRateSource,
  HandleChannelCallback,
  ListAttempts,
  PaymentAttemptRepository,
  AuditLog,
  AuditRecorder,
  OneTimeCodes,
  SecretBox,
  VerifyOneTimeCode,
  AddTeamUser,
  AuthenticateDashboardSession,
  ClaimMfa,
  DashboardCredentials,
  DashboardSessionRepository,
  FailureCounter,
  ListTeamUsers,
  ResetTeamUserMfa,
  SignIn,
  SignInThrottle,
  StepUp,
  SignOut,
  UpdateTeamUser,
  PaymentChannelRegistry,
  PaymentPricing,
  PlaceAttempt,
  QuoteFx,
  ReconcileAttempts,
  RecordChannelReport,
  ReleaseFunds,
  ReportChannelSettlements,
  SimulatePayment,
  type PaymentChannel,
  GetPaymentIntent,
  IdempotencyStore,
  IssueApiKey,
  ListEvents,
  ListPaymentIntents,
  LockManager,
  MerchantRepository,
  PasswordHasher,
  PaymentIntentRepository,
  RandomSource,
  RateLimiter,
  ResolveApiVersion,
  RunIdempotently,
  SetLiveMode,
  UnitOfWork,
  UserRepository,
  type StatusChangeDeps,
} from '@payments/core';
import {
  CreateApiKey,
  CreateWebhookEndpoint,
  DeleteWebhookEndpoint,
  DeliverNotices,
  Ed25519KeyCheck,
  EmailSender,
  GetMerchantSettings,
  ListApiKeys,
  ListPayoutDestinations,
  ListSigningKeys,
  ListWebhookEndpoints,
  NoticeOutbox,
  PayoutDestinationRepository,
  RegisterPayoutDestination,
  RegisterSigningKey,
  RevokeApiKey,
  SetDefaultPayoutDestination,
  SigningKeyRepository,
  UpdateMerchantSettings,
  UpdateWebhookEndpoint,
  WebhookEndpointRepository,
  WebhookDeliveryRepository,
} from '@payments/core';
import { WebhookSender } from '@payments/core';
import {
  CreateManualSettlement,
  CreateScheduledSettlements,
  GetSettlement,
  ListSettlements,
  PaySettlement,
  PaySettlements,
  PayoutGateway,
  SettlementRepository,
  VerifyPayoutDestinations,
  type SettlementDeps,
} from '@payments/core';
import { SimulatedPayoutGateway } from '@payments/channel-simulator';
import { createRestPayoutGateway } from '@payments/payout-rest';
import { ModePayoutGateway } from './payouts';
import { GetDispute, ListDisputes, ReconcileDisputes, RecordDisputeReport, SubmitDisputeEvidence, type DisputeWriteDeps } from '@payments/core';
import { GetCheckoutPage, GetCheckoutState, PayCheckoutSession, ResolveCheckoutSession, SimulateCheckoutPayment } from '@payments/core';
import { JobItemFailures, RunItemJobs } from '@payments/core';
import { GetWebhookEndpointHealth, ListWebhookDeliveries, PlatformKeyRepository, PlatformKeys, RelayWebhookDeliveries, ResendWebhookDelivery, WebhookCrypto } from '@payments/core';
import { CryptoWebhookCrypto } from '@payments/node-runtime';
import { ListDuplicatePayments, OperatorAlerts } from '@payments/core';
import { CryptoEd25519KeyCheck } from '@payments/node-runtime';
import { createHmac } from 'node:crypto';
import { createRestChannel } from '@payments/channel-rest';
import { KnexSimulatorOrderBook, SimulatorPaymentChannel } from '@payments/channel-simulator';
import { BundledFxRateSource, HttpFxRateSource } from '@payments/fx-rates';
import { InMemoryFailureCounter, InMemoryLockManager, InMemoryRateLimiter } from '@payments/in-memory';
import { connectRedis, disconnectRedis, RedisFailureCounter, RedisLockManager, RedisRateLimiter, type RedisClient } from '@payments/locks-redis';
import { AesGcmSecretBox, CryptoDigest, CryptoRandomSource, ScryptPasswordHasher, SystemClock } from '@payments/node-runtime';
import { OtplibOneTimeCodes } from '@payments/otp';
import { HttpWebhookSender } from '@payments/webhook-http';
import { countDueWebhookDeliveries, createKnex, createSqlStorage, migrateLatest } from '@payments/storage-sql';
import { Container, type ResolutionContext } from 'inversify';
import { StaticChannelRegistry } from './channels';
import type { Config } from './config';
import { LogEmailSender } from './log-email-sender';
import { LogOperatorAlerts } from './log-operator-alerts';
import { createLogger, type Logger } from './logger';
import { unavailableOf } from './http/unavailable';
import { ServiceMetrics } from './metrics';
import { Readiness } from './readiness';

/** The simulator's callback key, derived from the master key: the same in every process, never stored. */
export function simulatorCallbackSecret(masterKey: Buffer): Buffer {
  return createHmac('sha256', masterKey).update('simulator channel callbacks').digest();
}

/** Tokens for what the composition root provides besides core's ports. */
export const AppConfig = Symbol('AppConfig');
export const AppLogger = Symbol('AppLogger');
/** The process's Prometheus series (ServiceMetrics); served on PAYMENTS_METRICS_PORT by startApi / the worker. */
export const AppMetrics = Symbol('AppMetrics');
/** `GET /health/ready`'s checks (Readiness). */
export const AppReadiness = Symbol('AppReadiness');
/** `() => Promise<number>`: webhook deliveries due now; the worker samples it into the backlog gauge. */
export const AppWebhookBacklog = Symbol('AppWebhookBacklog');
/** The process's knex instance (Knex): for observers such as the bench's statement counter, not for use cases. */
export const AppKnex = Symbol('AppKnex');
export const StatusChange = Symbol('StatusChange');
export const SettlementWrites = Symbol('SettlementWrites');
export const DisputeWrites = Symbol('DisputeWrites');

/** Replacements for tests: a fake clock, a cheaper password hash. */
export interface ContainerOverrides {
  readonly clock?: Clock;
  readonly passwordHasher?: PasswordHasher;
  readonly logger?: Logger;
  /** Extra channels, routed after the built-in ones (tests register channels that refuse or fail). */
  readonly channels?: readonly PaymentChannel[];
  /** Replaces the HTTP webhook sender (tests that record deliveries instead of sending them). */
  readonly webhookSender?: WebhookSender;
  /** Replaces the payout gateway of both modes (tests of failed or slow payouts). */
  readonly payoutGateway?: PayoutGateway;
}

export interface AppContainer {
  readonly container: Container;
  get<T>(id: symbol | (abstract new (...args: never[]) => T)): T;
  /** Closes pools and connections; the process can then exit on its own. */
  close(): Promise<void>;
}

/**
 * The composition root: the only code that picks adapters (SQLite or MySQL by the database URL,
 * Redis or in-process by whether a Redis URL is set) and hands them to core's use cases.
 */
export async function buildContainer(config: Config, overrides: ContainerOverrides = {}): Promise<AppContainer> {
  const container = new Container();
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const knex = createKnex(config.databaseUrl);
  let redis: RedisClient | undefined;
  try {
    await migrateLatest(knex);
    if (config.redisUrl) redis = await connectRedis(config.redisUrl, { onError: (err) => logger.warn({ err }, 'redis connection error') });
  } catch (error) {
    await knex.destroy();
    throw error;
  }
  const storage = createSqlStorage(knex);

  const constant = <T>(id: symbol, value: T): void => {
    container.bind<T>(id).toConstantValue(value);
  };
  constant(AppConfig, config);
  constant(AppLogger, logger);
  constant(Clock, overrides.clock ?? new SystemClock());
  const metrics = new ServiceMetrics();
  constant(AppMetrics, metrics);
  constant(AppReadiness, new Readiness(knex, redis));
  constant(AppKnex, knex);
  const backlogClock = container.get<Clock>(Clock);
  constant(AppWebhookBacklog, () => countDueWebhookDeliveries(knex, backlogClock.now()));
  constant(RandomSource, new CryptoRandomSource());
  constant(Digest, new CryptoDigest());
  constant(PasswordHasher, overrides.passwordHasher ?? new ScryptPasswordHasher());
  constant(UnitOfWork, storage.uow);
  constant(MerchantRepository, storage.merchants);
  constant(UserRepository, storage.users);
  constant(ApiKeyRepository, storage.apiKeys);
  constant(PaymentIntentRepository, storage.intents);
  constant(CheckoutSessionRepository, storage.checkoutSessions);
  constant(PaymentAttemptRepository, storage.attempts);
  constant(AuditLog, storage.audit);
  constant(DashboardSessionRepository, storage.dashboardSessions);
  constant(SecretBox, new AesGcmSecretBox(config.masterKey));
  constant(OneTimeCodes, new OtplibOneTimeCodes());
  constant(EventOutbox, storage.events);
  constant(IdempotencyStore, storage.idempotency);
  constant(SigningKeyRepository, storage.signingKeys);
  constant(PayoutDestinationRepository, storage.payoutDestinations);
  constant(WebhookEndpointRepository, storage.webhookEndpoints);
  constant(NoticeOutbox, storage.notices);
  constant(WebhookDeliveryRepository, storage.webhookDeliveries);
  constant(PlatformKeyRepository, storage.platformKeys);
  constant(Ledger, storage.ledger);
  constant(DisputeRepository, storage.disputes);
  constant(JobItemFailures, storage.jobItemFailures);

  constant(WebhookCrypto, new CryptoWebhookCrypto());
  constant(EmailSender, new LogEmailSender(logger));
  constant(OperatorAlerts, new LogOperatorAlerts(logger, metrics));
  constant(Ed25519KeyCheck, new CryptoEd25519KeyCheck());
  constant(WebhookSender, overrides.webhookSender ?? new HttpWebhookSender({ egressAllow: config.egressAllow, dnsOverrides: config.dnsOverrides, logger }));
  const keyPrefix = config.redisKeyPrefix;
  constant(LockManager, redis ? new RedisLockManager(redis, { keyPrefix: `${keyPrefix}lock:` }) : new InMemoryLockManager());
  constant(RateLimiter, redis ? new RedisRateLimiter(redis, { keyPrefix: `${keyPrefix}rate:` }) : new InMemoryRateLimiter());
  constant(FailureCounter, redis ? new RedisFailureCounter(redis, { keyPrefix: `${keyPrefix}failures:` }) : new InMemoryFailureCounter());

  const clock = container.get<Clock>(Clock);
  const random = container.get<RandomSource>(RandomSource);
  const simulator = new SimulatorPaymentChannel(new KnexSimulatorOrderBook(knex), clock, random, {
    callbackSecret: simulatorCallbackSecret(config.masterKey),
    settleAfterMs: config.tickMs,
    // The stand-in wallet page of the checkout plugin, so a test redirect lands somewhere real.
    walletUrl: `${config.baseUrl}/checkout/simulator-wallet`,
  });
  container.bind(SimulatorPaymentChannel).toConstantValue(simulator);
  const rest = createRestChannel(config.restChannel, { clock, logger });
  constant(PaymentChannelRegistry, new StaticChannelRegistry([simulator, ...(rest ? [rest] : []), ...(overrides.channels ?? [])]));
  constant(FxRateSource, config.fxRatesUrl ? new HttpFxRateSource({ url: config.fxRatesUrl, timeoutMs: config.fxRatesTimeoutMs, cacheTtlMs: config.fxRatesCacheTtlMs }) : new BundledFxRateSource());

  const factory = <T>(id: symbol | (abstract new (...args: never[]) => T), build: (ctx: ResolutionContext) => T): void => {
    container.bind<T>(id).toDynamicValue(build).inSingletonScope();
  };  // Every background job runs its items through this one runner: a failing item is recorded,
  // counted and logged (id and code only), and skipped until its next try.
  factory(RunItemJobs, (ctx) =>
    new RunItemJobs({
      failures: ctx.get(JobItemFailures),
      clock: ctx.get(Clock),
      isOutage: (error) => unavailableOf(error) !== undefined,
      observer: {
        itemFailed: (failure) => {
          metrics.jobItemFailures.inc({ job: failure.job, lane: failure.lane, code: failure.errorCode });
          logger.warn(
            { job: failure.job, lane: failure.lane, item: failure.itemId, error_code: failure.errorCode, attempts: failure.attempts, next_try_at: failure.nextTryAt.toISOString() },
            'job item failed; skipped until its next try',
          );
        },
      },
    }),
  );
  /** What every change that announces itself writes through: the event log, webhook deliveries, time and ids. */
  const publishing = (ctx: ResolutionContext): EventPublishDeps & { clock: Clock } => ({
    events: ctx.get(EventOutbox),
    webhookEndpoints: ctx.get(WebhookEndpointRepository),
    webhookDeliveries: ctx.get(WebhookDeliveryRepository),
    clock: ctx.get(Clock),
    random: ctx.get(RandomSource),
  });
  factory<StatusChangeDeps>(StatusChange, (ctx) => ({ ...publishing(ctx), intents: ctx.get(PaymentIntentRepository) }));
  factory(CreatePaymentIntent, (ctx) =>
    new CreatePaymentIntent(
      ctx.get(UnitOfWork),
      ctx.get(PaymentIntentRepository),
      ctx.get(CheckoutSessionRepository),
      ctx.get(Clock),
      ctx.get(RandomSource),
      ctx.get(Digest),
      { publicBaseUrl: config.baseUrl },
      ctx.get(PaymentPricing),
    ),
  );
  factory(GetPaymentIntent, (ctx) => new GetPaymentIntent(ctx.get(PaymentIntentRepository)));
  factory(ListPaymentIntents, (ctx) => new ListPaymentIntents(ctx.get(PaymentIntentRepository)));
  factory(CancelPaymentIntent, (ctx) =>
    new CancelPaymentIntent(ctx.get(UnitOfWork), ctx.get(StatusChange), ctx.get(PaymentAttemptRepository), ctx.get(PaymentChannelRegistry)),
  );
  factory(ExpirePaymentIntents, (ctx) =>
    new ExpirePaymentIntents(ctx.get(UnitOfWork), ctx.get(StatusChange), ctx.get(PaymentAttemptRepository), ctx.get(PaymentChannelRegistry)),
  );
  factory(PaymentPricing, (ctx) => new PaymentPricing(ctx.get(FxRateSource), { spreadBps: config.fxSpreadBps, fees: config.fees }, ctx.get(Clock)));
  factory(QuoteFx, (ctx) => new QuoteFx(ctx.get(FxRateSource), { spreadBps: config.fxSpreadBps, fees: config.fees }));
  factory(PlaceAttempt, (ctx) =>
    new PlaceAttempt(
      ctx.get(UnitOfWork),
      ctx.get(LockManager),
      ctx.get(PaymentAttemptRepository),
      ctx.get(PaymentChannelRegistry),
      ctx.get(StatusChange),
      { callbackBaseUrl: config.channelCallbackUrl },
    ),
  );
  factory(ListAttempts, (ctx) => new ListAttempts(ctx.get(PaymentIntentRepository), ctx.get(PaymentAttemptRepository)));
  factory(RecordChannelReport, (ctx) =>
    new RecordChannelReport(ctx.get(UnitOfWork), ctx.get(PaymentAttemptRepository), ctx.get(MerchantRepository), ctx.get(StatusChange), ctx.get(PaymentPricing), ctx.get(Ledger), ctx.get(OperatorAlerts)),
  );
  factory(ListDuplicatePayments, (ctx) => new ListDuplicatePayments(ctx.get(PaymentAttemptRepository)));
  // Disputes: the one place a dispute changes, its reads and the evidence route.
  factory<DisputeWriteDeps>(DisputeWrites, (ctx) => ({
    uow: ctx.get(UnitOfWork),
    disputes: ctx.get(DisputeRepository),
    intents: ctx.get(PaymentIntentRepository),
    ledger: ctx.get(Ledger),
    ...publishing(ctx),
  }));
  factory(RecordDisputeReport, (ctx) => new RecordDisputeReport(ctx.get(DisputeWrites), ctx.get(MerchantRepository), { disputeFeeMinor: config.disputeFeeMinor }));
  factory(ListDisputes, (ctx) => new ListDisputes(ctx.get(DisputeRepository)));
  factory(GetDispute, (ctx) => new GetDispute(ctx.get(DisputeRepository)));
  factory(SubmitDisputeEvidence, (ctx) => new SubmitDisputeEvidence(ctx.get(DisputeWrites), ctx.get(PaymentChannelRegistry)));
  factory(HandleChannelCallback, (ctx) =>
    new HandleChannelCallback(ctx.get(PaymentChannelRegistry), ctx.get(PaymentAttemptRepository), ctx.get(RecordChannelReport), ctx.get(RecordDisputeReport)),
  );
  factory(SimulatePayment, (ctx) =>
    new SimulatePayment(ctx.get(PaymentIntentRepository), ctx.get(PaymentAttemptRepository), ctx.get(PaymentChannelRegistry), ctx.get(DisputeRepository)),
  );
  factory(AdvanceTimer, (ctx) => new AdvanceTimer(ctx.get(UnitOfWork), ctx.get(PaymentIntentRepository), ctx.get(Clock)));
  factory(ReconcileAttempts, (ctx) =>
    new ReconcileAttempts(ctx.get(PaymentAttemptRepository), ctx.get(PaymentChannelRegistry), ctx.get(RecordChannelReport), ctx.get(Clock)),
  );
  factory(ReconcileDisputes, (ctx) =>
    new ReconcileDisputes(ctx.get(DisputeRepository), ctx.get(PaymentAttemptRepository), ctx.get(PaymentChannelRegistry), ctx.get(RecordDisputeReport), ctx.get(Clock), {
      staleAfterMs: config.disputeReconcileAfterMs,
    }),
  );
  factory(ReportChannelSettlements, (ctx) =>
    new ReportChannelSettlements(
      ctx.get(UnitOfWork),
      ctx.get(PaymentAttemptRepository),
      ctx.get(MerchantRepository),
      ctx.get(PaymentChannelRegistry),
      ctx.get(StatusChange),
      ctx.get(PaymentPricing),
      ctx.get(Ledger),
      ctx.get(DisputeRepository),
    ),
  );
  factory(AuditRecorder, (ctx) => new AuditRecorder(ctx.get(AuditLog), ctx.get(Clock), ctx.get(RandomSource)));
  factory(VerifyOneTimeCode, (ctx) =>
    new VerifyOneTimeCode(ctx.get(UnitOfWork), ctx.get(UserRepository), ctx.get(OneTimeCodes), ctx.get(SecretBox), ctx.get(Clock)),
  );
  // Dashboard sign-in, sessions and the team.
  factory(SignInThrottle, (ctx) => new SignInThrottle(ctx.get(FailureCounter), ctx.get(Clock), ctx.get(Digest)));
  factory(StepUp, (ctx) => new StepUp(ctx.get(VerifyOneTimeCode), ctx.get(FailureCounter), ctx.get(Clock)));
  factory(DashboardCredentials, (ctx) => new DashboardCredentials(ctx.get(UserRepository), ctx.get(PasswordHasher), ctx.get(RandomSource), ctx.get(SignInThrottle)));
  factory(SignIn, (ctx) =>
    new SignIn(
      ctx.get(UnitOfWork),
      ctx.get(DashboardCredentials),
      ctx.get(VerifyOneTimeCode),
      ctx.get(DashboardSessionRepository),
      ctx.get(AuditRecorder),
      ctx.get(Clock),
      ctx.get(RandomSource),
      ctx.get(Digest),
    ),
  );
  factory(ClaimMfa, (ctx) =>
    new ClaimMfa(ctx.get(UnitOfWork), ctx.get(DashboardCredentials), ctx.get(UserRepository), ctx.get(OneTimeCodes), ctx.get(SecretBox), ctx.get(AuditRecorder)),
  );
  factory(AuthenticateDashboardSession, (ctx) =>
    new AuthenticateDashboardSession(ctx.get(DashboardSessionRepository), ctx.get(UserRepository), ctx.get(MerchantRepository), ctx.get(Digest), ctx.get(Clock)),
  );
  factory(SignOut, (ctx) => new SignOut(ctx.get(UnitOfWork), ctx.get(DashboardSessionRepository), ctx.get(AuditRecorder), ctx.get(Clock)));
  factory(ListTeamUsers, (ctx) => new ListTeamUsers(ctx.get(UserRepository)));
  factory(AddTeamUser, (ctx) =>
    new AddTeamUser(
      ctx.get(UnitOfWork),
      ctx.get(UserRepository),
      ctx.get(PasswordHasher),
      ctx.get(MerchantRepository),
      ctx.get(NoticeOutbox),
      ctx.get(StepUp),
      ctx.get(AuditRecorder),
      ctx.get(Clock),
      ctx.get(RandomSource),
    ),
  );
  factory(UpdateTeamUser, (ctx) =>
    new UpdateTeamUser(
      ctx.get(UnitOfWork),
      ctx.get(UserRepository),
      ctx.get(DashboardSessionRepository),
      ctx.get(MerchantRepository),
      ctx.get(NoticeOutbox),
      ctx.get(StepUp),
      ctx.get(AuditRecorder),
      ctx.get(Clock),
      ctx.get(RandomSource),
    ),
  );
  factory(ResetTeamUserMfa, (ctx) =>
    new ResetTeamUserMfa(
      ctx.get(UnitOfWork),
      ctx.get(UserRepository),
      ctx.get(DashboardSessionRepository),
      ctx.get(MerchantRepository),
      ctx.get(NoticeOutbox),
      ctx.get(StepUp),
      ctx.get(AuditRecorder),
      ctx.get(Clock),
      ctx.get(RandomSource),
    ),
  );
  factory(ReleaseFunds, (ctx) => new ReleaseFunds(ctx.get(UnitOfWork), ctx.get(PaymentIntentRepository), ctx.get(DisputeRepository), ctx.get(Ledger), ctx.get(Clock)));
  factory(ListEvents, (ctx) => new ListEvents(ctx.get(EventOutbox)));
  factory(VerifyLedger, (ctx) => new VerifyLedger(ctx.get(Ledger)));
  factory(GetBalance, (ctx) => new GetBalance(ctx.get(Ledger), ctx.get(MerchantRepository)));
  // Webhook delivery: platform keys, the relay, the dashboard's delivery log.
  factory(PlatformKeys, (ctx) =>
    new PlatformKeys(ctx.get(PlatformKeyRepository), ctx.get(WebhookCrypto), ctx.get(SecretBox), ctx.get(Clock), ctx.get(RandomSource), { activationSeconds: config.keyActivationSeconds }),
  );
  factory(RelayWebhookDeliveries, (ctx) =>
    new RelayWebhookDeliveries({
      uow: ctx.get(UnitOfWork),
      deliveries: ctx.get(WebhookDeliveryRepository),
      endpoints: ctx.get(WebhookEndpointRepository),
      merchants: ctx.get(MerchantRepository),
      notices: ctx.get(NoticeOutbox),
      sender: ctx.get(WebhookSender),
      crypto: ctx.get(WebhookCrypto),
      secretBox: ctx.get(SecretBox),
      platformKeys: ctx.get(PlatformKeys),
      clock: ctx.get(Clock),
      random: ctx.get(RandomSource),
      leaseMs: config.webhookLeaseMs,
    }),
  );
  factory(ListWebhookDeliveries, (ctx) => new ListWebhookDeliveries(ctx.get(WebhookDeliveryRepository)));
  factory(ResendWebhookDelivery, (ctx) => new ResendWebhookDelivery(ctx.get(UnitOfWork), ctx.get(WebhookDeliveryRepository), ctx.get(AuditRecorder), ctx.get(Clock)));
  factory(GetWebhookEndpointHealth, (ctx) => new GetWebhookEndpointHealth(ctx.get(WebhookDeliveryRepository)));
  factory(AuthenticateApiKey, (ctx) => new AuthenticateApiKey(ctx.get(ApiKeyRepository), ctx.get(Digest)));
  factory(ResolveApiVersion, (ctx) => new ResolveApiVersion(ctx.get(MerchantRepository)));
  factory(RunIdempotently, (ctx) => new RunIdempotently(ctx.get(IdempotencyStore), ctx.get(UnitOfWork), ctx.get(Clock), ctx.get(RandomSource), ctx.get(SecretBox)));
  factory(IssueApiKey, (ctx) =>
    new IssueApiKey(ctx.get(ApiKeyRepository), ctx.get(MerchantRepository), ctx.get(Clock), ctx.get(RandomSource), ctx.get(Digest)),
  );
  factory(CreateMerchant, (ctx) =>
    new CreateMerchant(
      ctx.get(UnitOfWork),
      ctx.get(MerchantRepository),
      ctx.get(UserRepository),
      ctx.get(IssueApiKey),
      ctx.get(PasswordHasher),
      ctx.get(Clock),
      ctx.get(RandomSource),
    ),
  );
  factory(SetLiveMode, (ctx) => new SetLiveMode(ctx.get(MerchantRepository)));
  // Hosted checkout: the token's session, the page, pay, simulate, status.
  factory(ResolveCheckoutSession, (ctx) =>
    new ResolveCheckoutSession(ctx.get(CheckoutSessionRepository), ctx.get(PaymentIntentRepository), ctx.get(Digest), ctx.get(Clock)),
  );
  factory(GetCheckoutPage, (ctx) => new GetCheckoutPage(ctx.get(ResolveCheckoutSession), ctx.get(MerchantRepository), ctx.get(PaymentAttemptRepository)));
  factory(GetCheckoutState, (ctx) => new GetCheckoutState(ctx.get(ResolveCheckoutSession), ctx.get(PaymentAttemptRepository)));
  factory(PayCheckoutSession, (ctx) =>
    new PayCheckoutSession(
      ctx.get(ResolveCheckoutSession),
      ctx.get(MerchantRepository),
      ctx.get(PlaceAttempt),
      ctx.get(PaymentIntentRepository),
      ctx.get(PaymentAttemptRepository),
    ),
  );
  factory(SimulateCheckoutPayment, (ctx) => new SimulateCheckoutPayment(ctx.get(ResolveCheckoutSession), ctx.get(SimulatePayment), ctx.get(PaymentAttemptRepository)));

  // Dashboard resources: settings, keys, payout destinations, webhook endpoints, notices.
  factory(GetMerchantSettings, (ctx) => new GetMerchantSettings(ctx.get(MerchantRepository)));
  factory(UpdateMerchantSettings, (ctx) => new UpdateMerchantSettings(ctx.get(UnitOfWork), ctx.get(MerchantRepository), ctx.get(AuditRecorder)));
  factory(ListApiKeys, (ctx) => new ListApiKeys(ctx.get(ApiKeyRepository)));
  factory(CreateApiKey, (ctx) => new CreateApiKey(ctx.get(UnitOfWork), ctx.get(IssueApiKey), ctx.get(AuditRecorder)));
  factory(RevokeApiKey, (ctx) => new RevokeApiKey(ctx.get(UnitOfWork), ctx.get(ApiKeyRepository), ctx.get(AuditRecorder), ctx.get(Clock)));
  factory(ListSigningKeys, (ctx) => new ListSigningKeys(ctx.get(SigningKeyRepository)));
  factory(RegisterSigningKey, (ctx) =>
    new RegisterSigningKey(ctx.get(UnitOfWork), ctx.get(SigningKeyRepository), ctx.get(Ed25519KeyCheck), ctx.get(AuditRecorder), ctx.get(Clock), ctx.get(RandomSource)),
  );
  factory(ListPayoutDestinations, (ctx) => new ListPayoutDestinations(ctx.get(PayoutDestinationRepository)));
  factory(RegisterPayoutDestination, (ctx) =>
    new RegisterPayoutDestination(
      ctx.get(UnitOfWork),
      ctx.get(MerchantRepository),
      ctx.get(PayoutDestinationRepository),
      ctx.get(NoticeOutbox),
      ctx.get(StepUp),
      ctx.get(SecretBox),
      ctx.get(AuditRecorder),
      ctx.get(Clock),
      ctx.get(RandomSource),
    ),
  );
  factory(SetDefaultPayoutDestination, (ctx) =>
    new SetDefaultPayoutDestination(
      ctx.get(UnitOfWork),
      ctx.get(MerchantRepository),
      ctx.get(PayoutDestinationRepository),
      ctx.get(NoticeOutbox),
      ctx.get(StepUp),
      ctx.get(AuditRecorder),
      ctx.get(Clock),
      ctx.get(RandomSource),
    ),
  );
  factory(ListWebhookEndpoints, (ctx) => new ListWebhookEndpoints(ctx.get(WebhookEndpointRepository)));
  factory(CreateWebhookEndpoint, (ctx) =>
    new CreateWebhookEndpoint(
      ctx.get(UnitOfWork),
      ctx.get(MerchantRepository),
      ctx.get(WebhookEndpointRepository),
      ctx.get(SecretBox),
      ctx.get(AuditRecorder),
      ctx.get(Clock),
      ctx.get(RandomSource),
    ),
  );
  factory(UpdateWebhookEndpoint, (ctx) => new UpdateWebhookEndpoint(ctx.get(UnitOfWork), ctx.get(WebhookEndpointRepository), ctx.get(AuditRecorder), ctx.get(Clock)));
  factory(DeleteWebhookEndpoint, (ctx) => new DeleteWebhookEndpoint(ctx.get(UnitOfWork), ctx.get(WebhookEndpointRepository), ctx.get(AuditRecorder), ctx.get(Clock)));
  factory(DeliverNotices, (ctx) => new DeliverNotices(ctx.get(NoticeOutbox), ctx.get(EmailSender), ctx.get(Clock)));

  // Settlements and payouts: test mode simulated, live mode the configured provider.
  constant(SettlementRepository, storage.settlements);
  const livePayouts = createRestPayoutGateway(config.payoutRest, { logger: { warn: (details, message) => logger.warn(details, message) } });
  constant(PayoutGateway, overrides.payoutGateway ?? new ModePayoutGateway({ test: new SimulatedPayoutGateway(), ...(livePayouts ? { live: livePayouts } : {}) }));
  factory<SettlementDeps>(SettlementWrites, (ctx) => ({
    settlements: ctx.get(SettlementRepository),
    ledger: ctx.get(Ledger),
    ...publishing(ctx),
  }));
  const settlementWriters = (ctx: ResolutionContext) => ({
    ...ctx.get<SettlementDeps>(SettlementWrites),
    uow: ctx.get<UnitOfWork>(UnitOfWork),
    merchants: ctx.get<MerchantRepository>(MerchantRepository),
    locks: ctx.get<LockManager>(LockManager),
  });
  factory(PaySettlement, (ctx) =>
    new PaySettlement({
      ...settlementWriters(ctx),
      destinations: ctx.get(PayoutDestinationRepository),
      secrets: ctx.get(SecretBox),
      gateway: ctx.get(PayoutGateway),
    }),
  );
  factory(PaySettlements, (ctx) => new PaySettlements(ctx.get(SettlementRepository), ctx.get(PaySettlement)));
  factory(CreateManualSettlement, (ctx) => new CreateManualSettlement(settlementWriters(ctx), ctx.get(PaySettlement)));
  factory(CreateScheduledSettlements, (ctx) => new CreateScheduledSettlements(settlementWriters(ctx)));
  factory(VerifyPayoutDestinations, (ctx) =>
    new VerifyPayoutDestinations(ctx.get(UnitOfWork), ctx.get(PayoutDestinationRepository), ctx.get(PayoutGateway), ctx.get(SecretBox)),
  );
  factory(ListSettlements, (ctx) => new ListSettlements(ctx.get(SettlementRepository)));
  factory(GetSettlement, (ctx) => new GetSettlement(ctx.get(SettlementRepository)));

  let closed = false;
  return {
    container,
    get: <T>(id: symbol | (abstract new (...args: never[]) => T)): T => container.get<T>(id),
    close: async (): Promise<void> => {
      // Idempotent: a test (or a stop racing a signal) may close twice.
      if (closed) return;
      closed = true;
      await metrics.close();
      if (redis) await disconnectRedis(redis);
      await knex.destroy();
    },
  };
}
