import { RestPaymentChannel, type RestChannelEndpoint, type RestPaymentChannelOptions } from './rest-payment-channel';

/** The endpoints the configuration names; a mode without one is not offered by the channel. */
export interface RestChannelSettings {
  readonly test?: RestChannelEndpoint;
  readonly live?: RestChannelEndpoint;
}

/**
 * The rest channel for the configured modes, or `undefined` when the configuration names none
 * (then the deployment has no rest channel and routing never offers it).
 */
export function createRestChannel(
  settings: RestChannelSettings,
  options: Omit<RestPaymentChannelOptions, 'test' | 'live'> = {},
): RestPaymentChannel | undefined {
  if (!settings.test && !settings.live) return undefined;
  return new RestPaymentChannel({ ...options, ...(settings.test ? { test: settings.test } : {}), ...(settings.live ? { live: settings.live } : {}) });
}
