import type { FxLockPoint } from '../../catalog';

/** The FX state of a payment in another currency than its settlement currency: the rate, once locked. */
export interface FxLock {
  readonly locked: boolean;
  readonly lockPoint?: FxLockPoint;
  readonly rate?: string;
  readonly quoteCurrency?: string;
  readonly lockedAt?: Date;
}
