import type { AccountScope, Mode } from '../../common';
import { token } from '../../common';
import type { PayoutDestination, PayoutDestinationStatus } from '../domain/payout-destination.entity';

export interface PayoutDestinationRepository {
  insert(destination: PayoutDestination): Promise<void>;
  /** The destination of this merchant and mode, or undefined (another merchant's or mode's included). */
  findById(scope: AccountScope, id: string): Promise<PayoutDestination | undefined>;
  /** The scope's destinations, newest first. */
  list(scope: AccountScope): Promise<PayoutDestination[]>;
  /** The scope's default destination, if it has one. */
  findDefault(scope: AccountScope): Promise<PayoutDestination | undefined>;
  /**
   * Makes `id` the scope's only default and, when `holdUntil` is given, sets its hold. Returns the
   * destination as stored afterwards, or undefined when the scope has no such destination. Call it
   * inside a unit of work: the old default loses the flag in the same transaction. One default per
   * scope is a unique key: a default another transaction set meanwhile is ConcurrentUpdateError,
   * and the unit of work runs again on it.
   */
  makeDefault(scope: AccountScope, id: string, holdUntil: Date | undefined): Promise<PayoutDestination | undefined>;
  /**
   * The latest hold of the scope's destinations: live settlements wait while it is in the future
   * (a registration or a default change within the last 24 hours).
   */
  latestHold(scope: AccountScope): Promise<Date | undefined>;
  /** Destinations of any merchant in `mode` still `unverified`, oldest first: the verification job's work. */
  findUnverified(mode: Mode, limit: number): Promise<PayoutDestination[]>;
  /**
   * Records the payout adapter's verdict on an `unverified` destination; returns false (and
   * changes nothing) when the scope has no such destination or it was decided already.
   */
  setVerification(scope: AccountScope, id: string, status: Exclude<PayoutDestinationStatus, 'unverified'>): Promise<boolean>;
}
export const PayoutDestinationRepository = token<PayoutDestinationRepository>('PayoutDestinationRepository');
