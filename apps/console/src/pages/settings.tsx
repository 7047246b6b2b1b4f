import { useState } from 'preact/hooks';
import { api } from '../api';
import { formatDate } from '../format';
import { t } from '../i18n';
import { useConsole } from '../state';
import type { List, PayoutMethod } from '../types';
import { useAction, useResource } from '../ui/hooks';
import { DataTable, ErrorText, Facts, Field, Status } from '../ui/kit';
import { StepUpDialog } from '../ui/step-up';

const SCHEDULES = ['daily', 'weekly', 'monthly', 'manual'];

/** The account's editable settings, what the operator set, and the payout destinations. */
export function SettingsPage() {
  const { settings, can, reloadSettings } = useConsole();
  const [draft, setDraft] = useState({
    business_name: settings.business_name,
    support_email: settings.support_email ?? '',
    statement_descriptor: settings.statement_descriptor ?? '',
    settlement_schedule: settings.settlement_schedule,
  });
  const action = useAction();
  const [saved, setSaved] = useState(false);
  const writable = can('settings.write');
  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const done = await action.run(async () => {
      await api('PATCH', '/settings', {
        body: {
          business_name: draft.business_name,
          support_email: draft.support_email || null,
          statement_descriptor: draft.statement_descriptor || null,
          settlement_schedule: draft.settlement_schedule,
        },
      });
    });
    if (done) {
      setSaved(true);
      reloadSettings();
    }
  };
  return (
    <>
      <h1>{t('settings.title')}</h1>
      <form onSubmit={(event) => void submit(event)}>
        <fieldset disabled={!writable}>
          <legend>{t('settings.account')}</legend>
          <Field label={t('settings.businessName')} id="business-name">
            <input id="business-name" required value={draft.business_name} onInput={(e) => setDraft({ ...draft, business_name: e.currentTarget.value })} />
          </Field>
          <Field label={t('settings.supportEmail')} id="support-email">
            <input
              id="support-email"
              type="email"
              value={draft.support_email}
              onInput={(e) => setDraft({ ...draft, support_email: e.currentTarget.value.trim() })}
            />
          </Field>
          <Field label={t('settings.descriptor')} id="descriptor">
            <input id="descriptor" value={draft.statement_descriptor} onInput={(e) => setDraft({ ...draft, statement_descriptor: e.currentTarget.value })} />
          </Field>
          <Field label={t('settings.schedule')} id="schedule">
            <select id="schedule" value={draft.settlement_schedule} onChange={(e) => setDraft({ ...draft, settlement_schedule: e.currentTarget.value })}>
              {SCHEDULES.map((schedule) => (
                <option key={schedule} value={schedule}>
                  {t(`schedule.${schedule}`)}
                </option>
              ))}
            </select>
          </Field>
          <ErrorText error={action.error} />
          {saved ? <p role="status">{t('settings.saved')}</p> : null}
          {writable ? (
            <button type="submit" disabled={action.busy}>
              {t('common.save')}
            </button>
          ) : null}
        </fieldset>
      </form>
      <h2>{t('settings.operator')}</h2>
      <Facts
        rows={[
          [t('common.id'), <code key="id">{settings.id}</code>],
          [t('common.status'), settings.status],
          [t('settings.kyb'), settings.kyb_status],
          [t('settings.live'), settings.live_enabled ? t('common.yes') : t('common.no')],
          [t('settings.currency'), settings.settlement_currency],
          [t('settings.delay'), t('settings.days', { n: settings.settlement_delay_days })],
        ]}
      />
      <PayoutMethods />
    </>
  );
}

/** Masked destinations, the default marked, the live hold after a change shown; changes take a one-time code. */
function PayoutMethods() {
  const { mode, can, settings } = useConsole();
  const methods = useResource(() => api<List<PayoutMethod>>('GET', '/payout_methods', { query: { mode } }), [mode]);
  const [adding, setAdding] = useState(false);
  const [makingDefault, setMakingDefault] = useState<PayoutMethod | undefined>();
  const [draft, setDraft] = useState({ currency: settings.settlement_currency, account_holder: '', bank_code: '', account_number: '' });
  const writable = can('payout_methods.write');
  return (
    <>
      <h2>{t('payouts.title')}</h2>
      <p class="muted">{t('payouts.hold')}</p>
      <ErrorText error={methods.error} />
      <DataTable
        rows={methods.data?.data}
        rowKey={(method) => method.id}
        empty={t('payouts.none')}
        columns={[
          { label: t('payouts.holder'), cell: (method) => method.account_holder },
          {
            label: t('payouts.account'),
            cell: (method) => (
              <>
                {method.bank_code} <code>{method.account_number}</code> {method.default ? <span class="badge">{t('payouts.default')}</span> : null}
              </>
            ),
          },
          { label: t('balance.currency'), cell: (method) => method.currency },
          { label: t('common.status'), cell: (method) => <Status value={method.status} /> },
          { label: t('payouts.holdUntil'), wide: true, cell: (method) => formatDate(method.hold_until) },
          ...(writable
            ? [
                {
                  label: t('common.actions'),
                  cell: (method: PayoutMethod) =>
                    method.default ? null : (
                      <button type="button" class="secondary" onClick={() => setMakingDefault(method)}>
                        {t('payouts.makeDefault')}
                      </button>
                    ),
                },
              ]
            : []),
        ]}
      />
      {writable ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setAdding(true);
          }}
        >
          <fieldset>
            <legend>{t('payouts.add')}</legend>
            <Field label={t('payouts.holder')} id="payout-holder">
              <input id="payout-holder" required value={draft.account_holder} onInput={(e) => setDraft({ ...draft, account_holder: e.currentTarget.value })} />
            </Field>
            <Field label={t('payouts.bank')} id="payout-bank">
              <input id="payout-bank" required value={draft.bank_code} onInput={(e) => setDraft({ ...draft, bank_code: e.currentTarget.value.trim() })} />
            </Field>
            <Field label={t('payouts.number')} id="payout-number">
              <input
                id="payout-number"
                required
                autocomplete="off"
                inputMode="numeric"
                value={draft.account_number}
                onInput={(e) => setDraft({ ...draft, account_number: e.currentTarget.value.trim() })}
              />
            </Field>
            <Field label={t('balance.currency')} id="payout-currency">
              <input
                id="payout-currency"
                required
                pattern="[A-Z]{3}"
                value={draft.currency}
                onInput={(e) => setDraft({ ...draft, currency: e.currentTarget.value.trim().toUpperCase() })}
              />
            </Field>
            <button type="submit">{t('payouts.add')}</button>
          </fieldset>
        </form>
      ) : null}
      <StepUpDialog
        title={t('payouts.add')}
        open={adding}
        onClose={() => setAdding(false)}
        onConfirm={async (code) => {
          await api('POST', '/payout_methods', { query: { mode }, body: { type: 'bank_account', ...draft, code } });
          setDraft({ ...draft, account_holder: '', bank_code: '', account_number: '' });
          methods.reload();
        }}
      />
      <StepUpDialog
        title={t('payouts.makeDefault')}
        open={makingDefault !== undefined}
        onClose={() => setMakingDefault(undefined)}
        onConfirm={async (code) => {
          if (makingDefault) await api('POST', `/payout_methods/${encodeURIComponent(makingDefault.id)}/default`, { query: { mode }, body: { code } });
          methods.reload();
        }}
      >
        <p>{t('payouts.defaultConfirm', { account: makingDefault?.account_number ?? '' })}</p>
      </StepUpDialog>
    </>
  );
}
