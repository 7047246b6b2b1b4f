import type { Event, PaymentIntent } from '@payments/sdk';
import type { ExecutionContext } from 'ava';
import { textAt } from '../fixtures';
import type { Cluster } from './cluster';
import { workloadClient, type WorkloadRecord } from './workload';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface AfterChecks {
  /** One line per broken promise; empty when everything held. */
  readonly problems: string[];
  readonly events: number;
  readonly deliveries: number;
  readonly intents: number;
}

/**
 * Waits for the cluster to come to rest, then checks what the service promised: every intent
 * reached a final status (leftovers pending past their timeout are advanced to expiry, and the
 * worker must resolve them), `ledger verify` passes, every event was delivered at least once with
 * its id, no idempotency key had two effects, and everything the client saw is still readable.
 */
export async function afterChecks(cluster: Cluster, record: WorkloadRecord, quiesceMs = 180_000): Promise<AfterChecks> {
  const problems: string[] = [...record.violations.map((v) => `idempotency: ${v}`), ...record.staleReads.map((s) => `read-after-write: ${s}`)];
  const payments = workloadClient(cluster.testApiKey, cluster.proxy.url);
  const deadline = Date.now() + quiesceMs;
  // A killed worker's job locks run out after 60 s: only then are broken-off flows moved to their expiry.
  const advanceAt = Date.now() + Math.min(70_000, quiesceMs / 2);

  // 1. Quiescence: every intent the client created reaches one of its expected statuses.
  const pendingStatuses = ['created', 'requires_payment', 'processing'];
  let last = new Map<string, PaymentIntent>();
  let advanced = false;
  const advancedIds = new Set<string>();
  for (;;) {
    last = new Map((await payments.paymentIntents.list({ limit: 100 }).autoPagingToArray({ limit: 10_000 })).map((pi) => [pi.id, pi]));
    const waiting = [...record.intents].filter(
      ([id, expected]) => !expected.finals.includes(last.get(id)?.status ?? '') && !(advancedIds.has(id) && last.get(id)?.status === 'expired'),
    );
    const stuck = [...last.values()].filter((pi) => pendingStatuses.includes(pi.status));
    if (waiting.length === 0 && stuck.length === 0) {
      for (const [id, expected] of record.intents) {
        // The simulator keeps every report until the service takes it (an outbox with retries),
        // so an intent that only its advanced expiry resolved is a lost report: a broken promise.
        if (advancedIds.has(id) && last.get(id)?.status === 'expired' && !expected.finals.includes('expired'))
          problems.push(
            `intent ${id} (${expected.flow}) stayed pending until its expiry was advanced (expected ${expected.finals.join('|')}): a channel report was lost`,
          );
      }
      break;
    }
    if (Date.now() > deadline) {
      for (const [id, expected] of waiting)
        problems.push(`intent ${id} (${expected.flow}) is ${last.get(id)?.status ?? 'missing'}, expected ${expected.finals.join('|')}`);
      for (const pi of stuck) if (!record.intents.has(pi.id)) problems.push(`intent ${pi.id} the client never saw is stuck in ${pi.status}`);
      break;
    }
    if (!advanced && Date.now() > advanceAt) {
      // An intent whose flow broke off under a fault may hold a pending attempt: its timeout is moved to now, and the worker must resolve it.
      advanced = true;
      for (const pi of stuck) {
        advancedIds.add(pi.id);
        await payments.testHelpers.paymentIntents.advance(pi.id, { clock: 'expiry' }).catch(() => undefined);
      }
    }
    await sleep(500);
  }

  // 2. No idempotency key had two effects: one intent per order id, every listed settlement was answered to the client.
  const byOrder = new Map<string, number>();
  for (const pi of last.values()) byOrder.set(pi.merchant_order_id, (byOrder.get(pi.merchant_order_id) ?? 0) + 1);
  for (const [order, count] of byOrder) if (count > 1) problems.push(`idempotency: ${count} intents for ${order}`);
  for (const [id, expected] of record.intents) {
    const attempts = (await payments.paymentIntents.attempts.list(id)).data;
    if (attempts.length > 1) problems.push(`idempotency: intent ${id} (${expected.flow}) has ${attempts.length} attempts, the client placed one`);
  }
  const settlements = await payments.settlements.list({ limit: 100 }).autoPagingToArray({ limit: 10_000 });
  for (const settlement of settlements)
    if (!record.settlements.has(settlement.id)) problems.push(`idempotency: settlement ${settlement.id} was never answered to the client`);

  // 3. Everything the client saw succeed is still readable.
  for (const id of record.intents.keys()) await payments.paymentIntents.retrieve(id).catch((e: Error) => problems.push(`readable: intent ${id}: ${e.message}`));
  for (const id of record.disputes.keys()) await payments.disputes.retrieve(id).catch((e: Error) => problems.push(`readable: dispute ${id}: ${e.message}`));
  for (const id of record.settlements) await payments.settlements.retrieve(id).catch((e: Error) => problems.push(`readable: settlement ${id}: ${e.message}`));
  for (const [id, dispute] of record.disputes) {
    const read = await payments.disputes.retrieve(id).catch(() => undefined);
    if (read && dispute.ruled && !['won', 'lost'].includes(read.status)) problems.push(`dispute ${id} was ruled but is ${read.status}`);
  }

  // 4. Every committed event reaches the receiver at least once, with the same id and body id.
  let events: Event[] = [];
  const eventIds = (): Set<string> => new Set(cluster.receiver.requests.map((request) => textAt(JSON.parse(request.body), 'id')));
  const deliveryDeadline = Date.now() + 90_000;
  for (;;) {
    events = await payments.events.list({ limit: 100 }).autoPagingToArray({ limit: 10_000 });
    const delivered = eventIds();
    const missing = events.filter((event) => !delivered.has(event.id));
    if (missing.length === 0) break;
    if (Date.now() > deliveryDeadline) {
      problems.push(
        `webhooks: ${missing.length} of ${events.length} events never delivered, e.g. ${missing
          .slice(0, 5)
          .map((e) => `${e.id} ${e.type}`)
          .join(', ')}`,
      );
      break;
    }
    await sleep(500);
  }
  const listed = new Map(events.map((event) => [event.id, event]));
  for (const request of cluster.receiver.requests) {
    const body: unknown = JSON.parse(request.body);
    const id = textAt(body, 'id');
    const type = textAt(body, 'type');
    const event = listed.get(id);
    if (!event) problems.push(`webhooks: delivered ${id} is not a listed event`);
    else if (event.type !== type) problems.push(`webhooks: ${id} delivered as ${type}, listed as ${event.type}`);
  }

  // 5. The ledger balances.
  const verify = await cluster.verifyLedger();
  if (verify.code !== 0) problems.push(`ledger verify exited ${verify.code}: ${verify.stdout}${verify.stderr}`);

  return { problems, events: events.length, deliveries: cluster.receiver.requests.length, intents: last.size };
}

/** Runs the after-checks, logs their figures, and asserts what every cluster test promises: no client error, no broken promise, work done. */
export async function assertAfterChecks(t: ExecutionContext, cluster: Cluster, record: WorkloadRecord, started: number, replay: string): Promise<void> {
  const checksStarted = Date.now();
  const checks = await afterChecks(cluster, record);
  t.log(
    `after-checks: ${checks.intents} intents, ${checks.events} events, ${checks.deliveries} deliveries in ${Date.now() - checksStarted} ms; total ${Date.now() - started} ms`,
  );
  t.deepEqual(record.errors, [], `the client saw errors (${replay})`);
  t.deepEqual(checks.problems, [], `broken promises (${replay})`);
  t.true(record.intents.size > 0 && checks.events > 0, `the workload did something (${replay})`);
}
