import { CreateMerchant, MerchantRepository, RandomSource, randomString } from '@payments/core';
import type { AppContainer } from './container';

const PASSWORD_ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export interface DemoMerchant {
  readonly merchantId: string;
  readonly email: string;
  readonly password: string;
  readonly testApiKey: string;
}

/**
 * First start of the embedded default: with no merchant yet, create one so a newcomer can call
 * the API at once. Its secrets exist only in what this returns (and what start prints once).
 */
export async function ensureDemoMerchant(app: AppContainer): Promise<DemoMerchant | undefined> {
  if (!(await app.get<MerchantRepository>(MerchantRepository).isEmpty())) return undefined;
  const password = randomString(app.get<RandomSource>(RandomSource), PASSWORD_ALPHABET, 20);
  const email = 'demo@example.com';
  const created = await app.get(CreateMerchant).execute({ name: 'Demo Shop', email, password });
  return { merchantId: created.merchant.id, email, password, testApiKey: created.testApiKey.secret };
}

export function describeDemoMerchant(demo: DemoMerchant, baseUrl: string): string {
  return [
    '',
    'A demo merchant was created on this empty database. Save these now; they are not shown again:',
    `  merchant:       ${demo.merchantId}`,
    `  test API key:   ${demo.testApiKey}`,
    `  owner email:    ${demo.email}`,
    `  owner password: ${demo.password}`,
    '',
    'Try it:',
    `  curl -s ${baseUrl}/v1/payment_intents -H "Authorization: Bearer ${demo.testApiKey}" \\`,
    '    -H "Idempotency-Key: $(date +%s%N)" -H "Content-Type: application/json" \\',
    `    -d '{"amount":10000,"currency":"THB","merchant_order_id":"order-1"}'`,
    '',
    `Console: open ${baseUrl}/dashboard and choose "First sign-in" with the owner's email and password:`,
    'scan the QR code with an authenticator app, then sign in with the code it shows.',
    '',
    "The same from a script: claim the owner's second factor once, then sign in with a code:",
    `  curl -s ${baseUrl}/dashboard/v1/mfa -H "Content-Type: application/json" \\`,
    `    -d '{"email":"${demo.email}","password":"${demo.password}"}'`,
    `  curl -s -c cookies.txt ${baseUrl}/dashboard/v1/session -H "Content-Type: application/json" \\`,
    `    -d '{"email":"${demo.email}","password":"${demo.password}","code":"123456"}'`,
    '',
  ].join('\n');
}
