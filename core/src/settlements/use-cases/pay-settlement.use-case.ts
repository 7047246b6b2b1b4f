import type { ItemJob } from '../../jobs';
import type { MerchantRepository } from '../../merchants';
import type { SecretBox, UnitOfWork } from '../../common';
import { isCoreError, MODES, type AccountScope, type Mode } from '../../common';
import { publishEvent } from '../../webhooks';
import type { PayoutDestination } from '../domain/payout-destination.entity';
import type { Settlement } from '../domain/settlement.entity';
import type { PayoutDestinationRepository } from '../ports/payout-destination.repository.port';
import type { PayoutAccount, PayoutGateway, PayoutResult } from '../ports/payout-gateway.port';
import { settlementEvent, type SettlementDeps } from './settlement-batch';

/** Why a pending settlement is not paid yet; each clears on its own (config, verification, time). */
export type SettlementWaitReason = 'no_payout_gateway' | 'no_default_destination' | 'destination_unverified' | 'destination_on_hold';

export type PaySettlementOutcome =
  /** Paid or failed, now or before. */
  | { readonly kind: 'finished'; readonly settlement: Settlement }
  /** Sent; the provider has not decided yet (or could not be reached): asked again on a later pass. */
  | { readonly kind: 'processing'; readonly settlement: Settlement }
  /** Still pending: nothing sent, nothing posted. */
  | { readonly kind: 'waiting'; readonly reason: SettlementWaitReason; readonly settlement: Settlement }
  | { readonly kind: 'unknown' };

type Started = PaySettlementOutcome | { readonly kind: 'send'; readonly settlement: Settlement; readonly account: PayoutAccount; readonly resumed: boolean };

export interface PaySettlementDeps extends SettlementDeps {
  readonly uow: UnitOfWork;
  readonly merchants: MerchantRepository;
  readonly destinations: PayoutDestinationRepository;
  readonly secrets: SecretBox;
  readonly gateway: PayoutGateway;
}

/** The account a test-mode settlement goes to when the merchant registered no simulated destination. */
const IMPLICIT_TEST_BANK_CODE = 'SIMULATED';
const IMPLICIT_TEST_ACCOUNT = '0000000000';

/**
 * Pays one settlement (docs/architecture.md, Settlements). Live mode waits, with nothing sent or posted, while
 * the mode has no verified default destination or a destination hold runs; test mode pays the
 * default simulated destination or an implicit one. `pending` → `processing` → `paid` | `failed`:
 * each change, its posting and its event commit together with the settlement row locked, and the
 * provider is called between them with no transaction open. A retry is safe at any point: the
 * payout's reference is the settlement id, and a `processing` settlement is asked about again.
 */
export class PaySettlement {
  constructor(private readonly deps: PaySettlementDeps) {}

  async execute(input: { scope: AccountScope; id: string }): Promise<PaySettlementOutcome> {
    const started = await this.start(input.scope, input.id);
    if (started.kind !== 'send') return started;
    const { settlement, account } = started;
    let result: PayoutResult;
    try {
      const known = started.resumed ? await this.deps.gateway.queryPayout(settlement.mode, settlement.id) : undefined;
      result =
        known ?? (await this.deps.gateway.sendPayout({ mode: settlement.mode, reference: settlement.id, amount: settlement.amount, destination: account }));
    } catch (error) {
      // No answer: the payout may exist. It stays processing and the next pass asks by reference.
      if (isCoreError(error) && error.category === 'unavailable') return { kind: 'processing', settlement };
      throw error;
    }
    return this.finish(input.scope, input.id, result);
  }

  /** Moves a pending settlement to processing once it may be paid; works out where it goes. */
  private start(scope: AccountScope, id: string): Promise<Started> {
    const { deps } = this;
    return deps.uow.run(async (transaction): Promise<Started> => {
      const self = transaction.bind(this);
      const settlement = await self.deps.settlements.findByIdForUpdate(scope, id);
      if (!settlement) return { kind: 'unknown' };
      if (settlement.status === 'paid' || settlement.status === 'failed') return { kind: 'finished', settlement };
      if (settlement.status === 'processing') {
        const destination = settlement.destinationId === undefined ? undefined : await self.deps.destinations.findById(scope, settlement.destinationId);
        return { kind: 'send', settlement, account: await self.accountOf(scope, destination), resumed: true };
      }
      if (!self.deps.gateway.supports(scope.mode)) return { kind: 'waiting', reason: 'no_payout_gateway', settlement };
      const destination = await self.deps.destinations.findDefault(scope);
      if (scope.mode === 'live') {
        if (!destination) return { kind: 'waiting', reason: 'no_default_destination', settlement };
        if (destination.status !== 'verified') return { kind: 'waiting', reason: 'destination_unverified', settlement };
        const hold = await self.deps.destinations.latestHold(scope);
        if (hold !== undefined && hold.getTime() > self.deps.clock.now().getTime()) return { kind: 'waiting', reason: 'destination_on_hold', settlement };
      }
      const now = self.deps.clock.now();
      const processing: Settlement = { ...settlement, status: 'processing', ...(destination ? { destinationId: destination.id } : {}), updated: now };
      await self.deps.settlements.update(processing);
      await publishEvent(self.deps, settlementEvent(processing, self.deps.random, now), now);
      return { kind: 'send', settlement: processing, account: await self.accountOf(scope, destination), resumed: false };
    });
  }

  /** Records the provider's answer, unless another pass recorded one first. */
  private finish(scope: AccountScope, id: string, result: PayoutResult): Promise<PaySettlementOutcome> {
    const { deps } = this;
    return deps.uow.run(async (transaction): Promise<PaySettlementOutcome> => {
      const self = transaction.bind(this);
      const settlement = await self.deps.settlements.findByIdForUpdate(scope, id);
      if (!settlement) return { kind: 'unknown' };
      if (settlement.status !== 'processing') return { kind: 'finished', settlement };
      if (result.status === 'processing') return { kind: 'processing', settlement };
      const now = self.deps.clock.now();
      const money = { settlementId: settlement.id, scope, amount: settlement.amount };
      let finished: Settlement;
      if (result.status === 'paid') {
        finished = { ...settlement, status: 'paid', paidAt: now, updated: now };
        await self.deps.settlements.update(finished);
        await self.deps.funds.settlementPaid(money, now);
      } else {
        finished = { ...settlement, status: 'failed', failureReason: result.failureReason ?? 'payout_failed', updated: now };
        await self.deps.settlements.update(finished);
        // The money returns to available and the payments may be settled again.
        await self.deps.funds.settlementFailed(money, now);
        await self.deps.settlements.releasePayments(scope, settlement.id);
      }
      await publishEvent(self.deps, settlementEvent(finished, self.deps.random, now), now);
      return { kind: 'finished', settlement: finished };
    });
  }

  private async accountOf(scope: AccountScope, destination: PayoutDestination | undefined): Promise<PayoutAccount> {
    if (destination) {
      return {
        accountHolder: destination.accountHolder,
        bankCode: destination.bankCode,
        accountNumber: this.deps.secrets.open(destination.accountNumberSealed),
      };
    }
    // Only test mode gets here (live mode waits for a destination): the implicit simulated account.
    const merchant = await this.deps.merchants.findById(scope.merchantId);
    return { accountHolder: merchant?.name ?? scope.merchantId, bankCode: IMPLICIT_TEST_BANK_CODE, accountNumber: IMPLICIT_TEST_ACCOUNT };
  }
}
export interface PaySettlementsDeps {
  readonly settlements: SettlementDeps['settlements'];
  readonly pay: PaySettlement;
}

/** The `pay-settlements` job: every unfinished settlement of a mode, oldest first, one at a time. */
export class PaySettlements implements ItemJob<Settlement, PaySettlementOutcome> {
  readonly name = 'pay-settlements';
  readonly lanes = MODES;

  constructor(private readonly deps: PaySettlementsDeps) {}

  due(mode: Mode, limit: number, deferred: ReadonlySet<string>): Promise<Settlement[]> {
    return this.deps.settlements.findUnfinished(mode, limit + deferred.size);
  }

  idOf(settlement: Settlement): string {
    return settlement.id;
  }

  /** Finished, or moved on (sent); one still waiting, or still processing at the provider, did nothing. */
  progressed(outcome: PaySettlementOutcome, candidate: Settlement): boolean {
    return outcome.kind === 'finished' || (outcome.kind === 'processing' && outcome.settlement.status !== candidate.status);
  }

  handle(candidate: Settlement): Promise<PaySettlementOutcome> {
    return this.deps.pay.execute({ scope: { merchantId: candidate.merchantId, mode: candidate.mode }, id: candidate.id });
  }
}
