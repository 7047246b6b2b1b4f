import type { AccountScope, Page, PageRequest } from '../../common';
import type { Dispute } from '../domain/dispute.entity';
import type { DisputeFilter, DisputeRepository } from '../ports/dispute.repository.port';
export interface ListDisputesDeps {
  readonly disputes: DisputeRepository;
}

export class ListDisputes {
  constructor(private readonly deps: ListDisputesDeps) {}

  /** Newest first; an unknown `starting_after` is 400 `invalid_parameter`. */
  execute(input: { scope: AccountScope; filter: DisputeFilter; page: PageRequest }): Promise<Page<Dispute>> {
    return this.deps.disputes.list(input.scope, input.filter, input.page);
  }
}
