import test from 'ava';
import { CoreError } from '@payments/core';
import { SimulatedPayoutGateway } from '../src';

const destination = { accountHolder: 'Siam Coffee Co.', bankCode: 'SIMULATED', accountNumber: '0000000000' };

test('test mode: destinations are verified and payouts paid at once; a paid reference answers paid again', async (t) => {
  const gateway = new SimulatedPayoutGateway();
  t.true(gateway.supports('test'));
  t.false(gateway.supports('live'));
  t.deepEqual(await gateway.verifyDestination('test'), { status: 'verified' });
  t.is(await gateway.queryPayout('test', 'st_A'), undefined, 'never sent');
  t.deepEqual(await gateway.sendPayout({ mode: 'test', reference: 'st_A', amount: { amount: 100, currency: 'THB' }, destination }), { status: 'paid' });
  t.deepEqual(await gateway.queryPayout('test', 'st_A'), { status: 'paid' });
});

test('live mode is never simulated', async (t) => {
  const gateway = new SimulatedPayoutGateway();
  const error = await t.throwsAsync(() => gateway.sendPayout({ mode: 'live', reference: 'st_B', amount: { amount: 100, currency: 'THB' }, destination }));
  t.true(error instanceof CoreError);
});
