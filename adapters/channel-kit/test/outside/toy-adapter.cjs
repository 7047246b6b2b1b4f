'use strict';
// A channel adapter written by "another team", in plain JavaScript, outside the workspace: it
// speaks a made-up provider's HTTP API (https://toy-provider.example) and implements the port.
const { createHmac, timingSafeEqual } = require('node:crypto');

const ORIGIN = 'https://toy-provider.example';

class PortError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const STATUSES = { open: 'pending', paid: 'paid', failed: 'failed' };

class ToyChannel {
  constructor(secret) {
    this.secret = secret;
    this.capabilities = { name: 'toy', modes: ['test'], methods: ['promptpay'], currencies: ['THB'], canSimulate: false, pendingTimeoutMs: 60000 };
  }

  async call(method, path, body) {
    let answer;
    try {
      answer = await fetch(`${ORIGIN}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    } catch {
      throw new PortError('channel_error', 'The toy provider could not be reached.');
    }
    if (!answer.ok) throw new PortError('channel_error', `The toy provider answered ${answer.status}.`);
    return answer.json();
  }

  async placeOrder(request) {
    try {
      const order = await this.call('POST', '/orders', { reference: request.reference, amount: request.amount });
      return { outcome: 'placed', channelOrderId: order.id, nextAction: { type: 'qr_code', qrData: order.qr } };
    } catch {
      return { outcome: 'refused', failureCode: 'channel_error', message: 'The toy provider did not take the order.' };
    }
  }

  async queryOrder(_mode, id) {
    const order = await this.call('GET', `/orders/${id}`);
    const status = STATUSES[order.state];
    if (status === undefined) throw new PortError('channel_error', `Unmapped toy status '${order.state}'.`);
    return { channelOrderId: order.id, reference: order.reference, status, amount: order.amount, currency: 'THB' };
  }

  verifyCallback(_mode, headers, rawBody) {
    const expected = createHmac('sha256', this.secret).update(rawBody).digest();
    const given = Buffer.from(headers['toy-signature'] ?? '', 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new PortError('invalid_signature', 'Bad signature.');
    const body = JSON.parse(rawBody);
    return { kind: 'order', channelOrderId: body.id, reference: body.reference, reportedStatus: 'paid' };
  }

  async voidOrder() {}

  async placeRefund(request) {
    const refund = await this.call('POST', '/refunds', { reference: request.reference, order: request.channelOrderId, amount: request.amount });
    return { outcome: 'placed', channelRefundId: refund.id };
  }

  async queryRefund(_mode, id) {
    const refund = await this.call('GET', `/refunds/${id}`);
    return {
      channelRefundId: refund.id,
      reference: refund.reference,
      channelOrderId: refund.order,
      status: 'succeeded',
      amount: refund.amount,
      currency: 'THB',
    };
  }

  async queryDispute(_mode, id) {
    const dispute = await this.call('GET', `/disputes/${id}`);
    return {
      channelDisputeId: dispute.id,
      channelOrderId: dispute.order,
      reference: dispute.reference,
      status: 'opened',
      amount: dispute.amount,
      currency: 'THB',
    };
  }

  async statement(_mode, query) {
    const page = await this.call('GET', `/statement?after=${query.after ?? ''}`);
    return {
      lines: page.lines.map((line) => ({ ...line, currency: 'THB', occurredAt: new Date(line.at) })),
      next: page.next,
      hasMore: false,
      asOf: new Date(),
    };
  }
}

module.exports = { ToyChannel, ORIGIN };
