import {
  ApiKeyRepository,
  AuthenticateApiKey,
  Clock,
  CreateMerchant,
  Digest,
  IdempotencyStore,
  IssueApiKey,
  MerchantRepository,
  PasswordHasher,
  RandomSource,
  ResolveApiVersion,
  RunIdempotently,
  SecretBox,
  SetLiveMode,
  UnitOfWork,
  UserRepository,
} from '@payments/core';
import { ContainerModule } from 'inversify';
import { bindClass } from './wiring';
import type { Capability } from './capability';

/** Merchant accounts: creation, API keys and their authentication, API versions, live mode, idempotent requests. */
export const merchantsModule: Capability = {
  bindings: () =>
    new ContainerModule((options) => {
      bindClass(options, AuthenticateApiKey, { keys: ApiKeyRepository, digest: Digest });
      bindClass(options, ResolveApiVersion, { merchants: MerchantRepository });
      bindClass(options, RunIdempotently, { store: IdempotencyStore, uow: UnitOfWork, clock: Clock, random: RandomSource, secrets: SecretBox });
      bindClass(options, IssueApiKey, { keys: ApiKeyRepository, merchants: MerchantRepository, clock: Clock, random: RandomSource, digest: Digest });
      bindClass(options, CreateMerchant, {
        uow: UnitOfWork,
        merchants: MerchantRepository,
        users: UserRepository,
        issueApiKey: IssueApiKey,
        passwords: PasswordHasher,
        clock: Clock,
        random: RandomSource,
      });
      bindClass(options, SetLiveMode, { merchants: MerchantRepository });
    }),
  routes: [],
};
