import { CoreError, type DestinationVerification, type Mode, type PayoutGateway, type PayoutRequest, type PayoutResult } from '@payments/core';

/**
 * Test-mode payouts: every destination is verified at once and every payout is paid at once; no
 * money moves. Live mode is never served here.
 */
export class SimulatedPayoutGateway implements PayoutGateway {
  /** References paid, so a repeat answers the same payout (like a real provider's idempotency). */
  private readonly paid = new Set<string>();

  supports(mode: Mode): boolean {
    return mode === 'test';
  }

  async verifyDestination(mode: Mode): Promise<DestinationVerification> {
    this.testOnly(mode);
    return { status: 'verified' };
  }

  async sendPayout(request: PayoutRequest): Promise<PayoutResult> {
    this.testOnly(request.mode);
    this.paid.add(request.reference);
    return { status: 'paid' };
  }

  async queryPayout(mode: Mode, reference: string): Promise<PayoutResult | undefined> {
    this.testOnly(mode);
    // A reference paid by another process is unknown here: the caller sends it again, which is paid.
    return this.paid.has(reference) ? { status: 'paid' } : undefined;
  }

  private testOnly(mode: Mode): void {
    if (mode !== 'test') throw new CoreError('payout_mode_unsupported', 'internal', 'Simulated payouts serve test mode only.');
  }
}
