import { useState } from 'preact/hooks';
import { api, newIdempotencyKey } from '../api';
import { formatAmount, formatDate, formatMoney } from '../format';
import { t } from '../i18n';
import { useConsole } from '../state';
import type { Balance, List, Money, Settlement } from '../types';
import { useAction, useResource } from '../ui/hooks';
import { DataTable, ErrorText, Facts, Link, Loading, Pager, Status, usePager } from '../ui/kit';

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
  const manual = settings.settlement_schedule === 'manual';
  return (
    <>
      <h1>{t('balance.title')}</h1>
      <ErrorText error={balance.error} />
      <Loading when={balance.loading && !balance.data} />
      {balance.data ? (
        currencies.length === 0 ? (
          <p>{t('balance.empty')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">{t('balance.currency')}</th>
                {BUCKETS.map((bucket) => (
                  <th scope="col" key={bucket} class="num">
                    {t(`balance.${bucket}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {currencies.map((currency) => (
                <tr key={currency}>
                  <th scope="row">{currency}</th>
                  {BUCKETS.map((bucket) => (
                    <td key={bucket} class="num">
                      {formatMoney(amountOf(bucket, currency))}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
      <h2>{t('settlements.title')}</h2>
      <p class="muted">{manual ? t('settlements.manual') : t('settlements.scheduled', { schedule: settings.settlement_schedule })}</p>
      {manual && can('settlements.write') ? (
        <PayOutNow
          onDone={() => {
            balance.reload();
            settlements.reload();
          }}
        />
      ) : null}
      <ErrorText error={settlements.error} />
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
    </>
  );
}

/** One key per page visit: a double click or a retry pays out once. */
function PayOutNow(props: { onDone: () => void }) {
  const { mode } = useConsole();
  const [key, setKey] = useState(newIdempotencyKey);
  const [paid, setPaid] = useState<Settlement | undefined>();
  const action = useAction();
  const payOut = async () => {
    const done = await action.run(async () => setPaid(await api<Settlement>('POST', '/settlements', { query: { mode }, idempotencyKey: key, body: {} })));
    if (done) {
      setKey(newIdempotencyKey());
      props.onDone();
    }
  };
  return (
    <div class="actions">
      <button type="button" disabled={action.busy} onClick={() => void payOut()}>
        {t('settlements.payOut')}
      </button>
      {paid ? <p role="status">{t('settlements.paid', { amount: formatMoney(paid.amount) })}</p> : null}
      <ErrorText error={action.error} />
    </div>
  );
}

export function SettlementDetailPage(props: { id: string }) {
  const { mode } = useConsole();
  const settlement = useResource(() => api<Settlement>('GET', `/settlements/${encodeURIComponent(props.id)}`, { query: { mode } }), [props.id, mode]);
  if (settlement.error) return <ErrorText error={settlement.error} />;
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
          [t('common.id'), <code key="id">{s.id}</code>],
          [t('settlements.payments'), s.payments === undefined ? '—' : String(s.payments)],
          [t('settlements.period'), `${formatDate(s.period_start)} – ${formatDate(s.period_end)}`],
          [t('common.created'), formatDate(s.created)],
        ]}
      />
    </>
  );
}
