import { invalidParameter } from '@payments/core';
import Joi from 'joi';

/** `2026-05-01`, or a date-time such as `2026-05-01T10:00:00Z` (UTC when it names no offset). */
const DATE_OR_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
const DAY_MS = 24 * 3600 * 1000;

/** A bound of a date range in a query: a date or a date-time (read with `instantOf`). */
export const dateOrDateTime = Joi.string().max(40).pattern(DATE_OR_DATE_TIME, 'ISO 8601 date or date-time');

/** How long the last unit `value` writes lasts: a day, a minute, a second, or a fraction of one. */
function unitMs(time: string | undefined, seconds: string | undefined, fraction: string | undefined): number {
  if (time === undefined) return DAY_MS;
  if (seconds === undefined) return 60_000;
  if (fraction === undefined) return 1000;
  return Math.max(1, 10 ** (4 - fraction.length));
}

/**
 * The instant `value` names (a date-time without an offset is UTC), or with `end` the last instant
 * of what it names: a range's end takes in the whole day, minute or second written, so the
 * `created` an answer shows (whole seconds) finds its object. A date that is no day of the
 * calendar (2026-02-30) is 400 naming `param`, not rolled over into the next month.
 */
export function instantOf(value: string, param: string, end: boolean): Date {
  const [, year, month, day, time, seconds, fraction, offset] = DATE_OR_DATE_TIME.exec(value) ?? [];
  const midnight = Date.UTC(Number(year), Number(month) - 1, Number(day));
  const calendarDay = new Date(midnight).toISOString().slice(0, 10) === value.slice(0, 10);
  const start = time === undefined ? midnight : Date.parse(offset === undefined ? `${value}Z` : value);
  if (!calendarDay || Number.isNaN(start)) throw invalidParameter(param, `${param} must be a real date or date-time (ISO 8601).`);
  return new Date(end ? start + unitMs(time, seconds, fraction) - 1 : start);
}

/** `instantOf` of a bound the caller may have left out. */
export function optionalInstant(value: string | undefined, param: string, end: boolean): Date | undefined {
  return value === undefined ? undefined : instantOf(value, param, end);
}
