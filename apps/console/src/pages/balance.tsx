import { useState } from 'preact/hooks';
import { api, newIdempotencyKey } from '../api';
import { formatAmount, formatDate, formatMoney } from '../format';
import { t } from '../i18n';
import { useConsole } from '../state';
import type { Balance, List, Money, NextSettlement, PayoutMethod, Settlement, SettlementSummary } from '../types';
import { useAction, useResource } from '../ui/hooks';
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
  PageError,
  Pager,
  Status,
  usePager,
} from '../ui/kit';

const BUCKETS = ['available', 'pending', 'dispute_hold'] as const;

/** The three buckets per currency, the settlements, and "pay out now" on a manual schedule. */
export function BalancePage() {
  const { mode, settings, can } = useConsole();
  const pager = usePager();
  const balance = useResource(() => api<Balance>('GET', '/balance', { query: { mode } }), [mode]);
  const settlements = useResource(() => api<List<Settlement>>('GET', '/settlements', { query: { mode, starting_after: pager.cursor } }), [mode, pager.cursor]);
  const currencies = [...new Set(BUCKETS.flatMap((bucket) => (balance.data?.[bucket] ?? []).map((money) => money.currency)))].sort();
  const amountOf = (bucket: (typeof BUCKETS)[number], currency: string): Money =>
    balance.data?.[bucket].find((money) => money.currency === currency) ?? { amount: 0, currency };
  const nextOf = (currency: string): NextSettlement | undefined => balance.data?.next_settlement?.find((next) => next.currency === currency);
  const manual = settings.settlement_schedule === 'manual';
  return (
    <>
      <h1>{t('balance.title')}</h1>
      <ErrorText error={balance.error} retry={balance.reload} />
      <Loading when={balance.loading && !balance.data} />
      {balance.data && currencies.length === 0 ? <p>{t('balance.empty')}</p> : null}
      {balance.data && currencies.length > 0 ? (
        <DataTable
          rows={currencies}
          rowKey={(currency) => currency}
          caption={t('balance.title')}
          empty={t('balance.empty')}
          columns={[
            { label: t('balance.currency'), cell: (currency) => <span translate={false}>{currency}</span> },
            ...BUCKETS.map((bucket) => ({ label: t(`balance.${bucket}`), num: true, cell: (currency: string) => formatMoney(amountOf(bucket, currency)) })),
            { label: t('balance.next'), num: true, cell: (currency: string) => <NextCell next={nextOf(currency)} /> },
          ]}
        />
      ) : null}
      <h2>{t('settlements.title')}</h2>
      <p class="muted">
        {manual
          ? t('settlements.manual')
          : t('settlements.scheduled', { schedule: t(`schedule.${settings.settlement_schedule}`, {}, settings.settlement_schedule) })}
      </p>
      {manual && can('settlements.write') ? (
        <PayOutNow
          available={nextPayout(nextOf(settings.settlement_currency), settings.settlement_currency)}
          onDone={() => {
            balance.reload();
            settlements.reload();
          }}
        />
      ) : null}
      <p class="actions">
        <DownloadCsv file="settlements" query={{ mode }} />
      </p>
      <ErrorText error={settlements.error} retry={settlements.reload} />
      <DataTable
        rows={settlements.data?.data}
        rowKey={(settlement) => settlement.id}
        empty={t('settlements.none')}
        columns={[
          { label: t('common.amount'), num: true, cell: (settlement) => <Link to={`/settlements/${settlement.id}`}>{formatMoney(settlement.amount)}</Link> },
          { label: t('common.status'), cell: (settlement) => <Status value={settlement.status} /> },
          { label: t('settlements.period'), wide: true, cell: (settlement) => `${formatDate(settlement.period_start)} – ${formatDate(settlement.period_end)}` },
          { label: t('common.created'), cell: (settlement) => formatDate(settlement.created) },
        ]}
      />
      <Pager pager={pager} hasMore={settlements.data?.has_more ?? false} lastId={settlements.data?.data.at(-1)?.id} />
      <LinesDownload />
    </>
  );
}

/** The balance transactions created between two days (each inclusive, UTC), as a CSV download. */
function LinesDownload() {
  const { mode } = useConsole();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  return (
    <section aria-labelledby="lines-title">
      <h2 id="lines-title">{t('export.lines')}</h2>
      <p class="hint">{t('export.linesHint')}</p>
      <div class="filters">
        <Field label={t('export.from')} id="lines-from">
          <input id="lines-from" type="date" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
        </Field>
        <Field label={t('export.to')} id="lines-to">
          <input id="lines-to" type="date" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
        </Field>
        <p class="actions">
          <DownloadCsv file="balance_transactions" query={{ mode, 'created[gte]': from, 'created[lte]': to }} />
        </p>
      </div>
    </section>
  );
}

/** What "Pay out now" would pay: the balance's next settlement in the settlement currency (0 before the balance is read). */
function nextPayout(next: NextSettlement | undefined, currency: string): Money {
  return { amount: next?.amount ?? 0, currency };
}

/** The next settlement of a currency: its amount, and when (on request for a manual schedule). */
function NextCell(props: { next: NextSettlement | undefined }) {
  const { next } = props;
  if (!next) return <>—</>;
  const when = next.trigger === 'manual' ? t('balance.nextManual') : next.scheduled_for ? formatDate(next.scheduled_for) : t('balance.nextNothing');
  return (
    <>
      {formatAmount(next.amount, next.currency)}
      <br />
      <span class="muted">{when}</span>
    </>
  );
}

/**
 * "Pay out now" asks first, showing what would be paid and where: the next settlement's amount
 * (what the request pays, refunds and dispute debits netted) and the default destination, masked. One key per confirmation dialog, so a
 * double click or a retry pays out once.
 */
function PayOutNow(props: { available: Money; onDone: () => void }) {
  const { mode } = useConsole();
  const destinations = useResource(() => api<List<PayoutMethod>>('GET', '/payout_methods', { query: { mode } }), [mode]);
  const [confirming, setConfirming] = useState(false);
  const [paid, setPaid] = useState<Settlement | undefined>();
  const destination = destinations.data?.data.find((method) => method.default && method.currency === props.available.currency);
  const nothing = BigInt(props.available.amount) <= 0n;
  return (
    <div class="payout">
      <button type="button" disabled={destinations.loading && !destinations.data} onClick={() => setConfirming(true)}>
        {t('settlements.payOut')}
      </button>
      {paid ? <p role="status">{t('settlements.paid', { amount: formatMoney(paid.amount) })}</p> : null}
      <Dialog title={t('payout.confirmTitle')} open={confirming} onClose={() => setConfirming(false)}>
        <PayOutForm
          available={props.available}
          destination={destination}
          nothing={nothing}
          onClose={() => setConfirming(false)}
          onPaid={(settlement) => {
            setPaid(settlement);
            props.onDone();
          }}
        />
      </Dialog>
    </div>
  );
}

function PayOutForm(props: {
  available: Money;
  destination: PayoutMethod | undefined;
  nothing: boolean;
  onClose: () => void;
  onPaid: (settlement: Settlement) => void;
}) {
  const { mode } = useConsole();
  const [key] = useState(newIdempotencyKey);
  const action = useAction();
  const { destination } = props;
  const submit = async (event: Event) => {
    event.preventDefault();
    let made: Settlement | undefined;
    const done = await action.run(async () => {
      made = await api<Settlement>('POST', '/settlements', { query: { mode }, idempotencyKey: key, body: {} });
    });
    if (done && made) {
      props.onClose();
      props.onPaid(made);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)}>
      <Facts
        rows={[
          [t('payout.amount'), formatMoney(props.available)],
          [
            t('payout.destination'),
            destination ? (
              <span translate={false}>
                {destination.account_holder} · {destination.bank_code} <code>{destination.account_number}</code>
              </span>
            ) : mode === 'test' ? (
              t('payout.testDestination')
            ) : (
              t('payout.noDestination')
            ),
          ],
        ]}
      />
      <p class="hint">{t('payout.amountHint')}</p>
      {destination || mode === 'test' ? null : (
        <p>
          {t('payout.waits')} <Link to="/settings">{t('payout.addDestination')}</Link>
        </p>
      )}
      {props.nothing ? <p class="error">{t('payout.nothing')}</p> : null}
      <ErrorText error={action.error} />
      <DialogActions onCancel={props.onClose} submitLabel={t('payout.confirm')} disabled={action.busy || props.nothing} />
    </form>
  );
}

export function SettlementDetailPage(props: { id: string }) {
  const { mode } = useConsole();
  const settlement = useResource(() => api<Settlement>('GET', `/settlements/${encodeURIComponent(props.id)}`, { query: { mode } }), [props.id, mode]);
  if (settlement.error) return <PageError error={settlement.error} retry={settlement.reload} back={{ to: '/balance', label: t('balance.title') }} />;
  const s = settlement.data;
  if (!s) return <Loading when />;
  return (
    <>
      <p>
        <Link to="/balance">← {t('balance.title')}</Link>
      </p>
      <h1>
        {t('settlements.one')} {formatAmount(s.amount.amount, s.amount.currency)} <Status value={s.status} />
      </h1>
      <Facts
        rows={[
          [t('common.id'), <Breakable key="id" text={s.id} code />],
          [t('settlements.payments'), s.payments === undefined ? '—' : String(s.payments)],
          [t('settlements.period'), `${formatDate(s.period_start)} – ${formatDate(s.period_end)}`],
          [t('common.created'), formatDate(s.created)],
        ]}
      />
      {s.summary ? <SettlementLines summary={s.summary} amount={s.amount} /> : null}
      <p class="actions">
        <DownloadCsv file="balance_transactions" query={{ mode, settlement: s.id }} />
      </p>
      <p class="hint">{t('export.settlementHint')}</p>
    </>
  );
}

/** The line types a summary lists, in the order a bookkeeper reads them. */
const SUMMARY_TYPES = ['release', 'refund', 'refund_reversal', 'dispute_hold', 'dispute_release', 'dispute_loss', 'settlement_failure', 'adjustment'] as const;

/**
 * What a settlement pays, line type by line type (the payments with their gross, fee and net), and
 * the total, which is its amount: the summary's totals add up to it by construction.
 */
function SettlementLines(props: { summary: SettlementSummary; amount: Money }) {
  const { summary, amount } = props;
  const { currency } = amount;
  const rows = SUMMARY_TYPES.filter((type) => type === 'release' || summary.lines[type]?.count > 0);
  const release = summary.lines.release;
  return (
    <>
      <h2>{t('settlements.summary')}</h2>
      <DataTable
        rows={[...rows, ...(BigInt(summary.other) === 0n ? [] : ['other' as const]), 'total' as const]}
        rowKey={(type) => type}
        caption={t('settlements.summary')}
        empty={t('settlements.none')}
        columns={[
          { label: t('settlements.lineType'), cell: (type) => (type === 'total' ? <strong>{t('settlements.total')}</strong> : t(`settlements.line.${type}`)) },
          { label: t('settlements.lines'), num: true, cell: (type) => (type === 'total' || type === 'other' ? '' : String(summary.lines[type].count)) },
          {
            label: t('settlements.grossFeeNet'),
            num: true,
            cell: (type) =>
              type === 'release'
                ? `${formatAmount(release.gross, currency)} − ${formatAmount(release.fee, currency)} = ${formatAmount(release.net, currency)}`
                : '',
          },
          {
            label: t('common.amount'),
            num: true,
            cell: (type) =>
              type === 'total' ? <strong>{formatMoney(amount)}</strong> : formatAmount(type === 'other' ? summary.other : summary.lines[type].amount, currency),
          },
        ]}
      />
      <p class="hint">{t('settlements.summaryHint')}</p>
    </>
  );
}
