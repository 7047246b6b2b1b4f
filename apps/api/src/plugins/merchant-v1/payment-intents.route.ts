import type { ServerRoute } from '@hapi/hapi';
import type {
  CancelPaymentIntent,
  CreatePaymentIntent,
  GetPaymentIntent,
  ListPaymentIntents,
  PaymentIntentStatus,
} from '@payments/core';
import { callerOf, scopeOf } from './caller';
import { idempotent, type IdempotentDeps } from './idempotency';
import { presentList, presentPaymentIntent } from './presenters';
import { noBody, paymentIntentCreateBody, paymentIntentListQuery, paymentIntentParams } from './schemas';

export interface PaymentIntentRoutesDeps extends IdempotentDeps {
  readonly createPaymentIntent: CreatePaymentIntent;
  readonly getPaymentIntent: GetPaymentIntent;
  readonly listPaymentIntents: ListPaymentIntents;
  readonly cancelPaymentIntent: CancelPaymentIntent;
}


interface CreateBody {
  amount: number;
  currency: string;
  merchant_order_id: string;
  payment_method?: string;
  channel_preference?: string;
  description?: string;
  customer?: string;
  return_url?: string;
  expires_in?: number;
  metadata?: Record<string, string>;
}

export function paymentIntentRoutes(deps: PaymentIntentRoutesDeps): ServerRoute[] {
  return [
    {
      method: 'POST',
      path: '/v1/payment_intents',
      options: {
        validate: { payload: paymentIntentCreateBody },
        handler: idempotent(deps, async (request) => {
          const body = request.payload as CreateBody;
          const { intent, checkoutUrl } = await deps.createPaymentIntent.execute({
            scope: scopeOf(request),
            settlementCurrency: callerOf(request).merchant.settlementCurrency,
            amount: body.amount,
            currency: body.currency,
            merchantOrderId: body.merchant_order_id,
            paymentMethod: body.payment_method,
            channelPreference: body.channel_preference,
            description: body.description,
            customer: body.customer,
            returnUrl: body.return_url,
            expiresIn: body.expires_in,
            metadata: body.metadata,
          });
          return { status: 201, body: presentPaymentIntent(intent, checkoutUrl) };
        }),
      },
    },
    {
      method: 'GET',
      path: '/v1/payment_intents',
      options: {
        validate: { query: paymentIntentListQuery },
        handler: async (request) => {
          const query = request.query as { limit: number; starting_after?: string; status?: PaymentIntentStatus; merchant_order_id?: string; 'created[gte]'?: Date };
          const page = await deps.listPaymentIntents.execute({
            scope: scopeOf(request),
            filter: { status: query.status, merchantOrderId: query.merchant_order_id, createdGte: query['created[gte]'] },
            page: { limit: query.limit, startingAfter: query.starting_after },
          });
          return presentList(page, (intent) => presentPaymentIntent(intent));
        },
      },
    },
    {
      method: 'GET',
      path: '/v1/payment_intents/{id}',
      options: {
        validate: { params: paymentIntentParams },
        handler: async (request) => presentPaymentIntent(await deps.getPaymentIntent.execute({ scope: scopeOf(request), id: String(request.params.id) })),
      },
    },
    {
      method: 'POST',
      path: '/v1/payment_intents/{id}/cancel',
      options: {
        validate: { params: paymentIntentParams, payload: noBody },
        handler: idempotent(deps, async (request) => {
          const intent = await deps.cancelPaymentIntent.execute({ scope: scopeOf(request), id: String(request.params.id) });
          return { status: 200, body: presentPaymentIntent(intent) };
        }),
      },
    },
  ];
}
