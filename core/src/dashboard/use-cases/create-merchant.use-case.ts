import type { IssueApiKey, IssuedApiKey, Merchant, MerchantRepository } from '../../merchants';
import { SETTLEMENT_SCHEDULES } from '../../merchants';
import type { Clock, RandomSource, UnitOfWork } from '../../common';
import { assertCurrency, invalidParameter, isOneOf, newId } from '../../common';
import { PASSWORD_LENGTH, type User } from '../domain/user.entity';
import type { PasswordHasher } from '../ports/password-hasher.port';
import type { UserRepository } from '../ports/user.repository.port';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface CreateMerchantInput {
  readonly name: string;
  readonly email: string;
  readonly password: string;
  readonly settlementCurrency?: string;
  /** One of SETTLEMENT_SCHEDULES; checked here, since the operator types it. */
  readonly settlementSchedule?: string;
  readonly settlementDelayDays?: number;
}

export interface CreateMerchantOutput {
  readonly merchant: Merchant;
  readonly owner: User;
  readonly testApiKey: IssuedApiKey;
}
export interface CreateMerchantDeps {
  readonly uow: UnitOfWork;
  readonly merchants: MerchantRepository;
  readonly users: UserRepository;
  readonly issueApiKey: IssueApiKey;
  readonly passwords: PasswordHasher;
  readonly clock: Clock;
  readonly random: RandomSource;
}

/** Onboards a merchant (operator action): the account, its owner and a first test key. */
export class CreateMerchant {
  constructor(private readonly deps: CreateMerchantDeps) {}

  /** Throws validation errors, or `email_taken` when the owner email already has an account. */
  async execute(input: CreateMerchantInput): Promise<CreateMerchantOutput> {
    const name = input.name.trim();
    if (name.length === 0 || name.length > 200) throw invalidParameter('name', 'name must be 1 to 200 characters.');
    const email = input.email.trim().toLowerCase();
    if (!EMAIL.test(email) || email.length > 254) throw invalidParameter('email', 'email must be an email address.');
    if (input.password.length < PASSWORD_LENGTH.min || input.password.length > PASSWORD_LENGTH.max) {
      throw invalidParameter('password', `password must be ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters.`);
    }
    const settlementCurrency = input.settlementCurrency ?? 'THB';
    assertCurrency(settlementCurrency, 'settlement_currency');
    const settlementSchedule = input.settlementSchedule ?? 'daily';
    if (!isOneOf(SETTLEMENT_SCHEDULES, settlementSchedule)) {
      throw invalidParameter('schedule', `schedule must be one of ${SETTLEMENT_SCHEDULES.join(', ')}.`);
    }
    const settlementDelayDays = input.settlementDelayDays ?? 2;
    if (!Number.isInteger(settlementDelayDays) || settlementDelayDays < 0 || settlementDelayDays > 30) {
      throw invalidParameter('settlement_delay_days', 'settlement_delay_days must be a whole number from 0 to 30.');
    }

    const now = this.deps.clock.now();
    const merchant: Merchant = {
      id: newId(this.deps.random, 'merchant'),
      name,
      email,
      liveEnabled: false,
      settlementCurrency,
      settlementSchedule,
      settlementDelayDays,
      created: now,
    };
    const owner: User = {
      id: newId(this.deps.random, 'user'),
      merchantId: merchant.id,
      email,
      role: 'owner',
      status: 'active',
      passwordHash: await this.deps.passwords.hash(input.password),
      created: now,
    };
    const testApiKey = await this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      await self.deps.merchants.insert(merchant);
      await self.deps.users.insert(owner);
      return self.deps.issueApiKey.execute({ merchantId: merchant.id, mode: 'test', name: 'Default test key' });
    });
    return { merchant, owner, testApiKey };
  }
}
