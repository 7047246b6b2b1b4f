import { CoreError } from '../../common';
import { CURRENT_API_VERSION, isRenderedVersion } from '../domain/api-version';
import type { Merchant } from '../domain/merchant.entity';
import type { MerchantRepository } from '../ports/merchant.repository.port';
export interface ResolveApiVersionDeps {
  readonly merchants: MerchantRepository;
}

export class ResolveApiVersion {
  constructor(private readonly deps: ResolveApiVersionDeps) {}

  /**
   * The version that answers this request: the `Api-Version` header when given, else the
   * account's pinned version. The first `/v1` request pins the account to the current version.
   * An unrendered version is 400 `invalid_api_version`.
   */
  async execute(input: { merchant: Merchant; requested?: string }): Promise<string> {
    if (input.requested !== undefined && !isRenderedVersion(input.requested)) {
      throw new CoreError('invalid_api_version', 'validation', `API version '${input.requested}' is not served; the current one is ${CURRENT_API_VERSION}.`, {
        param: 'Api-Version',
      });
    }
    const pinned = input.merchant.apiVersion ?? (await this.deps.merchants.pinApiVersion(input.merchant.id, CURRENT_API_VERSION));
    return input.requested ?? pinned;
  }
}
