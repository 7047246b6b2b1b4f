import type { AccountScope } from '../../shared';
import type { Settlement } from '../domain/settlement.entity';
import type { Page, PageRequest } from '../../shared';
import type { SettlementRepository } from '../ports/settlement.repository.port';

export class ListSettlements {
  constructor(private readonly settlements: SettlementRepository) {}

  /** Newest first; an unknown `starting_after` is 400 `invalid_parameter`. */
  execute(input: { scope: AccountScope; page: PageRequest }): Promise<Page<Settlement>> {
    return this.settlements.list(input.scope, input.page);
  }
}
