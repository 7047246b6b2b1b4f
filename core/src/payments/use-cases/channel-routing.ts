import type { Mode } from '../../common';
import { invalidParameter } from '../../common';
import type { PaymentChannel, PaymentChannelRegistry } from '../ports/payment-channel.port';

function fits(channel: PaymentChannel, mode: Mode, method: string, currency: string): boolean {
  const c = channel.capabilities;
  return c.modes.includes(mode) && c.methods.includes(method) && c.currencies.includes(currency);
}

/** Whether the channel takes this merchant's payments (always, for a channel without per-merchant credentials). */
async function servesMerchant(channel: PaymentChannel, merchantId: string, mode: Mode): Promise<boolean> {
  return channel.servesMerchant ? channel.servesMerchant(merchantId, mode) : true;
}

/**
 * The channel of an attempt: the `channel` field, else the intent's `channel_preference` when it
 * can take the payment, else the first channel of the mode that can. A channel with per-merchant
 * credentials (`servesMerchant`) takes only the merchants the operator set it up for.
 */
export async function routeChannel(
  registry: PaymentChannelRegistry,
  payment: { merchantId: string; mode: Mode; method: string; currency: string; requested?: string; preference?: string },
): Promise<PaymentChannel> {
  const { merchantId, mode, method, currency } = payment;
  if (payment.requested !== undefined) {
    const channel = registry.find(payment.requested);
    if (!channel || !channel.capabilities.modes.includes(mode)) {
      throw invalidParameter('channel', `No channel '${payment.requested}' serves ${mode} mode here.`);
    }
    if (!fits(channel, mode, method, currency)) throw invalidParameter('channel', `Channel '${payment.requested}' does not take ${method} in ${currency}.`);
    if (!(await servesMerchant(channel, merchantId, mode))) {
      throw invalidParameter('channel', `Channel '${payment.requested}' is not set up for this account in ${mode} mode.`);
    }
    return channel;
  }
  const preferred = payment.preference === undefined ? undefined : registry.find(payment.preference);
  if (preferred && fits(preferred, mode, method, currency) && (await servesMerchant(preferred, merchantId, mode))) return preferred;
  for (const channel of registry.forMode(mode)) {
    if (fits(channel, mode, method, currency) && (await servesMerchant(channel, merchantId, mode))) return channel;
  }
  throw invalidParameter('payment_method', `No channel takes ${method} in ${currency} in ${mode} mode.`);
}
