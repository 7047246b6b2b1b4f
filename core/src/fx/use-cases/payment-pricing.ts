import { findPaymentMethod } from '../../catalog';
import type { Clock, Money } from '../../common';
import { invalidParameter, MAX_AMOUNT } from '../../common';
import { settlementBreakdown, type FeeSchedule } from '../domain/fees';
import { applySpread, convertAmount } from '../domain/fx';
import type { FxLock } from '../domain/fx-lock';
import type { FxRateSource } from '../ports/fx-rate-source.port';

/**
 * The `fx` an intent in another currency than the settlement currency carries before its rate
 * locks; its lock point is the payment method's, once a method is known.
 */
export function unlockedFx(currency: string, settlementCurrency: string, paymentMethod?: string): FxLock | undefined {
  if (currency === settlementCurrency) return undefined;
  const lockPoint = paymentMethod === undefined ? undefined : findPaymentMethod(paymentMethod)?.fxLockPoint;
  return { locked: false, quoteCurrency: settlementCurrency, ...(lockPoint ? { lockPoint } : {}) };
}

/**
 * The most an intent in another currency may convert to, in minor units of the settlement
 * currency, when it is created: half of 2^53 − 1, so its rate may double before it locks (when
 * paid, or when the channel settles) and the converted amount, fee and net stay exact numbers.
 */
export const MAX_CONVERTED_AT_CREATION = Math.floor(MAX_AMOUNT / 2);

/**
 * What pricing reads of a payment and sets on it (a payment intent is one): fx knows payments
 * only by this shape, so payments may import fx and not the other way round.
 */
export interface PriceablePayment {
  readonly amount: number;
  readonly currency: string;
  readonly fee?: Money;
  readonly net?: Money;
  readonly fx?: FxLock;
}

export interface PricingSettings {
  /** The platform's spread in basis points, in its favour. */
  readonly spreadBps: number;
  readonly fees: FeeSchedule;
}
export interface PaymentPricingDeps {
  readonly rates: FxRateSource;
  readonly settings: PricingSettings;
  readonly clock: Clock;
}

/**
 * What a payment is worth to the merchant: the FX lock at the method's lock point (QR methods
 * when paid, wallets when the channel settles) and fee and net in the settlement currency.
 */
export class PaymentPricing {
  constructor(private readonly deps: PaymentPricingDeps) {}

  /**
   * The rate to lock now, fetched before any transaction opens (a rate source may be remote).
   * Undefined when no conversion is needed, or when the source cannot answer: a confirmed
   * payment is recorded all the same and its rate locks on a later step.
   */
  async rateFor(intent: PriceablePayment, settlementCurrency: string): Promise<string | undefined> {
    if (intent.currency === settlementCurrency || intent.fx?.locked) return undefined;
    try {
      return applySpread(await this.deps.rates.midRate(intent.currency, settlementCurrency), this.deps.settings.spreadBps);
    } catch {
      return undefined;
    }
  }

  /**
   * Refuses up front (400 `invalid_parameter`, `amount`) an intent that could not be priced
   * exactly: its amount, converted into the settlement currency at the rate quoted now, passes
   * {@link MAX_CONVERTED_AT_CREATION}. A rate source that cannot answer refuses nothing (an intent
   * is never turned away for an outage); should a conversion pass 2^53 − 1 at its lock point
   * after all, the payment is recorded unpriced and waits, never booked inexactly.
   */
  async assertConvertible(amount: number, currency: string, settlementCurrency: string): Promise<void> {
    if (currency === settlementCurrency) return;
    let rate: string;
    try {
      rate = applySpread(await this.deps.rates.midRate(currency, settlementCurrency), this.deps.settings.spreadBps);
    } catch {
      return;
    }
    let converted: number;
    try {
      converted = convertAmount(amount, currency, settlementCurrency, rate);
    } catch {
      converted = Number.POSITIVE_INFINITY;
    }
    if (converted > MAX_CONVERTED_AT_CREATION) {
      throw invalidParameter(
        'amount',
        `amount converts to more than ${MAX_CONVERTED_AT_CREATION} minor units of ${settlementCurrency}, the settlement currency, at today's rate; ` +
          `an intent may convert to at most half of 2^53 − 1 so its rate can move before it locks. Split the payment.`,
      );
    }
  }

  /** The intent as it stands once paid: locked and priced now when its lock point is `on_paid`. */
  onPaid<T extends PriceablePayment>(intent: T, paymentMethod: string, settlementCurrency: string, rate: string | undefined): T {
    const lockPoint = findPaymentMethod(paymentMethod)?.fxLockPoint ?? 'on_paid';
    return this.price(intent, paymentMethod, settlementCurrency, rate, lockPoint === 'on_channel_settled' ? 'later' : 'now');
  }

  /** The intent as it stands once the channel settled: every rate not locked yet locks now. */
  onChannelSettled<T extends PriceablePayment>(intent: T, paymentMethod: string, settlementCurrency: string, rate: string | undefined): T {
    return this.price(intent, paymentMethod, settlementCurrency, rate, 'now');
  }

  /** True when the intent still needs a rate at channel settlement. */
  needsRate(intent: PriceablePayment, settlementCurrency: string): boolean {
    return intent.currency !== settlementCurrency && !intent.fx?.locked;
  }

  private price<T extends PriceablePayment>(intent: T, method: string, settlementCurrency: string, rate: string | undefined, lock: 'now' | 'later'): T {
    const lockPoint = findPaymentMethod(method)?.fxLockPoint;
    if (intent.currency === settlementCurrency) {
      const { fee, net } = settlementBreakdown({
        amount: intent.amount,
        currency: intent.currency,
        settlementCurrency,
        method,
        schedule: this.deps.settings.fees,
      });
      return { ...intent, fee, net };
    }
    if (intent.fx?.locked) return intent;
    if (lock === 'later' || rate === undefined) return { ...intent, fx: unlockedFx(intent.currency, settlementCurrency, method) };
    let breakdown;
    try {
      breakdown = settlementBreakdown({
        amount: intent.amount,
        currency: intent.currency,
        settlementCurrency,
        method,
        rate,
        schedule: this.deps.settings.fees,
      });
    } catch {
      // A conversion past 2^53 minor units cannot be priced; the payment is recorded unpriced, never dropped.
      return { ...intent, fx: unlockedFx(intent.currency, settlementCurrency, method) };
    }
    const { fee, net } = breakdown;
    return {
      ...intent,
      fee,
      net,
      fx: { locked: true, rate, quoteCurrency: settlementCurrency, lockedAt: this.deps.clock.now(), ...(lockPoint ? { lockPoint } : {}) },
    };
  }
}
