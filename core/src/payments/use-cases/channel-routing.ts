import type { Mode } from '../../common';
import { invalidParameter } from '../../common';
import type { PaymentChannel, PaymentChannelRegistry } from '../ports/payment-channel.port';

function fits(channel: PaymentChannel, mode: Mode, method: string, currency: string): boolean {
  const c = channel.capabilities;
  return c.modes.includes(mode) && c.methods.includes(method) && c.currencies.includes(currency);
}

/**
 * The channel of an attempt: the `channel` field, else the intent's `channel_preference` when it
 * can take the payment, else the first channel of the mode that can.
 */
export function routeChannel(
  registry: PaymentChannelRegistry,
  payment: { mode: Mode; method: string; currency: string; requested?: string; preference?: string },
): PaymentChannel {
  const { mode, method, currency } = payment;
  if (payment.requested !== undefined) {
    const channel = registry.find(payment.requested);
    if (!channel || !channel.capabilities.modes.includes(mode)) {
      throw invalidParameter('channel', `No channel '${payment.requested}' serves ${mode} mode here.`);
    }
    if (!fits(channel, mode, method, currency)) throw invalidParameter('channel', `Channel '${payment.requested}' does not take ${method} in ${currency}.`);
    return channel;
  }
  const preferred = payment.preference === undefined ? undefined : registry.find(payment.preference);
  if (preferred && fits(preferred, mode, method, currency)) return preferred;
  const first = registry.forMode(mode).find((channel) => fits(channel, mode, method, currency));
  if (!first) throw invalidParameter('payment_method', `No channel takes ${method} in ${currency} in ${mode} mode.`);
  return first;
}
