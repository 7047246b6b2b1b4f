import type { ServerRoute } from '@hapi/hapi';
import type { AdvanceTimer, SimulateOutcome, SimulatePayment, TimerName } from '@payments/core';
import { header } from '../../http/headers';
import { idempotent, type IdempotentDeps } from './idempotency';
import { scopeOf } from './caller';
import { presentPaymentIntent } from './presenters';
import { advanceBody, paymentIntentParams, simulateBody } from './schemas';

export interface TestHelperRoutesDeps extends IdempotentDeps {
  readonly simulatePayment: SimulatePayment;
  readonly advanceTimer: AdvanceTimer;
}

/** Test mode's routes: tell the channel what to report, and move timers to now. */
export function testHelperRoutes(deps: TestHelperRoutesDeps): ServerRoute[] {
  return [
    {
      method: 'POST',
      path: '/v1/test/payment_intents/{id}/simulate',
      options: {
        validate: { params: paymentIntentParams, payload: simulateBody },
        handler: idempotent(
          deps,
          async (request) => {
            const body = request.payload as { outcome: SimulateOutcome; failure_code?: string; amount?: number; currency?: string };
            const intent = await deps.simulatePayment.execute({
              scope: scopeOf(request),
              intentId: String(request.params.id),
              outcome: body.outcome,
              failureCode: body.failure_code,
              amount: body.amount,
              currency: body.currency,
              // Lets a retry whose first try reached the channel (and then lost its answer) be recognised.
              simulationKey: header(request, 'idempotency-key'),
            });
            return { status: 200, body: presentPaymentIntent(intent) };
          },
          // The simulated callback reaches the service over HTTP while this request waits.
          { transactional: false },
        ),
      },
    },
    {
      method: 'POST',
      path: '/v1/test/payment_intents/{id}/advance',
      options: {
        validate: { params: paymentIntentParams, payload: advanceBody },
        handler: idempotent(deps, async (request) => {
          const body = request.payload as { clock: TimerName };
          const intent = await deps.advanceTimer.execute({ scope: scopeOf(request), intentId: String(request.params.id), timer: body.clock });
          return { status: 200, body: presentPaymentIntent(intent) };
        }),
      },
    },
  ];
}
