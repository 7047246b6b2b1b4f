import type { SettlementWriterDeps } from './settlement-batch';
import type { AuditActor, AuditRecorder } from '../../dashboard';
import { IDEMPOTENCY, type RequestKey } from '../../merchants';
import type { AccountScope } from '../../common';
import { CoreError, notFound } from '../../common';
import type { Settlement } from '../domain/settlement.entity';
import type { PaySettlement } from './pay-settlement.use-case';
import { openSettlement, SETTLEMENT_LOCK_TTL_MS, settlementLockKey } from './settlement-batch';

/**
 * A settlement answers for its request key as long as the idempotency key itself is remembered;
 * after that the key is a new request's, and makes a new settlement.
 */
function stillAnswersFor(settlement: Settlement, now: Date): boolean {
  return now.getTime() < settlement.created.getTime() + IDEMPOTENCY.retentionMs;
}
export interface CreateManualSettlementDeps extends SettlementWriterDeps {
  readonly pay: PaySettlement;
  readonly audit: AuditRecorder;
}

export interface CreateManualSettlementInput {
  readonly scope: AccountScope;
  /** The request's Idempotency-Key and whose it is. */
  readonly requestKey?: RequestKey;
  /** A dashboard user asking: the settlement is audited in its own transaction (`settlements.write`). */
  readonly actor?: AuditActor;
}

/**
 * `POST /v1/settlements` (and the dashboard's "pay out now"): a merchant on the `manual` schedule settles what is available now. Others
 * are 403 `forbidden`; 409 `nothing_to_settle` or `insufficient_available_balance` when there is
 * nothing to pay or the balance does not cover it. Creations of one merchant and mode run one at a
 * time under a lock, and each is one transaction; in test mode the settlement is then paid at once
 * and answered as it then stands.
 *
 * Run it outside any unit of work: the lock must outlive the transaction it guards, and paying
 * calls the payout provider. So the request's answer cannot commit with its work: the settlement
 * keeps the request's Idempotency-Key, and a retry of that request (after a crash between the
 * work and the stored answer) is answered with the settlement it made, never a second one, for as
 * long as the key is remembered (24 hours).
 */
export class CreateManualSettlement {
  constructor(private readonly deps: CreateManualSettlementDeps) {}

  async execute(input: CreateManualSettlementInput): Promise<Settlement> {
    const { scope, requestKey, actor } = input;
    const merchant = await this.deps.merchants.findById(scope.merchantId);
    if (!merchant) throw notFound('merchant', scope.merchantId);
    if (merchant.settlementSchedule !== 'manual') {
      throw new CoreError(
        'forbidden',
        'forbidden',
        `This account settles on its ${merchant.settlementSchedule} schedule; only an account whose settlement_schedule is manual may ask for a settlement.`,
      );
    }
    const created = await this.deps.locks.withLock(settlementLockKey(scope), SETTLEMENT_LOCK_TTL_MS, () =>
      this.deps.uow.run(async (transaction) => {
        const self = transaction.bind(this);
        // Read in the transaction that makes the settlement: when a request with the same key got
        // past a lock that did not hold (a Redis that restarted empty), the key's unique index
        // refuses the second settlement and the unit of work, run again, finds the first here.
        const earlier = requestKey === undefined ? undefined : await self.deps.settlements.findByRequestKey(scope, requestKey);
        const now = self.deps.clock.now();
        if (earlier && stillAnswersFor(earlier, now)) return earlier;
        // In the new settlement's transaction: should opening it fail, the old one keeps its key.
        if (earlier) await self.deps.settlements.forgetRequestKey(scope, earlier.id);
        const settlement = await openSettlement(self.deps, { merchant, scope, trigger: 'manual', releasedBefore: now, requestKey });
        if (actor) {
          const { amount, currency } = settlement.amount;
          await self.deps.audit.recordAction(
            actor,
            'settlements.write',
            { type: 'settlement', id: settlement.id },
            { change: 'created', mode: scope.mode, amount, currency },
          );
        }
        return settlement;
      }),
    );
    if (scope.mode !== 'test' || created.status !== 'pending') return created;
    try {
      const outcome = await this.deps.pay.execute({ scope, id: created.id });
      return outcome.kind === 'unknown' ? created : outcome.settlement;
    } catch {
      // The settlement exists and the payout job finishes it; the caller still learns of it.
      return (await this.deps.settlements.findById(scope, created.id)) ?? created;
    }
  }
}
