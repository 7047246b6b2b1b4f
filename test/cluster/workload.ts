import { ConflictError, Payments, PaymentsError, type PaymentIntent } from '@payments/sdk';

/** mulberry32: a small seeded PRNG, so a failing run replays with CLUSTER_SEED. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FlowKind = 'pay_success' | 'pay_fail' | 'magic' | 'expire' | 'cancel' | 'dispute' | 'settle';
const KINDS: Array<[FlowKind, number]> = [
  ['pay_success', 30],
  ['pay_fail', 12],
  ['magic', 12],
  ['expire', 8],
  ['cancel', 8],
  ['dispute', 18],
  ['settle', 12],
];

/** What the client saw: every object it got back from a successful call, and what it expects of it at the end. */
export interface WorkloadRecord {
  readonly intents: Map<string, { readonly flow: FlowKind; readonly orderId: string; readonly finals: readonly string[]; settled: boolean }>;
  readonly disputes: Map<string, { readonly intent: string; ruled: boolean }>;
  readonly settlements: Set<string>;
  /** Unexpected errors (each flow stops at its first one). */
  readonly errors: string[];
  /** Idempotency violations the workload saw directly (a replay that answered another object). */
  readonly violations: string[];
  /** Writes a read through another process did not see right after they were answered (with `readBackUrls`). */
  readonly staleReads: string[];
  operations: number;
}

export interface WorkloadOptions {
  readonly seed: number;
  readonly flows: number;
  readonly concurrency: number;
  readonly baseUrl: string;
  readonly apiKey: string;
  /**
   * Each API process's own address: every created intent and placed attempt is read back at once
   * through each of them (so through processes, and database nodes, other than the one that
   * wrote it), and must be there. Default: no read-back.
   */
  readonly readBackUrls?: readonly string[];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The workload's client: retries generously, since the faults kill processes under it (a killed request's key is leased 60 s). */
export function workloadClient(apiKey: string, baseUrl: string): Payments {
  return new Payments(apiKey, { baseUrl, maxNetworkRetries: 90, timeout: 20_000, backoff: { initialDelayMs: 200, maxDelayMs: 3000 } });
}

/**
 * Runs `flows` seeded flows, `concurrency` at a time, through the SDK. The flow kinds and their
 * parameters come from the seed (timing does not: which process answers depends on the clock).
 */
export async function runWorkload(options: WorkloadOptions): Promise<WorkloadRecord> {
  const random = seededRandom(options.seed);
  const record: WorkloadRecord = { intents: new Map(), disputes: new Map(), settlements: new Set(), errors: [], violations: [], staleReads: [], operations: 0 };
  const payments = workloadClient(options.apiKey, options.baseUrl);
  const readers = (options.readBackUrls ?? []).map((url) => ({ url, client: workloadClient(options.apiKey, url) }));
  /** Reads `what` back through every reader; one that does not see it (or sees less) is a stale read. */
  const readBack = async (what: string, read: (client: Payments) => Promise<boolean>): Promise<void> => {
    for (const reader of readers) {
      const seen = await read(reader.client).catch((error: Error) => {
        record.staleReads.push(`${what} read through ${reader.url}: ${error.message}`);
        return true;
      });
      if (!seen) record.staleReads.push(`${what} not seen through ${reader.url} right after it was answered`);
    }
  };
  const plan = Array.from({ length: options.flows }, (_, index) => {
    const total = KINDS.reduce((sum, [, weight]) => sum + weight, 0);
    let pick = random() * total;
    const kind = (KINDS.find(([, weight]) => (pick -= weight) < 0) ?? KINDS[0])[0];
    return { index, kind, r: [random(), random(), random(), random()] as const };
  });

  const op = async <T>(call: () => Promise<T>): Promise<T> => {
    record.operations += 1;
    return call();
  };
  const key = (flow: number, step: string): string => `cluster-${options.seed}-${flow}-${step}`;
  const amountOf = (r: number): number => (Math.floor(r * 900) + 10) * 100 + 50; // never a magic ending
  const waitFor = async (id: string, statuses: readonly string[], timeoutMs = 30_000): Promise<PaymentIntent> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // Polls are not counted as operations.
      const intent = await payments.paymentIntents.retrieve(id);
      if (statuses.includes(intent.status) || Date.now() > deadline) return intent;
      await sleep(200);
    }
  };
  const createIntent = async (flow: number, kind: FlowKind, amount: number, finals: readonly string[], replay: boolean): Promise<PaymentIntent> => {
    const orderId = `order-${options.seed}-${flow}`;
    const params = { amount, currency: 'THB', merchant_order_id: orderId };
    const intent = await op(() => payments.paymentIntents.create(params, { idempotencyKey: key(flow, 'create') }));
    record.intents.set(intent.id, { flow: kind, orderId, finals, settled: false });
    await readBack(`intent ${intent.id}`, async (client) => (await client.paymentIntents.retrieve(intent.id)).amount === amount);
    if (replay) {
      const again = await op(() => payments.paymentIntents.create(params, { idempotencyKey: key(flow, 'create') }));
      if (again.id !== intent.id) record.violations.push(`create replay of ${key(flow, 'create')} answered ${again.id}, first ${intent.id}`);
    }
    return intent;
  };
  const attempt = async (flow: number, id: string, replay: boolean): Promise<void> => {
    const first = await op(() => payments.paymentIntents.attempts.create(id, { payment_method: 'promptpay' }, { idempotencyKey: key(flow, 'attempt') }));
    await readBack(`attempt ${first.id} of ${id}`, async (client) => (await client.paymentIntents.attempts.list(id)).data.some((a) => a.id === first.id));
    if (replay) {
      const again = await op(() => payments.paymentIntents.attempts.create(id, { payment_method: 'promptpay' }, { idempotencyKey: key(flow, 'attempt') }));
      if (again.id !== first.id) record.violations.push(`attempt replay of ${key(flow, 'attempt')} answered ${again.id}, first ${first.id}`);
    }
  };

  const runFlow = async ({ index, kind, r }: (typeof plan)[number]): Promise<void> => {
    const replay = r[3] < 0.4;
    switch (kind) {
      case 'pay_success': {
        const intent = await createIntent(index, kind, amountOf(r[0]), ['succeeded', 'channel_settled'], replay);
        await attempt(index, intent.id, replay);
        await op(() => payments.testHelpers.paymentIntents.simulate(intent.id, { outcome: 'succeeded' }, { idempotencyKey: key(index, 'simulate') }));
        if (r[1] < 0.7) {
          // Release the funds so a settlement can take them.
          // A killed worker holds the simulator job's lock for up to 60 s: wait it out.
          const settled = await waitFor(intent.id, ['channel_settled'], 75_000);
          if (settled.status === 'channel_settled')
            await op(() => payments.testHelpers.paymentIntents.advance(intent.id, { clock: 'release' }, { idempotencyKey: key(index, 'release') }));
        }
        return;
      }
      case 'pay_fail': {
        const codes = ['insufficient_funds', 'payer_cancelled', 'risk_blocked'];
        const intent = await createIntent(index, kind, amountOf(r[0]), ['failed'], replay);
        await attempt(index, intent.id, replay);
        await op(() =>
          payments.testHelpers.paymentIntents.simulate(
            intent.id,
            { outcome: 'failed', failure_code: codes[Math.floor(r[1] * codes.length)] },
            { idempotencyKey: key(index, 'simulate') },
          ),
        );
        return;
      }
      case 'magic': {
        // The worker reports these on its next tick: no simulate call, the callback still flows.
        const paid = r[1] < 0.5;
        const intent = await createIntent(
          index,
          kind,
          (Math.floor(r[0] * 900) + 10) * 100 + (paid ? 1 : 2),
          paid ? ['succeeded', 'channel_settled'] : ['failed'],
          replay,
        );
        await attempt(index, intent.id, replay);
        return;
      }
      case 'expire': {
        const intent = await createIntent(index, kind, amountOf(r[0]), ['expired'], replay);
        if (r[1] < 0.6) await attempt(index, intent.id, replay);
        await op(() => payments.testHelpers.paymentIntents.advance(intent.id, { clock: 'expiry' }, { idempotencyKey: key(index, 'expiry') }));
        return;
      }
      case 'cancel': {
        const intent = await createIntent(index, kind, amountOf(r[0]), ['canceled'], replay);
        if (r[1] < 0.5) await attempt(index, intent.id, replay);
        await op(() => payments.paymentIntents.cancel(intent.id, { idempotencyKey: key(index, 'cancel') }));
        return;
      }
      case 'dispute': {
        const intent = await createIntent(index, kind, amountOf(r[0]), ['succeeded', 'channel_settled'], replay);
        await attempt(index, intent.id, replay);
        await op(() => payments.testHelpers.paymentIntents.simulate(intent.id, { outcome: 'succeeded' }, { idempotencyKey: key(index, 'simulate') }));
        await op(() => payments.testHelpers.paymentIntents.simulate(intent.id, { outcome: 'dispute_opened' }, { idempotencyKey: key(index, 'dispute-open') }));
        let disputeId: string | undefined;
        for (let i = 0; i < 50 && !disputeId; i += 1) {
          const page = await payments.disputes.list({ limit: 100 });
          disputeId = page.data.find((d) => d.payment_intent === intent.id)?.id;
          if (!disputeId) await sleep(200);
        }
        if (!disputeId) throw new Error(`no dispute listed for ${intent.id} after dispute_opened`);
        const entry = { intent: intent.id, ruled: false };
        record.disputes.set(disputeId, entry);
        if (r[1] < 0.6)
          await op(() =>
            payments.disputes.submitEvidence(
              disputeId,
              { evidence: { receipt: `https://shop.example.com/r/${index}` } },
              { idempotencyKey: key(index, 'evidence') },
            ),
          );
        if (r[2] < 0.8) {
          try {
            await op(() =>
              payments.testHelpers.paymentIntents.simulate(
                intent.id,
                { outcome: r[2] < 0.4 ? 'dispute_won' : 'dispute_lost' },
                { idempotencyKey: key(index, 'ruling') },
              ),
            );
          } catch (error) {
            // Evidence may have had the simulator rule already.
            if (!(error instanceof ConflictError)) throw error;
          }
          entry.ruled = true;
        }
        return;
      }
      case 'settle': {
        try {
          const settlement = await op(() => payments.settlements.create({ idempotencyKey: key(index, 'settle') }));
          record.settlements.add(settlement.id);
          const again = await op(() => payments.settlements.create({ idempotencyKey: key(index, 'settle') }));
          if (again.id !== settlement.id) record.violations.push(`settlement replay of ${key(index, 'settle')} answered ${again.id}, first ${settlement.id}`);
        } catch (error) {
          if (!(error instanceof ConflictError && ['nothing_to_settle', 'insufficient_available_balance'].includes(error.code ?? ''))) throw error;
        }
        return;
      }
    }
  };

  let cursor = 0;
  const lanes = Array.from({ length: options.concurrency }, async () => {
    while (cursor < plan.length) {
      const flow = plan[cursor];
      cursor += 1;
      try {
        await runFlow(flow);
      } catch (error) {
        const api = error instanceof PaymentsError ? error : undefined;
        const [name, message] = error instanceof Error ? [error.name, error.message] : ['Error', String(error)];
        record.errors.push(`flow ${flow.index} (${flow.kind}): ${name} ${api?.statusCode ?? ''} ${api?.code ?? ''} ${message} ${api?.requestId ?? ''}`);
      }
    }
  });
  await Promise.all(lanes);
  return record;
}
