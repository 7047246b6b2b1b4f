import type { Mode, PaymentChannel, PaymentChannelRegistry } from '@payments/core';

/** The channels of this deployment, in routing order (the first that fits a payment takes it). */
export class StaticChannelRegistry implements PaymentChannelRegistry {
  constructor(private readonly channels: readonly PaymentChannel[]) {}

  find(name: string): PaymentChannel | undefined {
    return this.channels.find((channel) => channel.capabilities.name === name);
  }

  forMode(mode: Mode): readonly PaymentChannel[] {
    return this.channels.filter((channel) => channel.capabilities.modes.includes(mode));
  }
}
