'use strict';
// The other team's test: the port's contract from @payments/channel-kit (installed from its packed
// tarball), run against their adapter with their provider arranged in nock.
const test = require('ava');
const nock = require('nock');
const { createHmac } = require('node:crypto');
const { channelContract, isolateNetwork, assertNoStrayRequests } = require('@payments/channel-kit');
const { ToyChannel, ORIGIN } = require('./toy-adapter.cjs');

const SECRET = 'toy-secret';

function subject() {
  isolateNetwork();
  const orders = new Map();
  const statement = [];
  let down = false;
  const provider = nock(ORIGIN).persist();
  const guard = (answer) => (down ? [500, {}] : answer());
  provider.post('/orders').reply((_uri, body) =>
    guard(() => {
      const id = `ord_${body.reference}`;
      if (!orders.has(id)) orders.set(id, { id, reference: body.reference, amount: body.amount, state: 'open', qr: `qr-${id}` });
      return [200, orders.get(id)];
    }),
  );
  provider.get(/^\/orders\/\w+$/).reply((uri) => guard(() => [200, orders.get(uri.split('/')[2])]));
  provider.post('/refunds').reply((_uri, body) => guard(() => [200, { id: `rf_${body.reference}` }]));
  provider.get(/^\/refunds\/\w+$/).reply((uri) => {
    const id = uri.split('/')[2];
    const reference = id.slice(3);
    const order = [...orders.values()][0];
    return [200, { id, reference, order: order.id, amount: order.amount }];
  });
  provider.get(/^\/disputes\/\w+$/).reply((uri) => {
    const order = [...orders.values()][0];
    return [200, { id: uri.split('/')[2], order: order.id, reference: order.reference, amount: order.amount }];
  });
  provider.get(/^\/statement/).reply((uri) => {
    const after = new URL(uri, ORIGIN).searchParams.get('after');
    return [200, { lines: after === '1' ? [] : statement, next: '1' }];
  });
  const sign = (body) => ({ 'toy-signature': createHmac('sha256', SECRET).update(body).digest('hex') });
  return {
    channel: new ToyChannel(SECRET),
    mode: 'test',
    merchantId: 'mch_toy',
    payment: { amount: 5000, currency: 'THB', paymentMethod: 'promptpay' },
    arrangeOrderAccepted: () => undefined,
    arrangeOrderPaid: (_reference, id) => {
      orders.get(id).state = 'paid';
    },
    arrangeOrderStatusUnknown: (_reference, id) => {
      orders.get(id).state = 'teleported';
    },
    arrangeProviderDown: () => {
      down = true;
    },
    signedPaidCallback: (reference, id) => {
      const rawBody = JSON.stringify({ id, reference });
      return { headers: sign(rawBody), rawBody };
    },
    tamperedPaidCallback: (reference, id) => {
      const rawBody = JSON.stringify({ id, reference });
      return { headers: sign(rawBody), rawBody: rawBody.replace('}', ',"x":1}') };
    },
    arrangeRefundSucceeded: () => undefined,
    arrangeDisputeOpened: () => 'dp_1',
    arrangeStatementWithPayment: (reference, id) => {
      statement.push({ kind: 'payment', reference, channelId: id, amount: 5000, at: Date.now() });
    },
    verifyArranged: assertNoStrayRequests,
  };
}

channelContract(test, 'toy', subject);
