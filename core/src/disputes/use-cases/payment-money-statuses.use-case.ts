import type { AccountScope } from '../../common';
import { moneyStatuses, type MoneyStatus, type PaymentIntent } from '../../payments';
import { disputeOutcome } from '../domain/dispute.entity';
import type { DisputeRepository } from '../ports/dispute.repository.port';

export interface PaymentMoneyStatusesDeps {
  readonly disputes: DisputeRepository;
}

/**
 * The money statuses (refunded, disputed, dispute lost …) of a page of payments, read with one
 * query of their disputes: what the console shows beside the channel's status.
 */
export class PaymentMoneyStatuses {
  constructor(private readonly deps: PaymentMoneyStatusesDeps) {}

  async execute(scope: AccountScope, intents: readonly PaymentIntent[]): Promise<ReadonlyMap<string, MoneyStatus[]>> {
    const disputes =
      intents.length === 0
        ? new Map<string, never[]>()
        : await this.deps.disputes.statusesByPayment(
            scope,
            intents.map((intent) => intent.id),
          );
    return new Map(intents.map((intent) => [intent.id, moneyStatuses(intent, (disputes.get(intent.id) ?? []).map(disputeOutcome))]));
  }
}
