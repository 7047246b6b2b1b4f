import { randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';
import { BASELINE_PATHS } from './baseline-server';

/** What the scenarios need from the set-up: the key, intents to read, the request to replay. */
export interface ScenarioContext {
  readonly testKey: string;
  /** Seeded intents; reads rotate over them. */
  readonly intentIds: readonly string[];
  /** The key and body of the one create the replay scenario repeats. */
  readonly replay: { readonly key: string; readonly body: string };
}

export interface Scenario {
  readonly name: string;
  /** Each 2xx answer inserts one payment_intents row (checked after the run). */
  readonly insertsOneRowPer2xx: boolean;
  readonly service: autocannon.Request;
  readonly baseline: autocannon.Request;
}

// Unique per bench process, so ids never collide with another run's rows in the same database.
const RUN_TAG = randomBytes(4).toString('hex');
let sequence = 0;

/** A fresh Idempotency-Key or merchant_order_id for one request. */
export function uniqueToken(prefix: string): string {
  sequence += 1;
  return `${prefix}-${RUN_TAG}-${sequence}`;
}

/** The create body the merchant's client would send (the test helpers' shape). */
export function createBody(merchantOrderId: string): string {
  return JSON.stringify({ amount: 10000, currency: 'THB', merchant_order_id: merchantOrderId });
}

const JSON_TYPE = { 'content-type': 'application/json' } as const;

function serviceHeaders(testKey: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${testKey}`, ...extra };
}

/** Cycles through the ids so reads are not all of one row. */
function rotating(ids: readonly string[]): () => string {
  if (ids.length === 0) throw new Error('The read scenarios need seeded intents');
  let next = 0;
  return () => ids[next++ % ids.length] as string;
}

function create(context: ScenarioContext): Scenario {
  return {
    name: 'create intent',
    insertsOneRowPer2xx: true,
    service: {
      method: 'POST',
      path: '/v1/payment_intents',
      // Called by autocannon before every request: a new key and order id each time.
      setupRequest: (request) => ({
        ...request,
        headers: serviceHeaders(context.testKey, { ...JSON_TYPE, 'idempotency-key': uniqueToken('bench-key') }),
        body: createBody(uniqueToken('bench-order')),
      }),
    },
    baseline: {
      method: 'POST',
      path: BASELINE_PATHS.create,
      setupRequest: (request) => ({ ...request, headers: { ...JSON_TYPE }, body: createBody(uniqueToken('base-order')) }),
    },
  };
}

function replay(context: ScenarioContext): Scenario {
  return {
    name: 'idempotent replay',
    insertsOneRowPer2xx: false,
    service: {
      method: 'POST',
      path: '/v1/payment_intents',
      headers: serviceHeaders(context.testKey, { ...JSON_TYPE, 'idempotency-key': context.replay.key }),
      body: context.replay.body,
    },
    baseline: { method: 'POST', path: BASELINE_PATHS.replay, headers: { ...JSON_TYPE }, body: context.replay.body },
  };
}

function get(context: ScenarioContext): Scenario {
  const serviceId = rotating(context.intentIds);
  const baselineId = rotating(context.intentIds);
  return {
    name: 'get intent',
    insertsOneRowPer2xx: false,
    service: {
      method: 'GET',
      headers: serviceHeaders(context.testKey),
      setupRequest: (request) => ({ ...request, path: `/v1/payment_intents/${serviceId()}` }),
    },
    baseline: { method: 'GET', setupRequest: (request) => ({ ...request, path: `${BASELINE_PATHS.intents}/${baselineId()}` }) },
  };
}

function list(context: ScenarioContext): Scenario {
  return {
    name: 'list intents (limit 20)',
    insertsOneRowPer2xx: false,
    service: { method: 'GET', path: '/v1/payment_intents?limit=20', headers: serviceHeaders(context.testKey) },
    baseline: { method: 'GET', path: `${BASELINE_PATHS.intents}?limit=20` },
  };
}

/** The four scenarios, in the order they run. */
export function scenarios(context: ScenarioContext): Scenario[] {
  return [create(context), replay(context), get(context), list(context)];
}
