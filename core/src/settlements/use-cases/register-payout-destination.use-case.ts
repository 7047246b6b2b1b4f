import type { AuditRecorder, NoticeOutbox, StepUp, User } from '../../dashboard';
import type { Merchant, MerchantRepository } from '../../merchants';
import type { Clock, Mode, RandomSource, SecretBox, UnitOfWork } from '../../common';
import { newId, notFound } from '../../common';
import {
  last4,
  PAYOUT_HOLD_MS,
  validatePayoutDestination,
  type PayoutDestination,
  type PayoutDestinationDetails,
  type PayoutDestinationInput,
} from '../domain/payout-destination.entity';
import type { PayoutDestinationRepository } from '../ports/payout-destination.repository.port';
import { payoutAudit, payoutNotice } from './payout-notice';

export interface RegisterPayoutDestinationInput extends PayoutDestinationInput {
  readonly mode: Mode;
  /** The one-time code of the person at the keyboard. */
  readonly code: string | undefined;
}
export interface RegisterPayoutDestinationDeps {
  readonly uow: UnitOfWork;
  readonly merchants: MerchantRepository;
  readonly destinations: PayoutDestinationRepository;
  readonly notices: NoticeOutbox;
  readonly stepUp: StepUp;
  readonly secrets: SecretBox;
  readonly audit: AuditRecorder;
  readonly clock: Clock;
  readonly random: RandomSource;
}

/**
 * Registers a payout destination. The fields are checked first (400), then the actor's one-time
 * code (403 `mfa_code_invalid`, counted and throttled by StepUp), and only then is anything written: the destination (account
 * number sealed), a notice for the account's email and the audit entry, in one transaction.
 * Test mode: a simulated destination, verified at once, no hold. Live mode: a bank account that
 * starts `unverified` (the payout adapter verifies it) and arms the 24-hour settlement hold. A
 * verified destination becomes the default when the mode has none.
 */
export class RegisterPayoutDestination {
  constructor(private readonly deps: RegisterPayoutDestinationDeps) {}

  async execute(actor: User, input: RegisterPayoutDestinationInput): Promise<PayoutDestination> {
    const merchant = await this.deps.merchants.findById(actor.merchantId);
    if (!merchant) throw notFound('merchant', actor.merchantId);
    const details = validatePayoutDestination(input.mode, merchant.settlementCurrency, input);
    return this.deps.stepUp.guard(actor, () => this.register(actor, merchant, input, details));
  }

  private register(actor: User, merchant: Merchant, input: RegisterPayoutDestinationInput, details: PayoutDestinationDetails): Promise<PayoutDestination> {
    const scope = { merchantId: merchant.id, mode: input.mode };
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      await self.deps.stepUp.verify(actor, input.code);
      const now = self.deps.clock.now();
      const verified = input.mode === 'test';
      const registered: PayoutDestination = {
        id: newId(self.deps.random, 'payout_destination'),
        merchantId: merchant.id,
        mode: input.mode,
        type: details.type,
        currency: details.currency,
        accountHolder: details.accountHolder,
        bankCode: details.bankCode,
        accountNumberSealed: self.deps.secrets.seal(details.accountNumber),
        accountNumberLast4: last4(details.accountNumber),
        status: verified ? 'verified' : 'unverified',
        isDefault: false,
        ...(input.mode === 'live' ? { holdUntil: new Date(now.getTime() + PAYOUT_HOLD_MS) } : {}),
        created: now,
      };
      await self.deps.destinations.insert(registered);
      // Promoted through makeDefault, which serialises default changes of the scope: two first
      // registrations at once leave one default rather than colliding on the one-default rule.
      const destination =
        verified && (await self.deps.destinations.findDefault(scope)) === undefined
          ? ((await self.deps.destinations.makeDefault(scope, registered.id, undefined)) ?? registered)
          : registered;
      await self.deps.notices.append(payoutNotice('payout_destination.registered', merchant, actor, destination, now, self.deps.random));
      await self.deps.audit.record(payoutAudit(actor, destination, 'created', { default: destination.isDefault }));
      return destination;
    });
  }
}
