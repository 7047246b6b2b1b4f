import { notFound } from '../../common';
import type { MerchantRepository } from '../ports/merchant.repository.port';
export interface SetLiveModeDeps {
  readonly merchants: MerchantRepository;
}

/** The review's decision (operator action): opens or closes live mode for a merchant. */
export class SetLiveMode {
  constructor(private readonly deps: SetLiveModeDeps) {}

  /** Throws 404 `resource_not_found` for an unknown merchant. */
  async execute(input: { merchantId: string; enabled: boolean }): Promise<void> {
    if (!(await this.deps.merchants.setLiveEnabled(input.merchantId, input.enabled))) throw notFound('merchant', input.merchantId);
  }
}
