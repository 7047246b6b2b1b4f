import type { SettlementSchedule } from '../../merchants';

/** A settlement period: from `start` (included) to `end` (excluded), both at 00:00 UTC. */
export interface SettlementPeriod {
  readonly start: Date;
  readonly end: Date;
}

const DAY_MS = 24 * 3600 * 1000;

function utcMidnight(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

/**
 * The last complete period of a schedule at `now`, in UTC so every process agrees: the day
 * before today for `daily`, the ISO week (Monday 00:00 UTC to the next Monday) before this one for
 * `weekly`, last calendar month for `monthly`. `manual` has no periods.
 */
export function lastCompletePeriod(schedule: SettlementSchedule, now: Date): SettlementPeriod | undefined {
  const today = utcMidnight(now);
  switch (schedule) {
    case 'daily':
      return { start: new Date(today.getTime() - DAY_MS), end: today };
    case 'weekly': {
      // getUTCDay: Sunday 0 … Saturday 6; days since Monday: Monday 0 … Sunday 6.
      const sinceMonday = (today.getUTCDay() + 6) % 7;
      const end = new Date(today.getTime() - sinceMonday * DAY_MS);
      return { start: new Date(end.getTime() - 7 * DAY_MS), end };
    }
    case 'monthly': {
      const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      return { start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)), end };
    }
    case 'manual':
      return undefined;
  }
}

/**
 * The period of a schedule that `now` falls in, still open: today for `daily`, this ISO week for
 * `weekly`, this calendar month for `monthly` (UTC). Its batch is made at its `end`, when it becomes
 * the last complete one. `manual` has no periods.
 */
export function currentPeriod(schedule: SettlementSchedule, now: Date): SettlementPeriod | undefined {
  const today = utcMidnight(now);
  switch (schedule) {
    case 'daily':
      return { start: today, end: new Date(today.getTime() + DAY_MS) };
    case 'weekly': {
      const start = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * DAY_MS);
      return { start, end: new Date(start.getTime() + 7 * DAY_MS) };
    }
    case 'monthly':
      return { start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
    case 'manual':
      return undefined;
  }
}
