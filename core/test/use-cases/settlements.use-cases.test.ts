import test from 'ava';
import { randomBytes } from 'node:crypto';
import { InMemoryLockManager } from '@payments/in-memory';
import { AesGcmSecretBox } from '@payments/node-runtime';
import type { Dispute } from '../../src/disputes/domain/dispute.entity';
import { merchantAccount, platformAccount } from '../../src/ledger/domain/ledger';
import type { SettlementSchedule } from '../../src/merchants/domain/merchant.entity';
import type { AccountScope, Mode } from '../../src/common/mode';
import { PAYOUT_HOLD_MS, type PayoutDestination } from '../../src/settlements/domain/payout-destination.entity';
import { openSettlement, type SettlementDeps } from '../../src/settlements/use-cases/settlement-batch';
import { lastCompletePeriod } from '../../src/settlements/domain/settlement-period';
import type { PaymentIntent } from '../../src/payments/domain/payment-intent.entity';
import { CoreError } from '../../src/common/core-error';
import type { DestinationVerification, PayoutAccount, PayoutGateway, PayoutRequest, PayoutResult } from '../../src/settlements/ports/payout-gateway.port';
import { CreateManualSettlement } from '../../src/settlements/use-cases/create-manual-settlement.use-case';
import { CreateScheduledSettlements } from '../../src/settlements/use-cases/create-scheduled-settlements.use-case';
import { GetSettlement } from '../../src/settlements/use-cases/get-settlement.use-case';
import { ListSettlements } from '../../src/settlements/use-cases/list-settlements.use-case';
import { PaySettlement, PaySettlements } from '../../src/settlements/use-cases/pay-settlement.use-case';
import { VerifyPayoutDestinations } from '../../src/settlements/use-cases/verify-payout-destinations.use-case';
import { AuditRecorder } from '../../src/dashboard/use-cases/audit';
import { harness } from './harness';

const HOUR = 3_600_000;

/** A payout provider the test scripts: what each payout answers, and a record of every call. */
class ScriptedGateway implements PayoutGateway {
  readonly sent: PayoutRequest[] = [];
  readonly verified: PayoutAccount[] = [];
  readonly queried: string[] = [];
  next: PayoutResult = { status: 'paid' };
  queryAnswer: PayoutResult | undefined;
  verdict: DestinationVerification = { status: 'verified' };
  modes: readonly Mode[] = ['test', 'live'];

  supports(mode: Mode): boolean {
    return this.modes.includes(mode);
  }

  async verifyDestination(_mode: Mode, account: PayoutAccount): Promise<DestinationVerification> {
    this.verified.push(account);
    return this.verdict;
  }

  async sendPayout(request: PayoutRequest): Promise<PayoutResult> {
    this.sent.push(request);
    return this.next;
  }

  async queryPayout(_mode: Mode, reference: string): Promise<PayoutResult | undefined> {
    this.queried.push(reference);
    return this.queryAnswer;
  }
}

async function setup(schedule: SettlementSchedule = 'manual') {
  const h = harness();
  const box = new AesGcmSecretBox(randomBytes(32));
  const gateway = new ScriptedGateway();
  const deps: SettlementDeps = {
    settlements: h.storage.settlements,
    ledger: h.storage.ledger,
    funds: h.funds,
    events: h.storage.events,
    webhookEndpoints: h.storage.webhookEndpoints,
    webhookDeliveries: h.storage.webhookDeliveries,
    clock: h.clock,
    random: h.random,
  };
  const writers = { ...deps, uow: h.storage.uow, merchants: h.storage.merchants, locks: new InMemoryLockManager() };
  const pay = new PaySettlement({ ...writers, destinations: h.storage.payoutDestinations, secrets: box, gateway });
  const create = new CreateManualSettlement({ ...writers, pay, audit: new AuditRecorder({ log: h.storage.audit, clock: h.clock, random: h.random }) });
  const scheduled = new CreateScheduledSettlements(writers);
  const payAll = new PaySettlements({ settlements: h.storage.settlements, pay });
  const verify = new VerifyPayoutDestinations({ uow: h.storage.uow, destinations: h.storage.payoutDestinations, gateway, secrets: box });
  const { merchant } = await h.newMerchant();
  await h.storage.merchants.updateSettings(merchant.id, { settlementSchedule: schedule });
  const scope = (mode: Mode = 'test'): AccountScope => ({ merchantId: merchant.id, mode });
  let n = 0;

  /** A channel-settled payment of `net`, released at `releasedAt`, booked in the ledger like the real flow. */
  const releasedPayment = async (mode: Mode, net: number, releasedAt: Date = h.clock.now()): Promise<PaymentIntent> => {
    n += 1;
    const intent: PaymentIntent = {
      id: `pi_settle${n}${randomBytes(4).toString('hex')}`,
      merchantId: merchant.id,
      mode,
      amount: net + 100,
      currency: 'THB',
      merchantOrderId: `order-${n}-${randomBytes(3).toString('hex')}`,
      status: 'channel_settled',
      metadata: {},
      fee: { amount: 100, currency: 'THB' },
      net: { amount: net, currency: 'THB' },
      availableAt: releasedAt,
      releasedAt,
      created: releasedAt,
      updated: releasedAt,
      version: 3,
    };
    await h.storage.intents.insert(intent);
    await h.funds.book(intent, releasedAt);
    await h.funds.release(intent, releasedAt);
    return intent;
  };

  // Small amounts here: read as numbers so assertions stay plain (exactness has its own tests).
  const balance = async (mode: Mode, bucket: 'available' | 'pending' | 'dispute_hold' = 'available'): Promise<number> =>
    Number(await h.storage.uow.run((transaction) => transaction.bind(h.storage.ledger).balanceForUpdate(merchantAccount(scope(mode), bucket, 'THB'))));
  const inTransit = async (mode: Mode): Promise<number> =>
    Number(await h.storage.uow.run((transaction) => transaction.bind(h.storage.ledger).balanceForUpdate(platformAccount(mode, 'payouts_in_transit', 'THB'))));

  const settlementEvents = async (mode: Mode = 'test') =>
    (await h.storage.events.list(scope(mode), {}, { limit: 100 })).data.filter((event) => event.type.startsWith('settlement.')).reverse();

  const destination = async (mode: Mode, overrides: Partial<PayoutDestination> = {}): Promise<PayoutDestination> => {
    n += 1;
    const value: PayoutDestination = {
      id: `pd_dest${n}${randomBytes(4).toString('hex')}`,
      merchantId: merchant.id,
      mode,
      type: mode === 'live' ? 'bank_account' : 'simulated',
      currency: 'THB',
      accountHolder: 'Siam Coffee Co.',
      bankCode: 'KBANK',
      accountNumberSealed: box.seal('1234567890'),
      accountNumberLast4: '7890',
      status: mode === 'live' ? 'unverified' : 'verified',
      isDefault: false,
      ...(mode === 'live' ? { holdUntil: new Date(h.clock.now().getTime() + PAYOUT_HOLD_MS) } : {}),
      created: h.clock.now(),
      ...overrides,
    };
    await h.storage.payoutDestinations.insert(value);
    return value;
  };

  /** One pass of the payout job over every lane: how many settlements it moved on, and the ones waiting. */
  const payPass = async () => {
    const { outcomes, progressed } = await h.runJob(payAll, 10);
    return { advanced: progressed, waiting: outcomes.flatMap(({ outcome }) => (outcome.kind === 'waiting' ? [outcome] : [])) };
  };
  /** One pass of the scheduled-settlement job: the batches made, and the periods the balance did not cover. */
  const scheduledPass = async () => {
    const { outcomes } = await h.runJob(scheduled, 100);
    return {
      created: outcomes.flatMap(({ outcome }) => (typeof outcome === 'object' ? [outcome] : [])),
      uncovered: outcomes.flatMap(({ item, outcome }) => (outcome === 'uncovered' ? [item] : [])),
    };
  };
  /** One pass of the verification job: the provider's verdicts. */
  const verifyPass = async () => {
    const { outcomes } = await h.runJob(verify, 10);
    const count = (verdict: string): number => outcomes.filter(({ outcome }) => outcome === verdict).length;
    return { verified: count('verified'), rejected: count('rejected'), asked: outcomes.length };
  };

  return {
    h,
    deps,
    writers,
    gateway,
    create,
    pay,
    payPass,
    scheduledPass,
    verifyPass,
    merchant,
    scope,
    releasedPayment,
    balance,
    inTransit,
    settlementEvents,
    destination,
  };
}

async function refusal(t: { throwsAsync: (fn: () => Promise<unknown>) => Promise<unknown> }, promise: () => Promise<unknown>): Promise<CoreError> {
  const error = await t.throwsAsync(promise);
  if (!(error instanceof CoreError)) throw new Error('expected a CoreError');
  return error;
}

test('a merchant on a schedule may not ask for a settlement: 403 forbidden, nothing written', async (t) => {
  const s = await setup('daily');
  await s.releasedPayment('test', 5000);
  const error = await refusal(t, () => s.create.execute({ scope: s.scope() }));
  t.is(error.code, 'forbidden');
  t.is(error.category, 'forbidden');
  t.deepEqual((await s.h.storage.settlements.list(s.scope(), { limit: 10 })).data, []);
  t.is(await s.balance('test'), 5000);
});

test('nothing released and unsettled: 409 nothing_to_settle', async (t) => {
  const s = await setup();
  const error = await refusal(t, () => s.create.execute({ scope: s.scope() }));
  t.is(error.code, 'nothing_to_settle');
  t.is(error.category, 'conflict');
  // A payment released in the other mode does not count either.
  await s.releasedPayment('live', 5000);
  t.is((await refusal(t, () => s.create.execute({ scope: s.scope('test') }))).code, 'nothing_to_settle');
});

test('a test-mode settlement covers every released payment once and ends paid, events pending → processing → paid with the amount', async (t) => {
  const s = await setup();
  const first = await s.releasedPayment('test', 5000, new Date(s.h.clock.now().getTime() - 2 * HOUR));
  const second = await s.releasedPayment('test', 2500);
  s.h.clock.advance(1000);
  const settlement = await s.create.execute({ scope: s.scope() });

  t.is(settlement.status, 'paid');
  t.deepEqual(settlement.amount, { amount: 7500, currency: 'THB' });
  t.is(settlement.payments, 2);
  t.is(settlement.trigger, 'manual');
  t.deepEqual(settlement.periodStart, first.releasedAt);
  t.deepEqual(settlement.periodEnd, new Date(s.h.clock.now().getTime()));
  t.truthy(settlement.paidAt);
  t.is(s.gateway.sent.length, 1);
  t.like(s.gateway.sent[0], { mode: 'test', reference: settlement.id, amount: { amount: 7500, currency: 'THB' } });

  const events = await s.settlementEvents();
  t.deepEqual(
    events.map((event) => event.type),
    ['settlement.pending', 'settlement.processing', 'settlement.paid'],
  );
  for (const event of events)
    t.deepEqual(event.data, {
      id: settlement.id,
      object: 'settlement',
      status: event.type.slice(11),
      merchant: s.merchant.id,
      mode: 'test',
      amount: { amount: 7500, currency: 'THB' },
    });

  t.is(await s.balance('test'), 0);
  t.is(await s.inTransit('test'), 0);
  for (const intent of [first, second]) t.is((await s.h.storage.intents.findById(s.scope(), intent.id))?.settlementId, settlement.id);
  t.deepEqual(await new GetSettlement({ settlements: s.h.storage.settlements }).execute({ scope: s.scope(), id: settlement.id }), settlement);
  t.is((await refusal(t, () => s.create.execute({ scope: s.scope() }))).code, 'nothing_to_settle', 'each payment is settled once');
});

test('a retry of the request that made a settlement finds it (and pays it if the crash came first) instead of 409; another request still finds nothing', async (t) => {
  const s = await setup();
  await s.releasedPayment('test', 4000);
  // The first try committed its settlement, then the process died before paying and answering.
  const opened = await s.h.storage.uow.run((transaction) =>
    openSettlement(transaction.bind(s.deps), {
      merchant: s.merchant,
      scope: s.scope(),
      trigger: 'manual',
      releasedBefore: s.h.clock.now(),
      requestKey: { caller: 'api', key: 'key-1' },
    }),
  );
  t.is(opened.status, 'pending');
  t.is(s.gateway.sent.length, 0);

  const retried = await s.create.execute({ scope: s.scope(), requestKey: { caller: 'api', key: 'key-1' } });
  t.is(retried.id, opened.id);
  t.is(retried.status, 'paid');
  t.is(s.gateway.sent.length, 1);
  const again = await s.create.execute({ scope: s.scope(), requestKey: { caller: 'api', key: 'key-1' } });
  t.like(again, { id: opened.id, status: 'paid' });
  t.is(s.gateway.sent.length, 1, 'a paid settlement is not paid again');
  t.is((await refusal(t, () => s.create.execute({ scope: s.scope(), requestKey: { caller: 'api', key: 'key-2' } }))).code, 'nothing_to_settle');
  t.is((await s.h.storage.settlements.list(s.scope(), { limit: 10 })).data.length, 1);
  t.is(await s.balance('test'), 0);
});

test('a request key is remembered 24 hours: reused later, it makes a new settlement, and the old one keeps its payments', async (t) => {
  const s = await setup();
  const first = await s.releasedPayment('test', 4000);
  const made = await s.create.execute({ scope: s.scope(), requestKey: { caller: 'api', key: 'key-1' } });
  t.is(made.status, 'paid');

  s.h.clock.advance(24 * HOUR - 1);
  t.is((await s.create.execute({ scope: s.scope(), requestKey: { caller: 'api', key: 'key-1' } })).id, made.id, 'still the same request within 24 hours');

  s.h.clock.advance(1);
  const second = await s.releasedPayment('test', 2500);
  const remade = await s.create.execute({ scope: s.scope(), requestKey: { caller: 'api', key: 'key-1' } });
  t.not(remade.id, made.id);
  t.like(remade, { status: 'paid', amount: { amount: 2500, currency: 'THB' }, payments: 1, requestKey: { caller: 'api', key: 'key-1' } });
  t.is((await s.h.storage.intents.findById(s.scope(), first.id))?.settlementId, made.id);
  t.is((await s.h.storage.intents.findById(s.scope(), second.id))?.settlementId, remade.id);
  t.like(await s.h.storage.settlements.findById(s.scope(), made.id), { status: 'paid', requestKey: undefined });
  t.is((await s.create.execute({ scope: s.scope(), requestKey: { caller: 'api', key: 'key-1' } })).id, remade.id, 'the key now answers for the new settlement');
});

test('a settlement nets what the available balance lacks: the payments are covered, only what is there is paid out', async (t) => {
  const s = await setup();
  const payment = await s.releasedPayment('test', 5000);
  const other = await s.releasedPayment('test', 1000);
  // A lost dispute on the other payment: its hold leaves, and the fee takes available below the 5000 still waiting.
  const lost = aDispute(s.scope(), other.id, 'lost');
  await s.h.funds.disputeOpened(other, lost.id, s.h.clock.now());
  await s.h.storage.disputes.insert(lost);
  await s.h.funds.disputeRuled(other, lost, 'lost', { amount: 1500, currency: 'THB' }, s.h.clock.now());
  t.is(await s.balance('test'), 3500);

  const settlement = await s.create.execute({ scope: s.scope() });
  t.like(settlement, { amount: { amount: 3500, currency: 'THB' }, payments: 1 });
  t.is((await s.h.storage.intents.findById(s.scope(), payment.id))?.settlementId, settlement.id);
  t.is(await s.balance('test'), 0);
});

test('an available balance of zero or less pays nothing: 409 insufficient_available_balance, nothing written', async (t) => {
  const s = await setup();
  const payment = await s.releasedPayment('test', 1000);
  await s.h.storage.ledger.post(disputeLostFeeOnly(s.scope(), 1500));
  t.is(await s.balance('test'), -500);

  const error = await refusal(t, () => s.create.execute({ scope: s.scope() }));
  t.is(error.code, 'insufficient_available_balance');
  t.deepEqual((await s.h.storage.settlements.list(s.scope(), { limit: 10 })).data, []);
  t.is((await s.h.storage.intents.findById(s.scope(), payment.id))?.settlementId, undefined);
  t.is(await s.balance('test'), -500);
});

test('payments under an open or lost dispute are left out; a won one is settled', async (t) => {
  const s = await setup();
  const open = await s.releasedPayment('test', 1000);
  const lost = await s.releasedPayment('test', 2000);
  const won = await s.releasedPayment('test', 4000);
  const plain = await s.releasedPayment('test', 8000);
  // Each dispute moves the money as its ruling does: the open one holds, the lost one took it, the won one gave it back.
  const now = s.h.clock.now();
  for (const [intent, status] of [
    [open, 'under_review'],
    [lost, 'lost'],
    [won, 'won'],
  ] as const) {
    const dispute = aDispute(s.scope(), intent.id, status);
    await s.h.funds.disputeOpened(intent, dispute.id, now);
    await s.h.storage.disputes.insert({ ...dispute, status: 'opened' });
    if (status !== 'under_review') await s.h.funds.disputeRuled(intent, dispute, status, { amount: 0, currency: 'THB' }, now);
    await s.h.storage.disputes.update(dispute);
  }
  const settlement = await s.create.execute({ scope: s.scope() });
  t.is(settlement.amount.amount, 12_000);
  t.is(settlement.payments, 2);
  t.is((await s.h.storage.intents.findById(s.scope(), plain.id))?.settlementId, settlement.id);
  t.is((await s.h.storage.intents.findById(s.scope(), open.id))?.settlementId, undefined);
});

test('a failed payout returns the funds to available and frees the payments for the next settlement', async (t) => {
  const s = await setup();
  const payment = await s.releasedPayment('test', 5000);
  s.gateway.next = { status: 'failed', failureReason: 'account_closed' };
  const failed = await s.create.execute({ scope: s.scope() });
  t.is(failed.status, 'failed');
  t.is(failed.failureReason, 'account_closed');
  t.is(await s.balance('test'), 5000);
  t.is(await s.inTransit('test'), 0);
  t.is((await s.h.storage.intents.findById(s.scope(), payment.id))?.settlementId, undefined);
  t.deepEqual(
    (await s.settlementEvents()).map((event) => event.type),
    ['settlement.pending', 'settlement.processing', 'settlement.failed'],
  );

  s.gateway.next = { status: 'paid' };
  const retried = await s.create.execute({ scope: s.scope() });
  t.is(retried.status, 'paid');
  t.is(retried.amount.amount, 5000);
  t.is(await s.balance('test'), 0);
  // Paying the failed one again changes nothing.
  t.like(await s.pay.execute({ scope: s.scope(), id: failed.id }), { kind: 'finished', settlement: { status: 'failed' } });
});

test('a payout still processing is asked about by reference on a later pass, and paid once', async (t) => {
  const s = await setup();
  await s.releasedPayment('test', 5000);
  s.gateway.next = { status: 'processing' };
  const settlement = await s.create.execute({ scope: s.scope() });
  t.is(settlement.status, 'processing');
  t.is(await s.inTransit('test'), 5000);

  s.gateway.queryAnswer = { status: 'processing' };
  t.is((await s.payPass()).advanced, 0);
  s.gateway.queryAnswer = { status: 'paid' };
  t.is((await s.payPass()).advanced, 1);
  t.deepEqual(s.gateway.queried, [settlement.id, settlement.id]);
  t.is(s.gateway.sent.length, 1, 'sent once; asked after');
  t.is((await s.h.storage.settlements.findById(s.scope(), settlement.id))?.status, 'paid');
  t.is(await s.inTransit('test'), 0);
  t.is((await s.payPass()).advanced, 0);
  t.deepEqual(
    (await s.settlementEvents()).map((event) => event.type),
    ['settlement.pending', 'settlement.processing', 'settlement.paid'],
  );
});

test('live mode waits with no destination, an unverified one, or within the hold; then pays once', async (t) => {
  const s = await setup('daily');
  await s.releasedPayment('live', 9000, new Date('2026-08-31T12:00:00Z'));
  s.h.clock.set(new Date('2026-09-01T00:05:00Z'));
  const made = await s.scheduledPass();
  t.is(made.created.length, 1);
  const [settlement] = made.created;
  if (!settlement) return;
  t.is(settlement.status, 'pending');
  t.is(settlement.mode, 'live');
  t.is(await s.balance('live'), 0, 'the amount left available when the batch was made');

  const waits = async () => (await s.payPass()).waiting.map((w) => w.reason);
  t.deepEqual(await waits(), ['no_default_destination']);
  const bank = await s.destination('live');
  t.deepEqual(await waits(), ['no_default_destination'], 'unverified destinations never become the default');

  t.deepEqual(await s.verifyPass(), { verified: 1, rejected: 0, asked: 1 });
  t.deepEqual(s.gateway.verified, [{ accountHolder: 'Siam Coffee Co.', bankCode: 'KBANK', accountNumber: '1234567890' }]);
  const stored = await s.h.storage.payoutDestinations.findById(s.scope('live'), bank.id);
  t.like(stored, { status: 'verified', isDefault: true });
  t.deepEqual(await waits(), ['destination_on_hold']);
  t.is(s.gateway.sent.length, 0);
  t.deepEqual(
    (await s.settlementEvents('live')).map((event) => event.type),
    ['settlement.pending'],
    'nothing happens while it waits',
  );

  s.h.clock.advance(PAYOUT_HOLD_MS);
  const pass = await s.payPass();
  t.deepEqual(pass, { advanced: 1, waiting: [] });
  t.is(s.gateway.sent.length, 1);
  t.like(s.gateway.sent[0], { mode: 'live', reference: settlement.id, destination: { accountNumber: '1234567890', bankCode: 'KBANK' } });
  t.like(await s.h.storage.settlements.findById(s.scope('live'), settlement.id), { status: 'paid', destinationId: bank.id });
  t.is((await s.payPass()).advanced, 0);
  t.is(s.gateway.sent.length, 1, 'paid once');
});

test('live mode without a payout provider waits, with its reason', async (t) => {
  const s = await setup('daily');
  s.gateway.modes = ['test'];
  await s.releasedPayment('live', 9000, new Date('2026-08-31T12:00:00Z'));
  s.h.clock.set(new Date('2026-09-01T00:05:00Z'));
  await s.scheduledPass();
  t.deepEqual(
    (await s.payPass()).waiting.map((w) => w.reason),
    ['no_payout_gateway'],
  );
  // Without a provider no bank account can be verified: none is asked about, none changes.
  const bank = await s.destination('live');
  t.like(await s.verifyPass(), { asked: 0 });
  t.deepEqual(s.gateway.verified, []);
  t.like(await s.h.storage.payoutDestinations.findById(s.scope('live'), bank.id), { status: 'unverified' });
});

test('a rejected bank account is not asked about again and never becomes the default', async (t) => {
  const s = await setup('daily');
  const bank = await s.destination('live');
  s.gateway.verdict = { status: 'rejected', reason: 'account_not_found' };
  t.like(await s.verifyPass(), { verified: 0, rejected: 1 });
  t.like(await s.h.storage.payoutDestinations.findById(s.scope('live'), bank.id), { status: 'rejected', isDefault: false });
  t.like(await s.verifyPass(), { verified: 0, rejected: 0, asked: 0 });
  t.is(s.gateway.verified.length, 1);
});

test('test mode pays the default simulated destination when there is one', async (t) => {
  const s = await setup();
  const simulated = await s.destination('test', { isDefault: true });
  await s.releasedPayment('test', 700);
  const settlement = await s.create.execute({ scope: s.scope() });
  t.like(settlement, { status: 'paid', destinationId: simulated.id });
  t.like(s.gateway.sent[0], { destination: { bankCode: 'KBANK', accountNumber: '1234567890' } });
});

test('scheduled periods: daily, weekly (ISO, Monday 00:00 UTC) and monthly, [start, end)', (t) => {
  const at = (iso: string) => new Date(iso);
  t.deepEqual(lastCompletePeriod('daily', at('2026-09-01T00:00:00Z')), { start: at('2026-08-31T00:00:00Z'), end: at('2026-09-01T00:00:00Z') });
  t.deepEqual(lastCompletePeriod('daily', at('2026-09-01T23:59:59.999Z')), { start: at('2026-08-31T00:00:00Z'), end: at('2026-09-01T00:00:00Z') });
  // 2026-09-07 is a Monday.
  t.deepEqual(lastCompletePeriod('weekly', at('2026-09-07T00:00:00Z')), { start: at('2026-08-31T00:00:00Z'), end: at('2026-09-07T00:00:00Z') });
  t.deepEqual(lastCompletePeriod('weekly', at('2026-09-06T23:59:59Z')), { start: at('2026-08-24T00:00:00Z'), end: at('2026-08-31T00:00:00Z') });
  t.deepEqual(lastCompletePeriod('weekly', at('2026-09-09T12:00:00Z')), { start: at('2026-08-31T00:00:00Z'), end: at('2026-09-07T00:00:00Z') });
  t.deepEqual(lastCompletePeriod('monthly', at('2026-09-01T00:00:00Z')), { start: at('2026-08-01T00:00:00Z'), end: at('2026-09-01T00:00:00Z') });
  t.deepEqual(lastCompletePeriod('monthly', at('2026-03-31T23:00:00Z')), { start: at('2026-02-01T00:00:00Z'), end: at('2026-03-01T00:00:00Z') });
  t.deepEqual(lastCompletePeriod('monthly', at('2027-01-15T00:00:00Z')), { start: at('2026-12-01T00:00:00Z'), end: at('2027-01-01T00:00:00Z') });
  t.is(lastCompletePeriod('manual', at('2026-09-01T00:00:00Z')), undefined);
});

test('a scheduled batch covers payments released before its period end, once per period, and is paid by the payout job', async (t) => {
  const s = await setup('weekly');
  const inPeriod = await s.releasedPayment('test', 3000, new Date('2026-09-03T10:00:00Z'));
  const earlier = await s.releasedPayment('test', 1000, new Date('2026-08-20T10:00:00Z'));
  const atEnd = await s.releasedPayment('test', 500, new Date('2026-09-07T00:00:00Z'));
  s.h.clock.set(new Date('2026-09-07T00:00:30Z'));

  const made = await s.scheduledPass();
  t.is(made.created.length, 1, 'one batch: test mode has payments, live has none');
  const [batch] = made.created;
  t.like(batch, {
    status: 'pending',
    trigger: 'scheduled',
    payments: 2,
    amount: { amount: 4000, currency: 'THB' },
    periodStart: new Date('2026-08-31T00:00:00Z'),
    periodEnd: new Date('2026-09-07T00:00:00Z'),
  });
  t.is((await s.h.storage.intents.findById(s.scope(), atEnd.id))?.settlementId, undefined, 'released at the end: the next period');
  t.is((await s.h.storage.intents.findById(s.scope(), earlier.id))?.settlementId, batch?.id);
  t.is((await s.h.storage.intents.findById(s.scope(), inPeriod.id))?.settlementId, batch?.id);

  s.h.clock.advance(60_000);
  t.is((await s.scheduledPass()).created.length, 0, 'the period has its batch');

  t.is((await s.payPass()).advanced, 1);
  t.is((await s.h.storage.settlements.findById(s.scope(), batch?.id ?? ''))?.status, 'paid');
  const listed = await new ListSettlements({ settlements: s.h.storage.settlements }).execute({ scope: s.scope(), page: { limit: 10 } });
  t.deepEqual(
    listed.data.map((st) => st.id),
    [batch?.id],
  );
});

test('a scheduled batch that would pay nothing is skipped; a payment released after its period does not make it, the next period nets the shortfall', async (t) => {
  const s = await setup('daily');
  await s.releasedPayment('test', 3000, new Date('2026-08-31T10:00:00Z'));
  // Only the fee of a lost dispute, larger than what waits: available drops to −500.
  await s.h.storage.ledger.post(disputeLostFeeOnly(s.scope(), 3500));
  s.h.clock.set(new Date('2026-09-01T00:01:00Z'));
  const skipped = await s.scheduledPass();
  t.is(skipped.created.length, 0);
  t.is(skipped.uncovered.length, 1);
  t.like(skipped.uncovered[0], { scope: s.scope(), period: { end: new Date('2026-09-01T00:00:00Z') } });

  // A payment released after the period brings available above zero, but its money is the next
  // period's: the batch of this one still pays nothing and is skipped again.
  await s.releasedPayment('test', 2000, new Date('2026-09-01T00:00:30Z'));
  t.is(await s.balance('test'), 1500);
  const still = await s.scheduledPass();
  t.is(still.created.length, 0);
  t.is(still.uncovered.length, 1);

  // The next period's batch covers both payments and the fee: 3000 + 2000 − 3500.
  s.h.clock.set(new Date('2026-09-02T00:01:00Z'));
  const made = await s.scheduledPass();
  t.is(made.created.length, 1);
  t.like(made.created[0], { amount: { amount: 1500 }, payments: 2 });
  t.is(await s.balance('test'), 0);
});

/** A lost-dispute posting whose hold is already gone: only the fee, debited from available. */
function disputeLostFeeOnly(scope: AccountScope, fee = 1500) {
  return {
    cause: 'dispute_lost:dp_feeonly',
    causeType: 'dispute_lost' as const,
    causeId: 'dp_feeonly',
    merchantId: scope.merchantId,
    mode: scope.mode,
    created: new Date('2026-09-01T00:00:00Z'),
    entries: [
      { account: merchantAccount(scope, 'available', 'THB'), amount: -fee, currency: 'THB' },
      { account: platformAccount(scope.mode, 'fee_revenue', 'THB'), amount: fee, currency: 'THB' },
    ],
  };
}

function aDispute(scope: AccountScope, paymentIntentId: string, status: Dispute['status']): Dispute {
  const now = new Date('2026-09-01T00:00:00Z');
  const id = `dp_${randomBytes(8).toString('hex')}`;
  return {
    id,
    merchantId: scope.merchantId,
    mode: scope.mode,
    paymentIntentId,
    status,
    amount: 1000,
    currency: 'THB',
    evidence: {},
    channel: 'simulator',
    channelDisputeId: id,
    dueBy: now,
    openedAt: now,
    created: now,
    updated: now,
  };
}
