import type { Mode } from '../../shared';
import type { PayoutDestination } from '../domain/payout-destination.entity';
import type { User } from '../../dashboard';
import type { PayoutDestinationRepository } from '../ports/payout-destination.repository.port';

/** The payout destinations of the actor's merchant in one mode, newest first. */
export class ListPayoutDestinations {
  constructor(private readonly destinations: PayoutDestinationRepository) {}

  execute(actor: User, mode: Mode): Promise<PayoutDestination[]> {
    return this.destinations.list({ merchantId: actor.merchantId, mode });
  }
}
