import type { Merchant } from '../../merchants';
import type { User } from '../domain/user.entity';
import { notFound } from '../../shared';
import type { MerchantRepository } from '../../merchants';

/** The actor's merchant as its settings show it (fresh from storage, not the session's copy). */
export class GetMerchantSettings {
  constructor(private readonly merchants: MerchantRepository) {}

  async execute(actor: User): Promise<Merchant> {
    const merchant = await this.merchants.findById(actor.merchantId);
    if (!merchant) throw notFound('merchant', actor.merchantId);
    return merchant;
  }
}
