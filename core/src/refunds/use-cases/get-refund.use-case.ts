import type { AccountScope, Page, PageRequest } from '../../common';
import { notFound } from '../../common';
import type { Refund } from '../domain/refund.entity';
import type { RefundFilter, RefundRepository } from '../ports/refund.repository.port';

export interface RefundReadDeps {
  readonly refunds: RefundRepository;
}

export class GetRefund {
  constructor(private readonly deps: RefundReadDeps) {}

  /** Throws 404 `resource_not_found` for an unknown id or one of another merchant or mode. */
  async execute(input: { scope: AccountScope; id: string }): Promise<Refund> {
    const refund = await this.deps.refunds.findById(input.scope, input.id);
    if (!refund) throw notFound('refund', input.id);
    return refund;
  }
}

export class ListRefunds {
  constructor(private readonly deps: RefundReadDeps) {}

  /** Newest first; an unknown `starting_after` is 400 `invalid_parameter`. */
  execute(input: { scope: AccountScope; filter: RefundFilter; page: PageRequest }): Promise<Page<Refund>> {
    return this.deps.refunds.list(input.scope, input.filter, input.page);
  }
}
