import type { CryptoProvider } from './crypto/crypto-provider.js';
import { NodeCryptoProvider } from './crypto/node-crypto.js';
import { Payments as RuntimeNeutralPayments } from './client.js';

/**
 * The client, as the Node build exports it: crypto through `node:crypto`, which also makes the
 * synchronous `webhooks.constructEvent` and `generateTestHeader` available.
 *
 * ```ts
 * const payments = new Payments(process.env.PAYMENTS_KEY!, { baseUrl: 'http://localhost:4242' });
 * const intent = await payments.paymentIntents.create({ amount: 12345, currency: 'THB', merchant_order_id: 'order-1' });
 * ```
 */
export class Payments extends RuntimeNeutralPayments {
  protected static override defaultCrypto(): CryptoProvider {
    return new NodeCryptoProvider();
  }
  protected static override readonly runtime: string = 'node';
}
