/** Test and live data never mix: every stored object and every query carries its mode. */
export type Mode = 'test' | 'live';
export const MODES: readonly Mode[] = ['test', 'live'];

/** The merchant and mode a request acts for: the only scope data is read or written in. */
export interface AccountScope {
  readonly merchantId: string;
  readonly mode: Mode;
}
