import { ListPaymentIntents, PaymentMoneyStatuses } from '@payments/core';
import { defineRoute } from '../../http/define-route';
import { presentList } from '../../http/presenting';
import { scopeIn } from '../../plugins/dashboard/actor';
import { pageOf, withMode } from '../schemas';
import { dashboardPaymentIntentFilter, dashboardPaymentIntentListFields } from './payment-intent-query';
import { PAYMENT_SCHEMAS, presentDashboardPaymentIntent } from './presenters';

/** *mode*: the account's intents, newest first, as the merchant API shows them, for every role. */
export default defineRoute({
  method: 'GET',
  path: '/dashboard/v1/payment_intents',
  access: 'dashboard',
  action: 'payments.read',
  validate: { query: withMode(dashboardPaymentIntentListFields) },
  openapi: {
    operationId: 'listPaymentIntents',
    summary: 'List payment intents, newest first',
    description:
      'Filters combine: `status`; `created_gte` and `created_lte`, inclusive, each a date or a date-time (a date as `created_lte` takes in its whole day, UTC); ' +
      '`q`, the intent of that id and those whose merchant_order_id starts with it, case-insensitive (`ord-24` finds `ORD-24053`); `amount`, in major units, and `currency`; ' +
      '`money_status` (refunded, partially_refunded, disputed, dispute_won, dispute_lost). Each intent carries its `money_statuses`. ' +
      '`limit` (1–100, default 20) and `starting_after` page as on /v1.',
    tag: 'Payments',
    success: { status: 200, schema: PAYMENT_SCHEMAS.DashboardPaymentIntentList, description: 'A page of payment intents.' },
  },
  uses: { listPaymentIntents: ListPaymentIntents, paymentMoneyStatuses: PaymentMoneyStatuses },
  handler:
    ({ listPaymentIntents, paymentMoneyStatuses }) =>
    async (request) => {
      const { query } = request;
      const scope = scopeIn(request, query.mode);
      const page = await listPaymentIntents.execute({ scope, filter: dashboardPaymentIntentFilter(query), page: pageOf(query) });
      const statuses = await paymentMoneyStatuses.execute(scope, page.data);
      return presentList(page, (intent) => presentDashboardPaymentIntent(intent, statuses.get(intent.id) ?? []));
    },
});
