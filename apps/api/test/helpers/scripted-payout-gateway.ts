import type { DestinationVerification, Mode, PayoutGateway, PayoutRequest, PayoutResult } from '@payments/core';

/** A payout provider whose answers the test sets: every payout answered `next`, a query `queryAnswer`. */
export class ScriptedGateway implements PayoutGateway {
  next: PayoutResult = { status: 'paid' };
  queryAnswer: PayoutResult | undefined;
  readonly sent: string[] = [];

  supports(): boolean {
    return true;
  }

  async verifyDestination(): Promise<DestinationVerification> {
    return { status: 'verified' };
  }

  async sendPayout(request: PayoutRequest): Promise<PayoutResult> {
    this.sent.push(request.reference);
    return this.next;
  }

  async queryPayout(_mode: Mode, _reference: string): Promise<PayoutResult | undefined> {
    return this.queryAnswer;
  }
}
