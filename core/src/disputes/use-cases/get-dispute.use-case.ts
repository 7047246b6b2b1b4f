import type { Dispute } from '../domain/dispute.entity';
import type { AccountScope } from '../../shared';
import { notFound } from '../../shared';
import type { DisputeRepository } from '../ports/dispute.repository.port';

export class GetDispute {
  constructor(private readonly disputes: DisputeRepository) {}

  /** Throws 404 `resource_not_found` for an unknown id or one of another merchant or mode. */
  async execute(input: { scope: AccountScope; id: string }): Promise<Dispute> {
    const dispute = await this.disputes.findById(input.scope, input.id);
    if (!dispute) throw notFound('dispute', input.id);
    return dispute;
  }
}
