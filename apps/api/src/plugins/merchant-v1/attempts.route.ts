import type { ServerRoute } from '@hapi/hapi';
import { CoreError, type ListAttempts, type PlaceAttempt } from '@payments/core';
import { errorBody } from '../../http/error-envelope';
import { idempotent, type IdempotentDeps } from './idempotency';
import { scopeOf } from './caller';
import { presentAttempt, presentList } from './presenters';
import { attemptCreateBody, paymentIntentParams } from './schemas';

export interface AttemptRoutesDeps extends IdempotentDeps {
  readonly placeAttempt: PlaceAttempt;
  readonly listAttempts: ListAttempts;
}

export function attemptRoutes(deps: AttemptRoutesDeps): ServerRoute[] {
  return [
    {
      method: 'POST',
      path: '/v1/payment_intents/{id}/attempts',
      options: {
        validate: { params: paymentIntentParams, payload: attemptCreateBody },
        handler: idempotent(
          deps,
          async (request) => {
            const body = request.payload as { payment_method: string; channel?: string };
            const { attempt, created } = await deps.placeAttempt.execute({
              scope: scopeOf(request),
              intentId: String(request.params.id),
              paymentMethod: body.payment_method,
              channel: body.channel,
            });
            if (created && attempt.status === 'failed') {
              // A refused order is recorded (the attempt stays in the history) and answered 402.
              const refusal = new CoreError('payment_failed', 'payment_failed', `The channel refused the payment (attempt ${attempt.id}): ${attempt.failureMessage ?? attempt.failureCode}`);
              return { status: 402, body: errorBody(refusal, request.app.requestId) };
            }
            return { status: created ? 201 : 200, body: presentAttempt(attempt) };
          },
          // The channel is called: see RunIdempotently for why this runs outside one transaction.
          { transactional: false },
        ),
      },
    },
    {
      method: 'GET',
      path: '/v1/payment_intents/{id}/attempts',
      options: {
        validate: { params: paymentIntentParams },
        handler: async (request) => {
          const attempts = await deps.listAttempts.execute({ scope: scopeOf(request), intentId: String(request.params.id) });
          return presentList(attempts, presentAttempt);
        },
      },
    },
  ];
}
