import Hapi, { type Server } from '@hapi/hapi';
import { newId } from '@payments/core';
import { CryptoRandomSource } from '@payments/node-runtime';
import type { createKnex } from '@payments/storage-sql';

type Db = ReturnType<typeof createKnex>;

interface CreateBody {
  amount: number;
  currency: string;
  merchant_order_id: string;
}

/** Where the baseline's routes live; the scenarios address them by these paths. */
export const BASELINE_PATHS = {
  create: '/baseline/payment_intents',
  replay: '/baseline/replay',
  intents: '/baseline/payment_intents',
} as const;

const MODE = 'test';
const EXPIRES_IN_MS = 3600 * 1000;
const random = new CryptoRandomSource();

/** The row the service's create writes, with the same columns filled (see payment-intent.row). */
function intentRow(merchantId: string, body: CreateBody): Record<string, unknown> {
  const now = Date.now();
  return {
    id: newId(random, 'payment_intent'),
    merchant_id: merchantId,
    mode: MODE,
    amount: body.amount,
    currency: body.currency,
    merchant_order_id: body.merchant_order_id,
    status: 'created',
    payment_method: null,
    channel_preference: null,
    description: null,
    customer: null,
    return_url: null,
    metadata: '{}',
    fee_amount: null,
    fee_currency: null,
    net_amount: null,
    net_currency: null,
    fx: null,
    next_action: null,
    available_at: null,
    expires_at: now + EXPIRES_IN_MS,
    created_at: now,
    updated_at: now,
    version: 0,
  };
}

/**
 * The floor the service is measured against: Hapi with no auth, idempotency, validation,
 * mapping or presenters, issuing the one statement each scenario cannot do without, on the
 * payment_intents table and the same merchant's rows as the service.
 */
export function createBaselineServer(knex: Db, merchantId: string): Server {
  const server = Hapi.server({ host: '127.0.0.1', port: 0 });
  const intents = () => knex('payment_intents');

  server.route({
    method: 'POST',
    path: BASELINE_PATHS.create,
    handler: async (request, h) => {
      const row = intentRow(merchantId, request.payload as CreateBody);
      await intents().insert(row);
      return h.response(row).code(201);
    },
  });

  // A replay's least work: find the intent the same body created, by its unique order id.
  server.route({
    method: 'POST',
    path: BASELINE_PATHS.replay,
    handler: async (request, h) => {
      const body = request.payload as CreateBody;
      const row: unknown = await intents().where({ merchant_id: merchantId, mode: MODE, merchant_order_id: body.merchant_order_id }).first();
      return row === undefined ? h.response({ error: 'not found' }).code(404) : h.response(row as object).code(201);
    },
  });

  server.route({
    method: 'GET',
    path: `${BASELINE_PATHS.intents}/{id}`,
    handler: async (request, h) => {
      const row: unknown = await intents().where({ id: request.params['id'], merchant_id: merchantId, mode: MODE }).first();
      return row === undefined ? h.response({ error: 'not found' }).code(404) : (row as object);
    },
  });

  // The same statement as the repository's list: newest first by seq, one look-ahead row.
  server.route({
    method: 'GET',
    path: BASELINE_PATHS.intents,
    handler: async (request) => {
      const limit = Number(request.query['limit'] ?? 20);
      const rows: unknown[] = await intents().where({ merchant_id: merchantId, mode: MODE }).orderBy('seq', 'desc').limit(limit + 1);
      return { data: rows.slice(0, limit), has_more: rows.length > limit };
    },
  });

  return server;
}
