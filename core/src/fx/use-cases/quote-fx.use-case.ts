import { findPaymentMethod } from '../../catalog';
import { assertAmount, assertCurrency, CoreError, invalidParameter, type Money } from '../../common';
import { computeFee, type FeeSchedule } from '../domain/fees';
import { applySpread, convertAmount, MAX_SPREAD_BPS } from '../domain/fx';
import type { FxRateSource } from '../ports/fx-rate-source.port';

export interface QuoteFxSettings {
  /** The platform's spread in whole basis points, taken in its favour (50 = 0.5 %). */
  readonly spreadBps: number;
  /** Prices `estimated` when the caller names a payment method. */
  readonly fees: FeeSchedule;
}

export interface QuoteFxInput {
  readonly from: string;
  readonly to: string;
  /** A catalog method that collects `from`; its fee (in `to`) is taken off `estimated`. */
  readonly paymentMethod?: string;
  /** Minor units of `from`, 0 or more. */
  readonly amount?: number;
}

/** An indicative quote (schema FxQuote in docs/openapi.json): nothing is locked or promised by it. */
export interface FxQuote {
  readonly indicative: true;
  readonly from: string;
  readonly to: string;
  /** Units of `to` per unit of `from`: the mid rate less the spread, as a decimal string. */
  readonly rate: string;
  /** `amount` converted at `rate` less the method's fee, in minor units of `to`; only with an amount. */
  readonly estimated?: Money;
}

/**
 * `GET /v1/fx/quotes`: what `amount` of `from` would roughly settle as in `to`. The same
 * arithmetic as settlement (convert at the rate, round half-even, take the fee in the settlement
 * currency), so the estimate matches what an intent locked at this rate would net.
 */
export interface QuoteFxDeps {
  readonly rates: FxRateSource;
  readonly settings: QuoteFxSettings;
}

export class QuoteFx {
  constructor(private readonly deps: QuoteFxDeps) {
    const { settings } = deps;
    if (!Number.isInteger(settings.spreadBps) || settings.spreadBps < 0 || settings.spreadBps > MAX_SPREAD_BPS) {
      throw new CoreError('api_error', 'internal', `The FX spread must be whole basis points from 0 to ${MAX_SPREAD_BPS}.`);
    }
  }

  /**
   * Throws 400 `invalid_parameter` naming `from`, `to`, `payment_method` (not in the catalog, or
   * not collecting `from`) or `amount`; 400 `unsupported_currency_pair` when the rate source has
   * no rate for the pair; 503 `api_error` when the rate source is unreachable.
   */
  async execute(input: QuoteFxInput): Promise<FxQuote> {
    const { from, to, paymentMethod, amount } = input;
    assertCurrency(from, 'from');
    assertCurrency(to, 'to');
    if (paymentMethod !== undefined) {
      const entry = findPaymentMethod(paymentMethod);
      if (!entry) throw invalidParameter('payment_method', `payment_method '${paymentMethod}' is not one the platform offers.`);
      if (!entry.currencies.includes(from)) {
        throw invalidParameter('payment_method', `payment_method ${paymentMethod} collects ${entry.currencies.join(', ')}, not ${from}.`);
      }
    }
    if (amount !== undefined) assertAmount(amount, 'amount', 0);

    const rate = from === to ? '1' : applySpread(await this.deps.rates.midRate(from, to), this.deps.settings.spreadBps);
    if (amount === undefined) return { indicative: true, from, to, rate };
    const converted = from === to ? amount : convertAmount(amount, from, to, rate);
    const fee = paymentMethod === undefined ? 0 : computeFee(converted, to, paymentMethod, this.deps.settings.fees).amount;
    return { indicative: true, from, to, rate, estimated: { amount: converted - fee, currency: to } };
  }
}
