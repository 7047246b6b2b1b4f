import { randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';
import { REPLAY_PATH } from './floor-server';

/** What the scenarios need from the set-up: each side's key and intents, the request to replay. */
export interface ScenarioContext {
  readonly serviceKey: string;
  readonly floorKey: string;
  /** Intents seeded on each side; reads rotate over each side's own. */
  readonly serviceIntentIds: readonly string[];
  readonly floorIntentIds: readonly string[];
  /** The key and body of the one create the replay scenario repeats (made on both sides). */
  readonly replay: { readonly key: string; readonly body: string };
  /** Whether create, get and list also run the ladder's servers (LADDER) as further floors. */
  readonly ladder: boolean;
}

/** The ladder's servers between the floor and the service, in order (see LADDER). */
export type LadderTarget = 'hapi-driver' | 'hapi-knex' | 'hapi-knex-uow';

/**
 * Which server a side is addressed to: the service's API, the service process's no-I/O server,
 * the node:http floor, the floor process's bare Hapi server, or one of the ladder's.
 */
export type Target = 'service' | 'no-io' | 'floor' | 'hapi' | LadderTarget;

/**
 * The rungs from the floor up to the service, each the one before plus one layer, all on the
 * floor's database, schema and key with the floor's statements: the floor's routes on bare Hapi
 * over the floor's driver store; the same over knex (the service's createKnex); the same in a
 * process of its own through the service's KnexContext, whose unit of work hands create's
 * transaction to the work.
 */
export const LADDER: ReadonlyArray<{ readonly target: LadderTarget; readonly label: string }> = [
  { target: 'hapi-driver', label: 'hapi + driver' },
  { target: 'hapi-knex', label: 'hapi + knex' },
  { target: 'hapi-knex-uow', label: 'hapi + knex + unit of work' },
];

/** The ladder's sides of a scenario: its floor side's request on each rung's server. */
function ladderSides(context: ScenarioContext, side: (label: string, target: Target) => Side): Side[] {
  return context.ladder ? LADDER.map((rung) => side(rung.label, rung.target)) : [];
}

export interface Side {
  readonly label: string;
  readonly target: Target;
  readonly request: autocannon.Request;
}

export interface Scenario {
  readonly id: string;
  readonly name: string;
  /** Each 2xx answer inserts one payment_intents row (checked after each run, on each side). */
  readonly insertsOneRowPer2xx: boolean;
  /** No side may run an INSERT/UPDATE/DELETE during this scenario's runs (checked). */
  readonly noWrites: boolean;
  /** The service's statements for one request are captured for the report (false: no I/O). */
  readonly capturesStatements: boolean;
  readonly service: Side;
  /** What the service is measured against; the first is the goal's reference. */
  readonly floors: readonly Side[];
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
const INTENTS = '/v1/payment_intents';

function headers(key: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${key}`, ...extra };
}

/** Cycles through the ids so reads are not all of one row. */
function rotating(ids: readonly string[]): () => string {
  if (ids.length === 0) throw new Error('The read scenarios need seeded intents');
  let next = 0;
  return () => ids[next++ % ids.length];
}

function create(context: ScenarioContext): Scenario {
  // setupRequest is called by autocannon before every request: a new key and order id each time.
  const side = (label: string, target: Target, key: string): Side => ({
    label,
    target,
    request: {
      method: 'POST',
      path: INTENTS,
      setupRequest: (request) => ({
        ...request,
        headers: headers(key, { ...JSON_TYPE, 'idempotency-key': uniqueToken('bench-key') }),
        body: createBody(uniqueToken('bench-order')),
      }),
    },
  });
  return {
    id: 'create',
    name: 'create intent',
    insertsOneRowPer2xx: true,
    noWrites: false,
    capturesStatements: true,
    service: side('service', 'service', context.serviceKey),
    floors: [side('floor', 'floor', context.floorKey), ...ladderSides(context, (label, target) => side(label, target, context.floorKey))],
  };
}

function replay(context: ScenarioContext): Scenario {
  const side = (label: string, target: Target, key: string, path: string): Side => ({
    label,
    target,
    request: { method: 'POST', path, headers: headers(key, { ...JSON_TYPE, 'idempotency-key': context.replay.key }), body: context.replay.body },
  });
  return {
    id: 'replay',
    name: 'idempotent replay',
    insertsOneRowPer2xx: false,
    noWrites: true,
    capturesStatements: true,
    service: side('service', 'service', context.serviceKey, INTENTS),
    floors: [side('replay floor', 'floor', context.floorKey, REPLAY_PATH)],
  };
}

function get(context: ScenarioContext): Scenario {
  const side = (label: string, target: Target, key: string, ids: readonly string[]): Side => {
    const next = rotating(ids);
    return { label, target, request: { method: 'GET', headers: headers(key), setupRequest: (request) => ({ ...request, path: `${INTENTS}/${next()}` }) } };
  };
  return {
    id: 'get',
    name: 'get intent',
    insertsOneRowPer2xx: false,
    noWrites: true,
    capturesStatements: true,
    service: side('service', 'service', context.serviceKey, context.serviceIntentIds),
    floors: [
      side('floor', 'floor', context.floorKey, context.floorIntentIds),
      ...ladderSides(context, (label, target) => side(label, target, context.floorKey, context.floorIntentIds)),
    ],
  };
}

function list(context: ScenarioContext): Scenario {
  const side = (label: string, target: Target, key: string): Side => ({
    label,
    target,
    request: { method: 'GET', path: `${INTENTS}?limit=20`, headers: headers(key) },
  });
  return {
    id: 'list',
    name: 'list intents (limit 20)',
    insertsOneRowPer2xx: false,
    noWrites: true,
    capturesStatements: true,
    service: side('service', 'service', context.serviceKey),
    floors: [side('list floor', 'floor', context.floorKey), ...ladderSides(context, (label, target) => side(label, target, context.floorKey))],
  };
}

/** Auth + validation + presenter on the real Hapi stack, no database (see service-main.ts). */
const FX_PATH = '/v1/fx/quotes?from=THB&to=THB&amount=10000';

function noIo(context: ScenarioContext): Scenario {
  const side = (label: string, target: Target, key: string): Side => ({ label, target, request: { method: 'GET', path: FX_PATH, headers: headers(key) } });
  return {
    id: 'no-io',
    name: 'Hapi stack, no I/O (auth + validation)',
    insertsOneRowPer2xx: false,
    noWrites: false,
    capturesStatements: false,
    service: side('service', 'no-io', context.serviceKey),
    floors: [side('bare Hapi', 'hapi', context.floorKey), side('node:http', 'floor', context.floorKey)],
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
