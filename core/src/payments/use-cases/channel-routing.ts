import type { Mode } from '../../common';
import { invalidParameter } from '../../common';
import type { PaymentChannel, PaymentChannelRegistry } from '../ports/payment-channel.port';

function fits(channel: PaymentChannel, mode: Mode, method: string, currency: string): boolean {
  const c = channel.capabilities;
  return c.modes.includes(mode) && c.methods.includes(method) && c.currencies.includes(currency);
}

/**
 * The names of the channels of `mode` that take `merchantId`'s payments: every channel, less those
 * with per-merchant credentials (`servesMerchant`) that have none for this merchant. Asked before
 * routing, outside any transaction (the answer may come from the database).
 */
export async function channelsServing(registry: PaymentChannelRegistry, merchantId: string, mode: Mode): Promise<ReadonlySet<string>> {
  const served = new Set<string>();
  for (const channel of registry.forMode(mode)) {
    if (!channel.servesMerchant || (await channel.servesMerchant(merchantId, mode))) served.add(channel.capabilities.name);
  }
  return served;
}

/**
 * The channel of an attempt: the `channel` field, else the intent's `channel_preference` when it
 * can take the payment, else the first channel of the mode that can. Only channels in `served`
 * (`channelsServing`) are chosen: one with per-merchant credentials takes only the merchants the
 * operator set it up for.
 */
export function routeChannel(
  registry: PaymentChannelRegistry,
  payment: { served: ReadonlySet<string>; mode: Mode; method: string; currency: string; requested?: string; preference?: string },
): PaymentChannel {
  const { served, mode, method, currency } = payment;
  const serves = (channel: PaymentChannel): boolean => served.has(channel.capabilities.name);
  if (payment.requested !== undefined) {
    const channel = registry.find(payment.requested);
    if (!channel || !channel.capabilities.modes.includes(mode)) {
      throw invalidParameter('channel', `No channel '${payment.requested}' serves ${mode} mode here.`);
    }
    if (!fits(channel, mode, method, currency)) throw invalidParameter('channel', `Channel '${payment.requested}' does not take ${method} in ${currency}.`);
    if (!serves(channel)) throw invalidParameter('channel', `Channel '${payment.requested}' is not set up for this account in ${mode} mode.`);
    return channel;
  }
  const preferred = payment.preference === undefined ? undefined : registry.find(payment.preference);
  if (preferred && fits(preferred, mode, method, currency) && serves(preferred)) return preferred;
  const first = registry.forMode(mode).find((channel) => fits(channel, mode, method, currency) && serves(channel));
  if (!first) throw invalidParameter('payment_method', `No channel takes ${method} in ${currency} in ${mode} mode.`);
  return first;
}
