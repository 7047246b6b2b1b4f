import { ChannelCredentialStore, CreateMerchant, MerchantRepository, type AccountScope, type ChannelCredentialStore as CredentialStore } from '@payments/core';
import { paymentFlow } from './payment-flow';
import { unique, type TestApp } from './test-app';

export interface ChannelMerchant {
  readonly scope: AccountScope;
  /** The merchant's test API key. */
  readonly key: string;
  readonly flow: ReturnType<typeof paymentFlow>;
}

/**
 * A new THB merchant on manual settlements whose test mode the operator switched to `channel`,
 * with the channel credentials `secrets` (as `admin channel set` stores them, sealed).
 */
export async function merchantOnChannel(app: TestApp, channel: string, secrets: Readonly<Record<string, string>>, now: Date): Promise<ChannelMerchant> {
  const suffix = unique(channel);
  const created = await app.app
    .get(CreateMerchant)
    .execute({ name: `Shop ${suffix}`, email: `${suffix}@example.com`, password: 'correct horse battery', settlementCurrency: 'THB' });
  const merchantId = created.merchant.id;
  await app.app.get<MerchantRepository>(MerchantRepository).updateSettings(merchantId, { settlementSchedule: 'manual' });
  await app.app.get<CredentialStore>(ChannelCredentialStore).put({ channel, merchantId, mode: 'test', secrets, updatedAt: now });
  const key = created.testApiKey.secret;
  return { scope: { merchantId, mode: 'test' }, key, flow: paymentFlow(app, key) };
}

/** A test secret key of `prefix` no other merchant of the run has. */
export const testSecretKey = (prefix: string): string => `${prefix}${unique('k').replace(/[^A-Za-z0-9]/g, '')}`;
