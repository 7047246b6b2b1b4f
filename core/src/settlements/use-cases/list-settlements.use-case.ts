import type { AccountScope, Page, PageRequest } from '../../common';
import type { Settlement } from '../domain/settlement.entity';
import type { SettlementRepository } from '../ports/settlement.repository.port';
export interface ListSettlementsDeps {
  readonly settlements: SettlementRepository;
}

export class ListSettlements {
  constructor(private readonly deps: ListSettlementsDeps) {}

  /** Newest first; an unknown `starting_after` is 400 `invalid_parameter`. */
  execute(input: { scope: AccountScope; page: PageRequest }): Promise<Page<Settlement>> {
    return this.deps.settlements.list(input.scope, input.page);
  }
}
