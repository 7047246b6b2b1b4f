import type { AccountScope } from '../../common';
import { notFound } from '../../common';
import type { Settlement } from '../domain/settlement.entity';
import type { SettlementRepository } from '../ports/settlement.repository.port';
export interface GetSettlementDeps {
  readonly settlements: SettlementRepository;
}

export class GetSettlement {
  constructor(private readonly deps: GetSettlementDeps) {}

  /** Throws 404 `resource_not_found` for an unknown id or one of another merchant or mode. */
  async execute(input: { scope: AccountScope; id: string }): Promise<Settlement> {
    const settlement = await this.deps.settlements.findById(input.scope, input.id);
    if (!settlement) throw notFound('settlement', input.id);
    return settlement;
  }
}
