import { token } from '../../common';
/** Mid-market reference rates: units of `to` for one unit of `from`, as a decimal string. */
export interface FxRateSource {
  /**
   * The mid rate from `from` to `to` (both ISO 4217). Throws CoreError `unsupported_currency_pair`
   * (validation) when the source has no rate for the pair, `api_error` (unavailable) when it
   * cannot be reached. Never a float.
   */
  midRate(from: string, to: string): Promise<string>;
}
export const FxRateSource = token<FxRateSource>('FxRateSource');
