import type { User } from '../../dashboard';
import type { Mode } from '../../common';
import type { PayoutDestination } from '../domain/payout-destination.entity';
import type { PayoutDestinationRepository } from '../ports/payout-destination.repository.port';
export interface ListPayoutDestinationsDeps {
  readonly destinations: PayoutDestinationRepository;
}

/** The payout destinations of the actor's merchant in one mode, newest first. */
export class ListPayoutDestinations {
  constructor(private readonly deps: ListPayoutDestinationsDeps) {}

  execute(actor: User, mode: Mode): Promise<PayoutDestination[]> {
    return this.deps.destinations.list({ merchantId: actor.merchantId, mode });
  }
}
