import { useEffect, useState } from 'preact/hooks';
import { api, newIdempotencyKey } from '../api';
import { amountInput, formatAmount, formatDate, formatMoney, parseAmount } from '../format';
import { t } from '../i18n';
import { useConsole } from '../state';
import type { ApiEvent, Dispute, List, PaymentAttempt, PaymentIntent, Refund } from '../types';
import { useAction, useResource } from '../ui/hooks';
import { useQueryFilters } from '../router';
import {
  Breakable,
  DataTable,
  Dialog,
  DialogActions,
  DownloadCsv,
  ErrorText,
  Facts,
  Field,
  Link,
  Loading,
  MoneyStatus,
  PageError,
  Pager,
  Status,
  usePager,
} from '../ui/kit';
import { EventBody, eventLabel } from './events';

const INTENT_STATUSES = ['created', 'requires_payment', 'processing', 'succeeded', 'channel_settled', 'failed', 'expired', 'canceled'];
const MONEY_STATUSES = ['refunded', 'partially_refunded', 'disputed', 'dispute_won', 'dispute_lost'];
const REFUND_REASONS = ['requested_by_customer', 'duplicate', 'fraudulent'];
const PAID = ['succeeded', 'channel_settled'];
const FILTERS = ['q', 'amount', 'status', 'money_status', 'created_gte', 'created_lte'] as const;

/** A payment method as its brand writes it (PromptPay, TrueMoney): a name, not a word to translate. */
export function MethodName(props: { method: string | undefined }) {
  if (!props.method) return <>—</>;
  return <span translate={false}>{t(`method.${props.method}`, {}, props.method)}</span>;
}

/** The channel's status and, beside it, where the money went after (refunded, disputed …). */
function Statuses(props: { intent: PaymentIntent }) {
  return (
    <span class="statuses">
      <Status value={props.intent.status} />
      {(props.intent.money_statuses ?? []).map((status) => (
        <MoneyStatus key={status} value={status} />
      ))}
    </span>
  );
}

/**
 * Newest first, cursor pages; filtered by status, money status, creation date, amount, and found by
 * an order id's beginning (any case) or an intent id. Every filter is in the page's address.
 */
export function PaymentsPage() {
  const { mode } = useConsole();
  const pager = usePager();
  const { values: filters, apply } = useQueryFilters(FILTERS);
  const [draft, setDraft] = useState(filters);
  const filterKey = FILTERS.map((key) => filters[key]).join('|');
  useEffect(() => {
    setDraft(filters);
    pager.reset();
  }, [filterKey]);
  const amountText = filters.amount.replace(/\s/g, '');
  const amountValid = amountText === '' || /^(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/.test(amountText);
  const list = useResource(
    () =>
      api<List<PaymentIntent>>('GET', '/payment_intents', {
        query: { mode, limit: 20, starting_after: pager.cursor, ...filters, amount: amountValid ? amountText : undefined },
      }),
    [mode, pager.cursor, filterKey],
  );
  const submit = (event: Event) => {
    event.preventDefault();
    apply({ ...draft, q: draft.q.trim(), amount: draft.amount.trim() });
  };
  const anyFilter = FILTERS.some((key) => filters[key] !== '');
  return (
    <>
      <h1>{t('payments.title')}</h1>
      <form class="filters" onSubmit={submit} role="search" aria-label={t('payments.filters')}>
        <Field label={t('payments.search')} id="q" hint={t('payments.searchHint')}>
          <input id="q" type="search" value={draft.q} aria-describedby="q-hint" onInput={(e) => setDraft({ ...draft, q: e.currentTarget.value })} />
        </Field>
        <Field label={t('payments.amount')} id="amount" hint={t('payments.amountHint')}>
          <input
            id="amount"
            inputMode="decimal"
            value={draft.amount}
            aria-describedby="amount-hint"
            onInput={(e) => setDraft({ ...draft, amount: e.currentTarget.value })}
          />
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
        <Field label={t('payments.moneyStatus')} id="money-status">
          <select id="money-status" value={draft.money_status} onChange={(e) => setDraft({ ...draft, money_status: e.currentTarget.value })}>
            <option value="">{t('common.any')}</option>
            {MONEY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`money.${status}`)}
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
        <div class="filter-actions">
          <button type="submit">{t('common.apply')}</button>
          {anyFilter ? (
            <button type="button" class="secondary" onClick={() => apply(Object.fromEntries(FILTERS.map((key) => [key, ''])))}>
              {t('common.clear')}
            </button>
          ) : null}
        </div>
      </form>
      {amountValid ? null : <p class="error">{t('payments.amountInvalid')}</p>}
      <p class="actions">
        <DownloadCsv file="payment_intents" query={{ mode, ...filters, amount: amountValid ? amountText : undefined }} />
      </p>
      <ErrorText error={list.error} retry={list.reload} />
      <Loading when={list.loading && !list.data} />
      <DataTable
        rows={list.data?.data}
        rowKey={(intent) => intent.id}
        caption={t('payments.title')}
        empty={anyFilter ? t('payments.noneMatch') : t('payments.none')}
        columns={[
          { label: t('common.amount'), num: true, cell: (intent) => <Link to={`/payments/${intent.id}`}>{formatAmount(intent.amount, intent.currency)}</Link> },
          { label: t('common.status'), cell: (intent) => <Statuses intent={intent} /> },
          { label: t('payments.method'), cell: (intent) => <MethodName method={intent.payment_method} /> },
          { label: t('payments.fee'), num: true, cell: (intent) => formatMoney(intent.fee) },
          { label: t('payments.net'), num: true, cell: (intent) => formatMoney(intent.net) },
          { label: t('payments.order'), cell: (intent) => <Breakable text={intent.merchant_order_id} /> },
          { label: t('common.created'), wide: true, cell: (intent) => formatDate(intent.created) },
        ]}
      />
      <Pager pager={pager} hasMore={list.data?.has_more ?? false} lastId={list.data?.data.at(-1)?.id} />
    </>
  );
}

/** Why a failed attempt failed, in the person's words (the channel's code picks the sentence). */
function failureReason(attempt: PaymentAttempt | undefined): string {
  if (!attempt?.failure_code) return t('payments.failedUnknown');
  return t(`failure.${attempt.failure_code}`, {}, t('payments.failedUnknown'));
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

  if (intent.error) return <PageError error={intent.error} retry={intent.reload} back={{ to: '/payments', label: t('payments.title') }} />;
  const pi = intent.data;
  if (!pi) return <Loading when />;
  const paid = PAID.includes(pi.status);
  const remaining = pi.amount - pi.amount_refunded;
  const disputeList = disputes.data?.data ?? [];
  const openDispute = disputeList.find((dispute) => !['won', 'lost'].includes(dispute.status));
  const lostDispute = disputeList.find((dispute) => dispute.status === 'lost');
  // Offered only where the API would take it: paid, something left, no dispute open or lost (and the disputes known).
  const refundable = paid && remaining > 0 && disputes.data !== undefined && !openDispute && !lostDispute;
  const lastFailed = [...(attempts.data?.data ?? [])].reverse().find((attempt) => attempt.status === 'failed');
  return (
    <>
      <p>
        <Link to="/payments">← {t('payments.title')}</Link>
      </p>
      <h1>
        {formatAmount(pi.amount, pi.currency)} <Statuses intent={pi} />
      </h1>
      {pi.status === 'failed' ? (
        <p class="notice notice-bad" role="status">
          <strong>{t('payments.failedTitle')}</strong> {attempts.data ? failureReason(lastFailed) : null}
        </p>
      ) : null}
      {openDispute ? (
        <p class="notice notice-warn">
          {t('payments.disputeOpen')} <Link to={`/disputes/${openDispute.id}`}>{t('payments.seeDispute')}</Link>
        </p>
      ) : null}
      {lostDispute ? (
        <p class="notice notice-bad">
          {t('payments.disputeLost')} <Link to={`/disputes/${lostDispute.id}`}>{t('payments.seeDispute')}</Link>
        </p>
      ) : null}
      <Facts
        rows={[
          [t('common.id'), <Breakable key="id" text={pi.id} code />],
          [t('payments.order'), <Breakable key="order" text={pi.merchant_order_id} />],
          [t('payments.method'), <MethodName key="method" method={pi.payment_method} />],
          [t('payments.fee'), formatMoney(pi.fee)],
          [t('payments.net'), formatMoney(pi.net)],
          ...(paid
            ? ([
                [t('payments.refunded'), formatAmount(pi.amount_refunded, pi.currency)],
                [t('payments.remaining'), lostDispute ? t('payments.nothingLeft') : formatAmount(remaining, pi.currency)],
              ] as const)
            : []),
          [
            t('payments.fx'),
            pi.fx?.locked ? <span translate={false}>{`${pi.fx.rate ?? ''} ${pi.currency}→${pi.fx.quote_currency ?? ''}`}</span> : t('payments.fxNone'),
          ],
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
      <ErrorText error={attempts.error} retry={attempts.reload} />
      <DataTable
        rows={attempts.data?.data}
        rowKey={(attempt) => attempt.id}
        empty={t('payments.noAttempts')}
        columns={[
          { label: t('common.created'), cell: (attempt) => formatDate(attempt.created) },
          { label: t('common.status'), cell: (attempt) => <Status value={attempt.status} /> },
          { label: t('payments.method'), cell: (attempt) => <MethodName method={attempt.payment_method} /> },
          { label: t('payments.failure'), cell: (attempt) => (attempt.status === 'failed' ? failureReason(attempt) : '—') },
        ]}
      />

      <h2>{t('payments.refunds')}</h2>
      <ErrorText error={refunds.error} retry={refunds.reload} />
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
                <Status value={refund.status} />{' '}
                {refund.failure_code ? <span class="muted">{t(`refundFailure.${refund.failure_code}`, {}, t('refundFailure.other'))}</span> : null}
              </>
            ),
          },
          { label: t('refund.reason'), cell: (refund) => (refund.reason ? t(`refund.reason.${refund.reason}`) : '—') },
          { label: t('common.created'), cell: (refund) => formatDate(refund.created) },
        ]}
      />

      <h2>{t('nav.disputes')}</h2>
      <ErrorText error={disputes.error} retry={disputes.reload} />
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
      <ErrorText error={events.error} retry={events.reload} />
      {events.data ? (
        <ol class="timeline">
          {events.data.data.map((event) => (
            <li key={event.id}>
              <span class="muted">{formatDate(event.created)}</span> <Link to={`/events/${event.id}`}>{eventLabel(event.type)}</Link>{' '}
              <code translate={false}>{event.type}</code>
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
