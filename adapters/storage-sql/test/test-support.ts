import { randomBytes } from 'node:crypto';
import type { Merchant } from '@payments/core';

export const onMysql = Boolean(process.env['PAYMENTS_TEST_DATABASE_URL']);

export function aMerchant(overrides: Partial<Merchant> = {}): Merchant {
  return {
    id: `mch_${randomBytes(10).toString('hex')}`,
    name: 'Test merchant',
    email: 'owner@example.com',
    liveEnabled: false,
    settlementCurrency: 'THB',
    settlementSchedule: 'daily',
    settlementDelayDays: 2,
    created: new Date('2026-09-01T00:00:00Z'),
    ...overrides,
  };
}

/** A driver error as mysql2 shapes it. */
export function mysqlError(errno: number, code: string, message = code): Error {
  return Object.assign(new Error(message), { errno, code });
}
