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
          [
            t('common.id'),
            <code key="id" translate={false}>
              {settings.id}
            </code>,
          ],
          [t('common.status'), t(`status.${settings.status}`, {}, settings.status)],
          [t('settings.kyb'), t(`kyb.${settings.kyb_status}`, {}, settings.kyb_status)],
          [t('settings.live'), settings.live_enabled ? t('common.yes') : t('common.no')],
          [
            t('settings.currency'),
            <span key="currency" translate={false}>
              {settings.settlement_currency}
            </span>,
          ],
          [t('settings.delay'), t('settings.days', { n: settings.settlement_delay_days })],
        ]}
      />
      <PayoutMethods />
    </>
  );
}

/** Account numbers are 6 to 34 letters and digits (spaces and hyphens are ignored), bank codes 1 to 32 letters and digits: the API's rules. */
const ACCOUNT_NUMBER = /^[A-Za-z0-9]{6,34}$/;
const BANK_CODE = /^[A-Za-z0-9]{1,32}$/;

/** The fields of a new destination the API would refuse, checked before a one-time code is asked for. */
function destinationProblems(draft: { account_holder: string; bank_code: string; account_number: string }): string[] {
  const problems: string[] = [];
  if (!draft.account_holder.trim()) problems.push(t('payouts.holderMissing'));
  if (!BANK_CODE.test(draft.bank_code)) problems.push(t('payouts.bankInvalid'));
  if (!ACCOUNT_NUMBER.test(draft.account_number.replace(/[\s-]/g, ''))) problems.push(t('payouts.numberInvalid'));
  return problems;
}

/**
 * Masked destinations, the default marked, the live hold after a change shown; changes take a
 * one-time code. Test mode adds a simulated destination (no money leaves), live mode a bank
 * account; the fields are checked before the code is asked for, so a refusal never wastes one.
 */
function PayoutMethods() {
  const { mode, can, settings } = useConsole();
  const methods = useResource(() => api<List<PayoutMethod>>('GET', '/payout_methods', { query: { mode } }), [mode]);
  const [adding, setAdding] = useState(false);
  const [makingDefault, setMakingDefault] = useState<PayoutMethod | undefined>();
  const [draft, setDraft] = useState({ account_holder: '', bank_code: '', account_number: '' });
  const [problems, setProblems] = useState<string[]>([]);
  const writable = can('payout_methods.write');
  const type = mode === 'live' ? 'bank_account' : 'simulated';
  return (
    <>
      <h2>{t('payouts.title')}</h2>
      <p class="muted">{mode === 'live' ? t('payouts.hold') : t('payouts.testNote')}</p>
      <ErrorText error={methods.error} retry={methods.reload} />
      <DataTable
        rows={methods.data?.data}
        rowKey={(method) => method.id}
        empty={t('payouts.none')}
        columns={[
          { label: t('payouts.holder'), cell: (method) => <span translate={false}>{method.account_holder}</span> },
          {
            label: t('payouts.account'),
            cell: (method) => (
              <>
                <span translate={false}>{method.bank_code}</span> <code translate={false}>{method.account_number}</code>{' '}
                {method.default ? <span class="badge">{t('payouts.default')}</span> : null}
              </>
            ),
          },
          { label: t('payouts.type'), cell: (method) => t(`payouts.type.${method.type}`, {}, method.type) },
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
            const found = destinationProblems(draft);
            setProblems(found);
            if (found.length === 0) setAdding(true);
          }}
          noValidate
        >
          <fieldset>
            <legend>{mode === 'live' ? t('payouts.addBank') : t('payouts.addSimulated')}</legend>
            <Field label={t('payouts.holder')} id="payout-holder">
              <input id="payout-holder" required value={draft.account_holder} onInput={(e) => setDraft({ ...draft, account_holder: e.currentTarget.value })} />
            </Field>
            <Field label={t('payouts.bank')} id="payout-bank" hint={t('payouts.bankHint')}>
              <input
                id="payout-bank"
                required
                aria-describedby="payout-bank-hint"
                value={draft.bank_code}
                onInput={(e) => setDraft({ ...draft, bank_code: e.currentTarget.value.trim() })}
              />
            </Field>
            <Field label={t('payouts.number')} id="payout-number" hint={t('payouts.numberHint')}>
              <input
                id="payout-number"
                required
                autocomplete="off"
                aria-describedby="payout-number-hint"
                value={draft.account_number}
                onInput={(e) => setDraft({ ...draft, account_number: e.currentTarget.value.trim() })}
              />
            </Field>
            <p class="hint">{t('payouts.currencyFixed', { currency: settings.settlement_currency })}</p>
            {problems.length > 0 ? (
              <ul class="error" role="alert">
                {problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            ) : null}
            <button type="submit">{mode === 'live' ? t('payouts.addBank') : t('payouts.addSimulated')}</button>
          </fieldset>
        </form>
      ) : null}
      <StepUpDialog
        title={mode === 'live' ? t('payouts.addBank') : t('payouts.addSimulated')}
        open={adding}
        onClose={() => setAdding(false)}
        onConfirm={async (code) => {
          await api('POST', '/payout_methods', { query: { mode }, body: { type, currency: settings.settlement_currency, ...draft, code } });
          setDraft({ account_holder: '', bank_code: '', account_number: '' });
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
