import { useState } from 'preact/hooks';
import { api, newIdempotencyKey } from '../api';
import { amountInput, formatAmount, formatDate, formatMoney, parseAmount } from '../format';
import { t } from '../i18n';
import { useConsole } from '../state';
import type { ApiEvent, Dispute, List, PaymentAttempt, PaymentIntent, Refund } from '../types';
import { useAction, useResource } from '../ui/hooks';
import { DataTable, Dialog, DialogActions, ErrorText, Facts, Field, Link, Loading, Pager, Status, usePager } from '../ui/kit';
import { EventBody } from './events';

const INTENT_STATUSES = ['created', 'requires_payment', 'processing', 'succeeded', 'channel_settled', 'failed', 'expired', 'canceled'];
const REFUND_REASONS = ['requested_by_customer', 'duplicate', 'fraudulent'];

/** Newest first, cursor pages, filtered by status and creation date, found by order id or intent id. */
export function PaymentsPage() {
  const { mode } = useConsole();
  const pager = usePager();
  const [filters, setFilters] = useState({ status: '', created_gte: '', created_lte: '', q: '' });
  const [draft, setDraft] = useState(filters);
  const list = useResource(
    () => api<List<PaymentIntent>>('GET', '/payment_intents', { query: { mode, limit: 20, starting_after: pager.cursor, ...filters } }),
    [mode, pager.cursor, filters],
  );
  const apply = (event: Event) => {
    event.preventDefault();
    pager.reset();
    setFilters(draft);
  };
  return (
    <>
      <h1>{t('payments.title')}</h1>
      <form class="filters" onSubmit={apply} role="search">
        <Field label={t('payments.search')} id="q" hint={t('payments.searchHint')}>
          <input id="q" type="search" value={draft.q} aria-describedby="q-hint" onInput={(e) => setDraft({ ...draft, q: e.currentTarget.value.trim() })} />
        </Field>
        <Field label={t('payments.status')} id="status">
          <select id="status" value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value })}>
            <option value="">{t('common.any')}</option>
            {INTENT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`status.${status}`, {}, status)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('payments.from')} id="from">
          <input id="from" type="date" value={draft.created_gte} onInput={(e) => setDraft({ ...draft, created_gte: e.currentTarget.value })} />
        </Field>
        <Field label={t('payments.to')} id="to">
          <input id="to" type="date" value={draft.created_lte} onInput={(e) => setDraft({ ...draft, created_lte: e.currentTarget.value })} />
        </Field>
        <button type="submit">{t('common.apply')}</button>
      </form>
      <ErrorText error={list.error} />
      <Loading when={list.loading && !list.data} />
      <DataTable
        rows={list.data?.data}
        rowKey={(intent) => intent.id}
        caption={t('payments.title')}
        empty={t('payments.none')}
        columns={[
          { label: t('common.amount'), num: true, cell: (intent) => <Link to={`/payments/${intent.id}`}>{formatAmount(intent.amount, intent.currency)}</Link> },
          { label: t('common.status'), cell: (intent) => <Status value={intent.status} /> },
          { label: t('payments.order'), cell: (intent) => intent.merchant_order_id },
          { label: t('common.id'), wide: true, cell: (intent) => <code>{intent.id}</code> },
          { label: t('common.created'), wide: true, cell: (intent) => formatDate(intent.created) },
        ]}
      />
      <Pager pager={pager} hasMore={list.data?.has_more ?? false} lastId={list.data?.data.at(-1)?.id} />
    </>
  );
}

/** The intent with its money, FX lock, attempts, refunds, disputes and event timeline; refund from here. */
export function PaymentDetailPage(props: { id: string }) {
  const { mode, can } = useConsole();
  const query = { mode };
  const base = `/payment_intents/${encodeURIComponent(props.id)}`;
  const intent = useResource(() => api<PaymentIntent>('GET', base, { query }), [props.id, mode]);
  const attempts = useResource(() => api<List<PaymentAttempt>>('GET', `${base}/attempts`, { query }), [props.id, mode]);
  const refunds = useResource(() => api<List<Refund>>('GET', `${base}/refunds`, { query: { ...query, limit: 100 } }), [props.id, mode]);
  const disputes = useResource(() => api<List<Dispute>>('GET', `${base}/disputes`, { query }), [props.id, mode]);
  const events = useResource(() => api<List<ApiEvent>>('GET', `${base}/events`, { query }), [props.id, mode]);
  const [refunding, setRefunding] = useState(false);
  const reloadAll = () => {
    intent.reload();
    refunds.reload();
    events.reload();
  };

  if (intent.error) return <ErrorText error={intent.error} />;
  const pi = intent.data;
  if (!pi) return <Loading when />;
  const remaining = pi.amount - pi.amount_refunded;
  const refundable = ['succeeded', 'channel_settled'].includes(pi.status) && remaining > 0;
  return (
    <>
      <p>
        <Link to="/payments">← {t('payments.title')}</Link>
      </p>
      <h1>
        {formatAmount(pi.amount, pi.currency)} <Status value={pi.status} />
      </h1>
      <Facts
        rows={[
          [t('common.id'), <code key="id">{pi.id}</code>],
          [t('payments.order'), pi.merchant_order_id],
          [t('payments.fee'), formatMoney(pi.fee)],
          [t('payments.net'), formatMoney(pi.net)],
          [t('payments.refunded'), formatAmount(pi.amount_refunded, pi.currency)],
          [t('payments.remaining'), formatAmount(remaining, pi.currency)],
          [
            t('payments.fx'),
            pi.fx?.locked ? `${pi.fx.rate ?? ''} ${pi.currency}→${pi.fx.quote_currency ?? ''} (${pi.fx.lock_point ?? ''})` : t('payments.fxNone'),
          ],
          [t('payments.method'), pi.payment_method],
          [t('payments.availableAt'), formatDate(pi.available_at)],
          [t('common.created'), formatDate(pi.created)],
        ]}
      />
      {refundable && can('refunds.write') ? (
        <button type="button" onClick={() => setRefunding(true)}>
          {t('refund.action')}
        </button>
      ) : null}
      <RefundDialog intent={pi} open={refunding} onClose={() => setRefunding(false)} onDone={reloadAll} />

      <h2>{t('payments.attempts')}</h2>
      <ErrorText error={attempts.error} />
      <DataTable
        rows={attempts.data?.data}
        rowKey={(attempt) => attempt.id}
        empty={t('payments.noAttempts')}
        columns={[
          { label: t('common.created'), cell: (attempt) => formatDate(attempt.created) },
          { label: t('common.status'), cell: (attempt) => <Status value={attempt.status} /> },
          { label: t('payments.channel'), cell: (attempt) => attempt.channel ?? attempt.payment_method ?? '—' },
          { label: t('payments.failure'), cell: (attempt) => (attempt.failure_code ? `${attempt.failure_code}: ${attempt.failure_message ?? ''}` : '—') },
        ]}
      />

      <h2>{t('payments.refunds')}</h2>
      <ErrorText error={refunds.error} />
      <DataTable
        rows={refunds.data?.data}
        rowKey={(refund) => refund.id}
        empty={t('payments.noRefunds')}
        columns={[
          { label: t('common.amount'), num: true, cell: (refund) => formatAmount(refund.amount, refund.currency) },
          {
            label: t('common.status'),
            cell: (refund) => (
              <>
                <Status value={refund.status} /> {refund.failure_code ? <span class="muted">{refund.failure_code}</span> : null}
              </>
            ),
          },
          { label: t('refund.reason'), cell: (refund) => (refund.reason ? t(`refund.reason.${refund.reason}`) : '—') },
          { label: t('common.created'), cell: (refund) => formatDate(refund.created) },
        ]}
      />

      <h2>{t('nav.disputes')}</h2>
      <ErrorText error={disputes.error} />
      {disputes.data && disputes.data.data.length > 0 ? (
        <ul>
          {disputes.data.data.map((dispute) => (
            <li key={dispute.id}>
              <Link to={`/disputes/${dispute.id}`}>{formatAmount(dispute.amount, dispute.currency)}</Link> <Status value={dispute.status} />
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">{t('payments.noDisputes')}</p>
      )}

      <h2>{t('payments.timeline')}</h2>
      <ErrorText error={events.error} />
      {events.data ? (
        <ol class="timeline">
          {events.data.data.map((event) => (
            <li key={event.id}>
              <span class="muted">{formatDate(event.created)}</span> <Link to={`/events/${event.id}`}>{event.type}</Link>
              <EventBody event={event} />
            </li>
          ))}
        </ol>
      ) : null}
    </>
  );
}

/** Whole or part, the remainder shown and offered. The form mounts with each opening: one key per dialog, so a double submit refunds once. */
function RefundDialog(props: { intent: PaymentIntent; open: boolean; onClose: () => void; onDone: () => void }) {
  return (
    <Dialog title={t('refund.title')} open={props.open} onClose={props.onClose}>
      <RefundForm {...props} />
    </Dialog>
  );
}

function RefundForm(props: { intent: PaymentIntent; onClose: () => void; onDone: () => void }) {
  const { mode } = useConsole();
  const { intent } = props;
  const remaining = intent.amount - intent.amount_refunded;
  const [amount, setAmount] = useState(amountInput(remaining, intent.currency));
  const [reason, setReason] = useState('requested_by_customer');
  const [key] = useState(newIdempotencyKey);
  const action = useAction();
  const minor = parseAmount(amount, intent.currency);
  const valid = minor !== undefined && minor > 0 && minor <= remaining;
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!valid) return;
    const done = await action.run(async () => {
      await api('POST', '/refunds', { query: { mode }, idempotencyKey: key, body: { payment_intent: intent.id, amount: minor, reason } });
    });
    if (done) {
      props.onClose();
      props.onDone();
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)}>
      <p>{t('refund.remaining', { amount: formatAmount(remaining, intent.currency) })}</p>
      <Field label={t('refund.amount', { currency: intent.currency })} id="refund-amount" hint={t('refund.amountHint')}>
        <input
          id="refund-amount"
          inputMode="decimal"
          required
          aria-invalid={!valid}
          aria-describedby="refund-amount-hint"
          value={amount}
          onInput={(e) => setAmount(e.currentTarget.value)}
        />
      </Field>
      <Field label={t('refund.reason')} id="refund-reason">
        <select id="refund-reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)}>
          {REFUND_REASONS.map((value) => (
            <option key={value} value={value}>
              {t(`refund.reason.${value}`)}
            </option>
          ))}
        </select>
      </Field>
      {valid ? null : <p class="error">{t('refund.invalidAmount')}</p>}
      <ErrorText error={action.error} />
      <DialogActions onCancel={props.onClose} submitLabel={t('refund.confirm')} disabled={!valid || action.busy} />
    </form>
  );
}
