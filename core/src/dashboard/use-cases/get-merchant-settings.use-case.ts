import type { Merchant, MerchantRepository } from '../../merchants';
import { notFound } from '../../common';
import type { User } from '../domain/user.entity';
export interface GetMerchantSettingsDeps {
  readonly merchants: MerchantRepository;
}

/** The actor's merchant as its settings show it (fresh from storage, not the session's copy). */
export class GetMerchantSettings {
  constructor(private readonly deps: GetMerchantSettingsDeps) {}

  async execute(actor: User): Promise<Merchant> {
    const merchant = await this.deps.merchants.findById(actor.merchantId);
    if (!merchant) throw notFound('merchant', actor.merchantId);
    return merchant;
  }
}
