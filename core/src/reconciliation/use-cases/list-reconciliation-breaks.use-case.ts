import type { Mode } from '../../common';
import type { ReconciliationItem, ReconciliationStatus } from '../domain/reconciliation';
import type { ReconciliationStore } from '../ports/reconciliation-store.port';

export interface ListReconciliationBreaksDeps {
  readonly store: ReconciliationStore;
}

export interface ListReconciliationBreaksInput {
  /** Default `open`; `all` for every status. */
  readonly status?: ReconciliationStatus | 'all';
  readonly channel?: string;
  readonly mode?: Mode;
  readonly limit: number;
}

/** The reconciliation's items for the operator (`admin recon breaks`): open breaks by default, the most recently changed first. */
export class ListReconciliationBreaks {
  constructor(private readonly deps: ListReconciliationBreaksDeps) {}

  execute(input: ListReconciliationBreaksInput): Promise<ReconciliationItem[]> {
    const status = input.status ?? 'open';
    return this.deps.store.list({
      limit: input.limit,
      ...(status === 'all' ? {} : { status }),
      ...(input.channel === undefined ? {} : { channel: input.channel }),
      ...(input.mode === undefined ? {} : { mode: input.mode }),
    });
  }
}
