import { useState } from 'preact/hooks';
import { useQueryFilters } from '../router';
import { api, newIdempotencyKey } from '../api';
import { formatAmount, formatDate, formatMoney } from '../format';
import { t } from '../i18n';
import { useConsole } from '../state';
import type { Dispute, List } from '../types';
import { useAction, useResource } from '../ui/hooks';
import { Breakable, DataTable, ErrorText, Facts, Field, Link, Loading, PageError, Pager, SelectFilter, Status, usePager } from '../ui/kit';

const DISPUTE_STATUSES = ['opened', 'under_review', 'won', 'lost'];
const RULED = ['won', 'lost'];
/** Where the free-text part of the evidence goes among its keys. */
const TEXT_KEY = 'explanation';

export function DisputesPage() {
  const { mode } = useConsole();
  const pager = usePager();
  const { values, apply } = useQueryFilters(['status'] as const);
  const { status } = values;
  const list = useResource(
    () => api<List<Dispute>>('GET', '/disputes', { query: { mode, status, starting_after: pager.cursor } }),
    [mode, status, pager.cursor],
  );
  return (
    <>
      <h1>{t('disputes.title')}</h1>
      <div class="filters">
        <SelectFilter
          id="dispute-status"
          label={t('common.status')}
          value={status}
          options={DISPUTE_STATUSES}
          optionLabel={(value) => t(`status.${value}`, {}, value)}
          onChange={(value) => {
            pager.reset();
            apply({ status: value });
          }}
        />
      </div>
      <ErrorText error={list.error} retry={list.reload} />
      <Loading when={list.loading && !list.data} />
      <DataTable
        rows={list.data?.data}
        rowKey={(dispute) => dispute.id}
        empty={t('disputes.none')}
        columns={[
          {
            label: t('common.amount'),
            num: true,
            cell: (dispute) => <Link to={`/disputes/${dispute.id}`}>{formatAmount(dispute.amount, dispute.currency)}</Link>,
          },
          { label: t('common.status'), cell: (dispute) => <Status value={dispute.status} /> },
          { label: t('disputes.due'), cell: (dispute) => (RULED.includes(dispute.status) ? '—' : formatDate(dispute.due_by)) },
          {
            label: t('disputes.payment'),
            wide: true,
            cell: (dispute) => (
              <Link to={`/payments/${dispute.payment_intent}`}>
                <Breakable text={dispute.payment_intent} code />
              </Link>
            ),
          },
          { label: t('disputes.opened'), wide: true, cell: (dispute) => formatDate(dispute.opened_at) },
        ]}
      />
      <Pager pager={pager} hasMore={list.data?.has_more ?? false} lastId={list.data?.data.at(-1)?.id} />
    </>
  );
}

/** The dispute, its due date and hold, and the evidence: editable until it is ruled. */
export function DisputeDetailPage(props: { id: string }) {
  const { mode, can } = useConsole();
  const dispute = useResource(() => api<Dispute>('GET', `/disputes/${encodeURIComponent(props.id)}`, { query: { mode } }), [props.id, mode]);
  if (dispute.error) return <PageError error={dispute.error} retry={dispute.reload} back={{ to: '/disputes', label: t('disputes.title') }} />;
  const d = dispute.data;
  if (!d) return <Loading when />;
  const ruled = RULED.includes(d.status);
  // What the dispute meant for the balance: held while open, taken when lost (the net it held and the fee), returned when won.
  const money: (readonly [string, string])[] =
    d.status === 'lost'
      ? [
          [t('disputes.taken'), formatMoney(d.held ?? (d.fee ? { amount: 0, currency: d.fee.currency } : undefined))],
          [t('disputes.fee'), formatMoney(d.fee)],
          ...(d.held && d.fee && d.held.currency === d.fee.currency
            ? [[t('disputes.takenTotal'), formatAmount(BigInt(d.held.amount) + BigInt(d.fee.amount), d.fee.currency)] as const]
            : []),
        ]
      : d.status === 'won'
        ? [[t('disputes.returned'), formatMoney(d.held)]]
        : [
            [t('disputes.held'), formatMoney(d.held)],
            [t('disputes.due'), formatDate(d.due_by)],
          ];
  return (
    <>
      <p>
        <Link to="/disputes">← {t('disputes.title')}</Link>
      </p>
      <h1>
        {t('disputes.one')} {formatAmount(d.amount, d.currency)} <Status value={d.status} />
      </h1>
      {d.status === 'lost' ? <p class="notice notice-bad">{t('disputes.lostSummary', { amount: money[money.length - 1]?.[1] ?? '' })}</p> : null}
      {d.status === 'won' ? <p class="notice notice-good">{t('disputes.wonSummary')}</p> : null}
      <Facts
        rows={[
          [t('common.id'), <Breakable key="id" text={d.id} code />],
          [
            t('disputes.payment'),
            <Link key="pi" to={`/payments/${d.payment_intent}`}>
              <Breakable text={d.payment_intent} code />
            </Link>,
          ],
          [t('disputes.reason'), d.reason ? t(`disputeReason.${d.reason}`, {}, '') || <span translate={false}>{d.reason}</span> : undefined],
          ...money,
          [t('disputes.opened'), formatDate(d.opened_at)],
          ...(ruled ? ([[t('disputes.closed'), formatDate(d.closed_at)]] as const) : []),
        ]}
      />
      <h2>{t('disputes.evidence')}</h2>
      {ruled || !can('disputes.write') ? (
        <>
          {ruled ? <p class="muted">{t('disputes.ruled')}</p> : null}
          {Object.keys(d.evidence).length === 0 ? (
            <p class="muted">{t('disputes.noEvidence')}</p>
          ) : (
            <Facts rows={Object.entries(d.evidence).map(([key, value]) => [key, value] as const)} />
          )}
        </>
      ) : (
        <EvidenceForm dispute={d} onSaved={dispute.reload} />
      )}
    </>
  );
}

function EvidenceForm(props: { dispute: Dispute; onSaved: () => void }) {
  const { mode } = useConsole();
  const { [TEXT_KEY]: savedText = '', ...savedPairs } = props.dispute.evidence;
  const [text, setText] = useState(savedText);
  const [pairs, setPairs] = useState<[string, string][]>([...Object.entries(savedPairs), ['', '']]);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const setPair = (index: number, pair: [string, string]) => setPairs(pairs.map((old, at) => (at === index ? pair : old)));
  const submit = async (event: Event) => {
    event.preventDefault();
    const evidence: Record<string, string> = {};
    for (const [key, value] of pairs) if (key.trim()) evidence[key.trim()] = value;
    if (text.trim()) evidence[TEXT_KEY] = text;
    setSaved(false);
    const done = await action.run(async () => {
      await api('POST', `/disputes/${encodeURIComponent(props.dispute.id)}/evidence`, {
        query: { mode },
        idempotencyKey: newIdempotencyKey(),
        body: { evidence },
      });
    });
    if (done) {
      setSaved(true);
      props.onSaved();
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)}>
      <Field label={t('disputes.text')} id="evidence-text">
        <textarea id="evidence-text" rows={5} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </Field>
      <fieldset>
        <legend>{t('disputes.pairs')}</legend>
        {pairs.map(([key, value], index) => (
          <div class="pair" key={index}>
            <Field label={t('disputes.key')} id={`evidence-key-${index}`}>
              <input id={`evidence-key-${index}`} value={key} onInput={(e) => setPair(index, [e.currentTarget.value, value])} />
            </Field>
            <Field label={t('disputes.value')} id={`evidence-value-${index}`}>
              <input id={`evidence-value-${index}`} value={value} onInput={(e) => setPair(index, [key, e.currentTarget.value])} />
            </Field>
          </div>
        ))}
        <button type="button" class="secondary" onClick={() => setPairs([...pairs, ['', '']])}>
          {t('disputes.addPair')}
        </button>
      </fieldset>
      <ErrorText error={action.error} />
      {saved ? <p role="status">{t('disputes.saved')}</p> : null}
      <button type="submit" disabled={action.busy}>
        {t('disputes.submit')}
      </button>
    </form>
  );
}
