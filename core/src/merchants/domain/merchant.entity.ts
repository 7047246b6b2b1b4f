export type SettlementSchedule = 'daily' | 'weekly' | 'monthly' | 'manual';
export const SETTLEMENT_SCHEDULES: readonly SettlementSchedule[] = ['daily', 'weekly', 'monthly', 'manual'];

export interface Merchant {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  /** Live mode opens only after review; until then live keys answer 403 `live_not_enabled`. */
  readonly liveEnabled: boolean;
  readonly settlementCurrency: string;
  readonly settlementSchedule: SettlementSchedule;
  readonly settlementDelayDays: number;
  /** Shown to payers; editable in the dashboard settings (absent until set). */
  readonly supportEmail?: string;
  /** What payers see on their statements; editable in the dashboard settings (absent until set). */
  readonly statementDescriptor?: string;
  /** The API version the account was pinned to on its first `/v1` request. */
  readonly apiVersion?: string;
  readonly created: Date;
}
