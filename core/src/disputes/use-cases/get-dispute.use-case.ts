import type { AccountScope } from '../../common';
import { notFound } from '../../common';
import type { Dispute } from '../domain/dispute.entity';
import type { DisputeRepository } from '../ports/dispute.repository.port';
export interface GetDisputeDeps {
  readonly disputes: DisputeRepository;
}

export class GetDispute {
  constructor(private readonly deps: GetDisputeDeps) {}

  /** Throws 404 `resource_not_found` for an unknown id or one of another merchant or mode. */
  async execute(input: { scope: AccountScope; id: string }): Promise<Dispute> {
    const dispute = await this.deps.disputes.findById(input.scope, input.id);
    if (!dispute) throw notFound('dispute', input.id);
    return dispute;
  }
}
