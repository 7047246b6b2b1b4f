import { code as iso4217 } from 'currency-codes';
import type { Amount, Money } from './types';
import { language } from './i18n';

/** Minor-unit digits of a currency, from the same ISO 4217 table the service uses (THB 2, JPY 0, KWD 3). */
function minorDigits(currency: string): number {
  return iso4217(currency)?.digits ?? 2;
}

/**
 * An amount of minor units as a person reads it ("฿1,234.56"), done on the digits so no amount,
 * however large, passes through a float.
 */
export function formatAmount(amount: Amount, currency: string): string {
  const digits = minorDigits(currency);
  const value = BigInt(amount);
  const negative = value < 0n;
  const text = (negative ? -value : value).toString().padStart(digits + 1, '0');
  const whole = BigInt(text.slice(0, text.length - digits));
  const fraction = digits > 0 ? text.slice(text.length - digits) : '';
  const grouped = whole.toLocaleString(locale());
  const separator = (1.5).toLocaleString(locale()).charAt(1);
  return `${negative ? '−' : ''}${grouped}${fraction ? separator + fraction : ''} ${currency}`;
}

export function formatMoney(money: Money | undefined): string {
  return money ? formatAmount(money.amount, money.currency) : '—';
}

/**
 * What a person types ("12.5") as minor units of `currency` (1250), or undefined when it is not
 * an amount of that currency (too many decimals, a sign, letters).
 */
export function parseAmount(text: string, currency: string): number | undefined {
  const digits = minorDigits(currency);
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!match || (match[2] ?? '').length > digits) return undefined;
  const minor = BigInt(match[1] + (match[2] ?? '').padEnd(digits, '0'));
  return minor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(minor) : undefined;
}

/** Minor units written as a person would type them back ("12.50"). */
export function amountInput(amount: number, currency: string): string {
  const digits = minorDigits(currency);
  const text = String(amount).padStart(digits + 1, '0');
  return digits > 0 ? `${text.slice(0, text.length - digits)}.${text.slice(text.length - digits)}` : text;
}

export function formatDate(iso: string | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(locale(), { dateStyle: 'medium', timeStyle: 'short' });
}

function locale(): string {
  return language() === 'th' ? 'th-TH-u-ca-gregory' : 'en-GB';
}
