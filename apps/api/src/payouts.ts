import {
  CoreError,
  type DestinationVerification,
  type Mode,
  type PayoutAccount,
  type PayoutGateway,
  type PayoutRequest,
  type PayoutResult,
} from '@payments/core';

/**
 * One payout gateway per mode behind the one port core sees: the simulated one for test mode,
 * the configured provider (if any) for live mode. A mode without one is not supported, so its
 * settlements wait rather than fail.
 */
export class ModePayoutGateway implements PayoutGateway {
  constructor(private readonly gateways: Partial<Record<Mode, PayoutGateway>>) {}

  supports(mode: Mode): boolean {
    return this.gateways[mode]?.supports(mode) ?? false;
  }

  verifyDestination(mode: Mode, account: PayoutAccount): Promise<DestinationVerification> {
    return this.of(mode).verifyDestination(mode, account);
  }

  sendPayout(request: PayoutRequest): Promise<PayoutResult> {
    return this.of(request.mode).sendPayout(request);
  }

  queryPayout(mode: Mode, reference: string): Promise<PayoutResult | undefined> {
    return this.of(mode).queryPayout(mode, reference);
  }

  private of(mode: Mode): PayoutGateway {
    const gateway = this.gateways[mode];
    if (!gateway) throw new CoreError('payout_provider_unavailable', 'unavailable', `No payout provider is configured for ${mode} mode.`);
    return gateway;
  }
}
