import { CHANNELS, findPaymentMethod, payableCurrencies } from '../../catalog';
import { unlockedFx, type PaymentPricing } from '../../fx';
import type { AccountScope, Clock, Digest, RandomSource, UnitOfWork } from '../../common';
import { assertAmount, assertCurrency, base64url, invalidParameter, newId, validateMetadata } from '../../common';
import type { PaymentIntent } from '../domain/payment-intent.entity';
import type { CheckoutSessionRepository } from '../ports/checkout-session.repository.port';
import { validateReturnUrl } from '../domain/return-url';
import type { PaymentIntentRepository } from '../ports/payment-intent.repository.port';

export const PAYMENT_INTENT_LIMITS = {
  merchantOrderIdLength: 255,
  descriptionLength: 1000,
  customerLength: 255,
  expiresIn: { min: 60, max: 7 * 24 * 3600, default: 3600 },
} as const;

export interface CreatePaymentIntentInput {
  readonly scope: AccountScope;
  /** The merchant's settlement currency: an intent in another one carries an (unlocked) `fx`. */
  readonly settlementCurrency?: string;
  readonly amount: number;
  readonly currency: string;
  readonly merchantOrderId: string;
  readonly paymentMethod?: string;
  readonly channelPreference?: string;
  readonly description?: string;
  readonly customer?: string;
  readonly returnUrl?: string;
  readonly expiresIn?: number;
  readonly metadata?: Record<string, unknown>;
}

export interface CreatePaymentIntentOutput {
  readonly intent: PaymentIntent;
  /** The hosted checkout page; its token exists only here, only its digest is stored. */
  readonly checkoutUrl: string;
}

export interface CheckoutSettings {
  /** Public base URL of the service, e.g. `https://pay.example.com`. */
  readonly publicBaseUrl: string;
}
export interface CreatePaymentIntentDeps {
  readonly uow: UnitOfWork;
  readonly intents: PaymentIntentRepository;
  readonly sessions: CheckoutSessionRepository;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly digest: Digest;
  readonly settings: CheckoutSettings;
  readonly pricing: PaymentPricing;
}

export class CreatePaymentIntent {
  constructor(private readonly deps: CreatePaymentIntentDeps) {}

  /**
   * Throws CoreError validation errors (an amount that would convert past what the settlement
   * currency can show exactly included), or `merchant_order_id_taken` when the order id is used.
   */
  async execute(input: CreatePaymentIntentInput): Promise<CreatePaymentIntentOutput> {
    const intent = this.buildIntent(input);
    // Asked before the transaction opens: a rate source may be remote.
    if (input.settlementCurrency !== undefined) await this.deps.pricing.assertConvertible(intent.amount, intent.currency, input.settlementCurrency);
    const token = base64url(this.deps.random.bytes(32));
    await this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      await self.deps.intents.insert(intent);
      await self.deps.sessions.insert({
        tokenDigest: self.deps.digest.sha256Hex(token),
        paymentIntentId: intent.id,
        merchantId: intent.merchantId,
        mode: intent.mode,
        expiresAt: intent.expiresAt,
        created: intent.created,
      });
    });
    return { intent, checkoutUrl: `${this.deps.settings.publicBaseUrl.replace(/\/$/, '')}/c/${token}` };
  }

  private buildIntent(input: CreatePaymentIntentInput): PaymentIntent & { readonly expiresAt: Date } {
    const limits = PAYMENT_INTENT_LIMITS;
    assertAmount(input.amount, 'amount');
    assertCurrency(input.currency);
    if (!payableCurrencies().includes(input.currency)) {
      throw invalidParameter('currency', `No payment method collects ${input.currency}; use one of ${payableCurrencies().join(', ')}.`);
    }
    if (input.merchantOrderId.length === 0 || input.merchantOrderId.length > limits.merchantOrderIdLength) {
      throw invalidParameter('merchant_order_id', `merchant_order_id must be 1 to ${limits.merchantOrderIdLength} characters.`);
    }
    if (input.paymentMethod !== undefined) {
      const method = findPaymentMethod(input.paymentMethod);
      if (!method) throw invalidParameter('payment_method', `Unknown payment_method '${input.paymentMethod}'.`);
      if (!method.currencies.includes(input.currency)) {
        throw invalidParameter('payment_method', `${method.method} does not collect ${input.currency}.`);
      }
    }
    if (input.channelPreference !== undefined && !(CHANNELS as readonly string[]).includes(input.channelPreference)) {
      throw invalidParameter('channel_preference', `Unknown channel '${input.channelPreference}'; use one of ${CHANNELS.join(', ')}.`);
    }
    if (input.description !== undefined && input.description.length > limits.descriptionLength) {
      throw invalidParameter('description', `description must be at most ${limits.descriptionLength} characters.`);
    }
    if (input.customer !== undefined && input.customer.length > limits.customerLength) {
      throw invalidParameter('customer', `customer must be at most ${limits.customerLength} characters.`);
    }
    const expiresIn = input.expiresIn ?? limits.expiresIn.default;
    if (!Number.isInteger(expiresIn) || expiresIn < limits.expiresIn.min || expiresIn > limits.expiresIn.max) {
      throw invalidParameter('expires_in', `expires_in must be whole seconds from ${limits.expiresIn.min} to ${limits.expiresIn.max}.`);
    }
    const now = this.deps.clock.now();
    return {
      id: newId(this.deps.random, 'payment_intent'),
      merchantId: input.scope.merchantId,
      mode: input.scope.mode,
      amount: input.amount,
      currency: input.currency,
      merchantOrderId: input.merchantOrderId,
      status: 'created',
      paymentMethod: input.paymentMethod,
      channelPreference: input.channelPreference,
      description: input.description,
      customer: input.customer,
      returnUrl: input.returnUrl === undefined ? undefined : validateReturnUrl(input.returnUrl),
      metadata: validateMetadata(input.metadata ?? {}),
      fx: input.settlementCurrency === undefined ? undefined : unlockedFx(input.currency, input.settlementCurrency, input.paymentMethod),
      created: now,
      updated: now,
      expiresAt: new Date(now.getTime() + expiresIn * 1000),
      version: 0,
    };
  }
}
