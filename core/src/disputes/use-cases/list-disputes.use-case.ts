import type { Dispute } from '../domain/dispute.entity';
import type { AccountScope } from '../../shared';
import type { DisputeFilter, DisputeRepository } from '../ports/dispute.repository.port';
import type { Page, PageRequest } from '../../shared';

export class ListDisputes {
  constructor(private readonly disputes: DisputeRepository) {}

  /** Newest first; an unknown `starting_after` is 400 `invalid_parameter`. */
  execute(input: { scope: AccountScope; filter: DisputeFilter; page: PageRequest }): Promise<Page<Dispute>> {
    return this.disputes.list(input.scope, input.filter, input.page);
  }
}
