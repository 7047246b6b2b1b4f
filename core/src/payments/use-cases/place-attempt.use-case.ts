import { findPaymentMethod } from '../../catalog';
import { unlockedFx } from '../../fx';
import type { AccountScope, LockManager, Recovery, UnitOfWork } from '../../common';
import { CoreError, invalidParameter, newId, notFound } from '../../common';
import { describeFailure, type PaymentAttempt } from '../domain/payment-attempt.entity';
import type { PaymentIntent } from '../domain/payment-intent.entity';
import type { PaymentAttemptRepository } from '../ports/payment-attempt.repository.port';
import type { PaymentChannel, PaymentChannelRegistry, PlaceOrderResult } from '../ports/payment-channel.port';
import { channelsServing, routeChannel } from './channel-routing';
import { changeStatus, type StatusChangeDeps } from './payment-intent-status-change';

/** Intent statuses a new attempt may start from. */
const PAYABLE = ['created', 'requires_payment', 'failed'] as const;

export interface ChannelCallbackSettings {
  /** Base URL channels call back to (`…/channels/<name>/callback/<mode>` is appended). */
  readonly callbackBaseUrl: string;
}

export interface PlaceAttemptInput {
  readonly scope: AccountScope;
  readonly intentId: string;
  readonly paymentMethod: string;
  readonly channel?: string;
  /** The request's recovery point: the attempt is bound to its key where it is recorded, and a retry resumes with it. */
  readonly recovery?: Recovery;
}

export interface PlaceAttemptResult {
  readonly attempt: PaymentAttempt;
  /** False when the intent's pending attempt was answered again instead of a new one. */
  readonly created: boolean;
}

export function callbackUrl(settings: ChannelCallbackSettings, channel: string, mode: string): string {
  return `${settings.callbackBaseUrl.replace(/\/$/, '')}/channels/${channel}/callback/${mode}`;
}
export type PlaceAttemptDeps = StatusChangeDeps & {
  readonly uow: UnitOfWork;
  readonly locks: LockManager;
  readonly attempts: PaymentAttemptRepository;
  readonly channels: PaymentChannelRegistry;
  readonly settings: ChannelCallbackSettings;
};

/**
 * `POST /v1/payment_intents/{id}/attempts`. At most one attempt is pending per intent: under the
 * intent's lock a pending attempt is answered again and no second order is placed. The lock only
 * spares work: the database keeps one pending attempt per intent by itself, so two requests that
 * met no lock (two nodes of a cluster, a Redis that restarted empty) still make one attempt, and
 * the one that lost, run again, goes on with the winner's (the channel is idempotent on its id).
 * The order is placed outside any transaction, between two short ones: the first records the
 * attempt (so a crash leaves a trace the retry resumes from, the channel being idempotent on the
 * attempt id) and binds it to the request's Idempotency-Key (its recovery point), the second records
 * the channel's answer with the intent's change and event. A retry of the request resumes with the
 * bound attempt: placed again if its order was never recorded, else answered as it stands.
 */
export class PlaceAttempt {
  constructor(private readonly deps: PlaceAttemptDeps) {}

  execute(input: PlaceAttemptInput): Promise<PlaceAttemptResult> {
    return this.deps.locks.withLock(`payment_intent:${input.intentId}:attempt`, 60_000, async () => {
      const bound = await this.recorded(input);
      if (bound) return { attempt: bound, created: true };
      // Which channels take this merchant is asked outside the transaction: it may read the database.
      const served = await channelsServing(this.deps.channels, input.scope.merchantId, input.scope.mode);
      const reserved = await this.reserve(input, served);
      if (reserved.kind === 'existing') return { attempt: reserved.attempt, created: false };
      const { attempt, channel, intent, resumed } = reserved;
      const result = await channel.placeOrder({
        mode: attempt.mode,
        merchantId: attempt.merchantId,
        reference: attempt.id,
        amount: attempt.amount,
        currency: attempt.currency,
        paymentMethod: attempt.paymentMethod,
        callbackUrl: callbackUrl(this.deps.settings, channel.capabilities.name, attempt.mode),
        ...(intent.returnUrl === undefined ? {} : { returnUrl: intent.returnUrl }),
        expiresAt: intent.expiresAt ?? new Date(this.deps.clock.now().getTime() + 3600_000),
      });
      const recorded = await this.record(input.scope, attempt, channel, result, resumed);
      if (result.outcome === 'placed' && recorded.status !== 'pending') {
        // The intent was canceled or expired while the order was being placed: nobody may pay it now.
        await channel.voidOrder(recorded.mode, result.channelOrderId).catch(() => undefined);
      }
      return { attempt: recorded, created: true };
    });
  }

  /**
   * The attempt an earlier try of this request bound to its key, when its order was recorded (or it
   * is no longer pending): answered as the request that made it would have been. One still waiting
   * for its order is the intent's pending attempt, which `reserve` resumes.
   */
  private async recorded(input: PlaceAttemptInput): Promise<PaymentAttempt | undefined> {
    const id = input.recovery?.resume;
    if (id === undefined) return undefined;
    const attempt = await this.deps.attempts.findById(input.scope, id);
    if (!attempt) throw notFound('payment_attempt', id);
    return attempt.status === 'pending' && attempt.channelOrderId === undefined ? undefined : attempt;
  }

  private async reserve(
    input: PlaceAttemptInput,
    served: ReadonlySet<string>,
  ): Promise<
    { kind: 'existing'; attempt: PaymentAttempt } | { kind: 'new'; attempt: PaymentAttempt; channel: PaymentChannel; intent: PaymentIntent; resumed: boolean }
  > {
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const intent = await self.deps.intents.findByIdForUpdate(input.scope, input.intentId);
      if (!intent) throw notFound('payment_intent', input.intentId);
      const pending = await self.deps.attempts.findPending(input.scope, intent.id);
      if (pending?.channelOrderId !== undefined) return { kind: 'existing', attempt: pending };
      const now = self.deps.clock.now();
      if (!(PAYABLE as readonly string[]).includes(intent.status) || (intent.expiresAt !== undefined && intent.expiresAt <= now)) {
        throw new CoreError('invalid_state_transition', 'conflict', `A payment intent in status '${intent.status}' takes no new attempt.`);
      }
      if (pending) {
        // A crash between placing and recording: resume with the same attempt (same channel reference).
        const channel = self.deps.channels.find(pending.channel);
        if (channel) {
          await input.recovery?.bind(pending.id, transaction);
          return { kind: 'new', attempt: pending, channel, intent, resumed: true };
        }
      }
      const method = findPaymentMethod(input.paymentMethod);
      if (!method) throw invalidParameter('payment_method', `Unknown payment_method '${input.paymentMethod}'.`);
      if (!method.currencies.includes(intent.currency)) {
        throw invalidParameter('payment_method', `${method.method} does not collect ${intent.currency}.`);
      }
      const channel = routeChannel(self.deps.channels, {
        served,
        mode: intent.mode,
        method: method.method,
        currency: intent.currency,
        requested: input.channel,
        preference: intent.channelPreference,
      });
      const attempt: PaymentAttempt = {
        id: newId(self.deps.random, 'payment_attempt'),
        paymentIntentId: intent.id,
        merchantId: intent.merchantId,
        mode: intent.mode,
        status: 'pending',
        amount: intent.amount,
        currency: intent.currency,
        paymentMethod: method.method,
        channel: channel.capabilities.name,
        created: now,
        updated: now,
        version: 0,
      };
      // Written, not only locked: on a multi-writer cluster the row lock holds up no transaction of
      // another node, but a concurrent attempt, cancel or expiry writes this row too, and only one
      // of them commits (the unique pending slot alone would not stop an attempt on an intent
      // canceled at the same moment).
      const claimed = await self.deps.intents.bumpVersion(intent);
      await self.deps.attempts.insert(attempt);
      await input.recovery?.bind(attempt.id, transaction);
      return { kind: 'new', attempt, channel, intent: claimed, resumed: false };
    });
  }

  /**
   * `resumed`: the order was placed by an earlier request that died before this step. Until now no
   * attempt named the order, so every callback the channel sent about it was refused as unknown,
   * and its retries may be spent by the time the retry comes (the dead request's lock and key are
   * leased for a minute, and a client may retry much later). The channel may well have decided the
   * order meanwhile (a magic amount does so by itself), so the reconciler asks at its next pass
   * instead of after the channel's pending timeout. Recorded in the same transaction as the
   * order's id, so no crash can separate the two.
   */
  private record(scope: AccountScope, placed: PaymentAttempt, channel: PaymentChannel, result: PlaceOrderResult, resumed: boolean): Promise<PaymentAttempt> {
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const intent = await self.deps.intents.findByIdForUpdate(scope, placed.paymentIntentId);
      const attempt = await self.deps.attempts.findById(scope, placed.id);
      if (!intent || !attempt) throw notFound('payment_attempt', placed.id);
      const now = self.deps.clock.now();
      if (result.outcome === 'refused') {
        const failed = await self.deps.attempts.update({
          ...attempt,
          status: 'failed',
          failureCode: result.failureCode,
          failureMessage: describeFailure(result.failureCode),
          updated: now,
        });
        if (intent.status !== 'failed') await changeStatus(self.deps, { ...intent, paymentMethod: attempt.paymentMethod, nextAction: undefined }, 'failed');
        return failed;
      }
      if (attempt.status !== 'pending') {
        // Canceled or expired meanwhile: keep the channel's order id so the order can be voided.
        return self.deps.attempts.update({ ...attempt, channelOrderId: result.channelOrderId, updated: now });
      }
      const stored = await self.deps.attempts.update({
        ...attempt,
        channelOrderId: result.channelOrderId,
        nextAction: result.nextAction,
        nextCheckAt: resumed ? now : new Date(now.getTime() + channel.capabilities.pendingTimeoutMs),
        updated: now,
      });
      const withCredential = {
        ...intent,
        paymentMethod: attempt.paymentMethod,
        nextAction: result.nextAction,
        // The lock point is the method's; now that the method is known, the fx says which.
        fx: intent.fx && !intent.fx.locked && intent.fx.quoteCurrency ? unlockedFx(intent.currency, intent.fx.quoteCurrency, attempt.paymentMethod) : intent.fx,
      };
      if (intent.status === 'requires_payment') await self.deps.intents.update(withCredential);
      else await changeStatus(self.deps, withCredential, 'requires_payment');
      return stored;
    });
  }
}
