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

/** Which server a scenario's service side is addressed to. */
export type ServiceTarget = 'api' | 'no-io';

export interface Scenario {
  /** Short id: the baseline's template key and route. */
  readonly id: string;
  readonly name: string;
  readonly target: ServiceTarget;
  /** Each 2xx answer inserts one payment_intents row (checked after the run). */
  readonly insertsOneRowPer2xx: boolean;
  /** The service may run no INSERT/UPDATE/DELETE during this scenario's runs (checked). */
  readonly noWrites: boolean;
  /** The baseline replays the service's captured statements (false: no I/O on either side). */
  readonly replaysStatements: boolean;
  readonly service: autocannon.Request;
  readonly baseline: autocannon.Request;
  /**
   * The inputs (idempotency key, order id, intent id) a service request carries, by name; the
   * baseline takes the same names from its request. Used to build the statement template.
   */
  readonly inputsOf: (request: autocannon.Request) => Record<string, string>;
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

/** The inputs of a create request: its Idempotency-Key and its body's merchant_order_id. */
export function createInputs(request: autocannon.Request): Record<string, string> {
  const body = JSON.parse(request.body ?? '{}') as { merchant_order_id?: string };
  return { idempotencyKey: request.headers?.['idempotency-key'] ?? '', orderId: body.merchant_order_id ?? '' };
}

/** The intent id at the end of a GET path. */
export function pathIdInput(request: autocannon.Request): Record<string, string> {
  return { intentId: (request.path ?? '').split('?')[0]?.split('/').pop() ?? '' };
}

function create(context: ScenarioContext): Scenario {
  // Both sides send the same request (key, body, headers); only the path differs.
  const fresh = (request: autocannon.Request): autocannon.Request => ({
    ...request,
    headers: serviceHeaders(context.testKey, { ...JSON_TYPE, 'idempotency-key': uniqueToken('bench-key') }),
    body: createBody(uniqueToken('bench-order')),
  });
  return {
    id: 'create',
    name: 'create intent',
    target: 'api',
    insertsOneRowPer2xx: true,
    noWrites: false,
    replaysStatements: true,
    // setupRequest is called by autocannon before every request: a new key and order id each time.
    service: { method: 'POST', path: '/v1/payment_intents', setupRequest: fresh },
    baseline: { method: 'POST', path: BASELINE_PATHS.create, setupRequest: fresh },
    inputsOf: createInputs,
  };
}

function replay(context: ScenarioContext): Scenario {
  const headers = serviceHeaders(context.testKey, { ...JSON_TYPE, 'idempotency-key': context.replay.key });
  return {
    id: 'replay',
    name: 'idempotent replay',
    target: 'api',
    insertsOneRowPer2xx: false,
    noWrites: true,
    replaysStatements: true,
    service: { method: 'POST', path: '/v1/payment_intents', headers, body: context.replay.body },
    baseline: { method: 'POST', path: BASELINE_PATHS.replay, headers, body: context.replay.body },
    inputsOf: createInputs,
  };
}

function get(context: ScenarioContext): Scenario {
  const serviceId = rotating(context.intentIds);
  const baselineId = rotating(context.intentIds);
  const headers = serviceHeaders(context.testKey);
  return {
    id: 'get',
    name: 'get intent',
    target: 'api',
    insertsOneRowPer2xx: false,
    noWrites: true,
    replaysStatements: true,
    service: { method: 'GET', headers, setupRequest: (request) => ({ ...request, path: `/v1/payment_intents/${serviceId()}` }) },
    baseline: { method: 'GET', headers, setupRequest: (request) => ({ ...request, path: `${BASELINE_PATHS.intents}/${baselineId()}` }) },
    inputsOf: pathIdInput,
  };
}

function list(context: ScenarioContext): Scenario {
  const headers = serviceHeaders(context.testKey);
  return {
    id: 'list',
    name: 'list intents (limit 20)',
    target: 'api',
    insertsOneRowPer2xx: false,
    noWrites: true,
    replaysStatements: true,
    service: { method: 'GET', path: '/v1/payment_intents?limit=20', headers },
    baseline: { method: 'GET', path: `${BASELINE_PATHS.intents}?limit=20`, headers },
    inputsOf: () => ({}),
  };
}

/** Auth + validation + presenter on the real Hapi stack, no database (see service-main.ts). */
const FX_QUERY = '?from=THB&to=THB&amount=10000';

function noIo(context: ScenarioContext): Scenario {
  const headers = serviceHeaders(context.testKey);
  return {
    id: 'no-io',
    name: 'Hapi stack, no I/O (auth + validation)',
    target: 'no-io',
    insertsOneRowPer2xx: false,
    noWrites: false,
    replaysStatements: false,
    service: { method: 'GET', path: `/v1/fx/quotes${FX_QUERY}`, headers },
    baseline: { method: 'GET', path: `${BASELINE_PATHS.noIo}${FX_QUERY}`, headers },
    inputsOf: () => ({}),
  };
}

/** The scenarios, in the order they run (create first: the others read what it wrote). */
export function scenarios(context: ScenarioContext): Scenario[] {
  return [create(context), replay(context), get(context), list(context), noIo(context)];
}

/** The request autocannon would send next for `request` (its setupRequest applied). */
export function materialise(request: autocannon.Request): autocannon.Request {
  return request.setupRequest ? request.setupRequest({ ...request }, {}) : { ...request };
}
