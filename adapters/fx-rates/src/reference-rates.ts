import type { RateTable } from './rate-table';

/**
 * The reference-rate table shipped with the service: mid rates against USD, units of each
 * currency per 1 USD. Indicative only, for development, test mode and a deployment without a rate
 * feed; production points `PAYMENTS_FX_RATES_URL` at a live source (docs/fx.md). Update the
 * numbers and `asOf` together.
 */
export const REFERENCE_RATES: RateTable = Object.freeze({
  base: 'USD',
  asOf: '2025-06-30',
  rates: Object.freeze({
    AUD: '1.5237',
    BHD: '0.377',
    CAD: '1.364',
    CHF: '0.7954',
    CNY: '7.1636',
    EUR: '0.852',
    GBP: '0.7284',
    HKD: '7.8499',
    IDR: '16235',
    INR: '85.76',
    JPY: '144.05',
    KRW: '1353.5',
    KWD: '0.3056',
    MYR: '4.2135',
    NZD: '1.643',
    PHP: '56.33',
    SGD: '1.274',
    THB: '32.54',
    TWD: '29.2',
    USD: '1',
    VND: '26110',
  }),
});
