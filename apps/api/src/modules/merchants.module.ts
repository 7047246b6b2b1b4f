import {
  ApiKeyRepository,
  AuthenticateApiKey,
  Clock,
  Digest,
  IdempotencyStore,
  IssueApiKey,
  MerchantRepository,
  RandomSource,
  ResolveApiVersion,
  RunIdempotently,
  SecretBox,
  SetLiveMode,
  UnitOfWork,
} from '@payments/core';
import { ContainerModule } from 'inversify';
import { bindClass } from './wiring';
import type { Capability } from './capability';

/** Merchant accounts: API keys and their authentication, API versions, live mode, idempotent requests. */
export const merchantsModule: Capability = {
  bindings: () =>
    new ContainerModule((options) => {
      bindClass(options, AuthenticateApiKey, { keys: ApiKeyRepository, digest: Digest });
      bindClass(options, ResolveApiVersion, { merchants: MerchantRepository });
      bindClass(options, RunIdempotently, { store: IdempotencyStore, uow: UnitOfWork, clock: Clock, random: RandomSource, secrets: SecretBox });
      bindClass(options, IssueApiKey, { keys: ApiKeyRepository, merchants: MerchantRepository, clock: Clock, random: RandomSource, digest: Digest });
      bindClass(options, SetLiveMode, { merchants: MerchantRepository });
    }),
  routes: [],
};
