import { useState } from 'preact/hooks';
import { api } from '../api';
import { formatDate } from '../format';
import { t } from '../i18n';
import { useConsole } from '../state';
import { ROLES, type List, type Role, type User } from '../types';
import { useResource } from '../ui/hooks';
import { DataTable, ErrorText, Field, Loading, Status } from '../ui/kit';
import { StepUpDialog } from '../ui/step-up';

type Change = { kind: 'add' } | { kind: 'role'; user: User; role: Role } | { kind: 'status'; user: User } | { kind: 'reset'; user: User };

/** Members and roles; every change is confirmed with the acting person's one-time code. */
export function TeamPage() {
  const { session, can } = useConsole();
  const users = useResource(() => api<List<User>>('GET', '/users'), []);
  const [change, setChange] = useState<Change | undefined>();
  const [draft, setDraft] = useState({ email: '', name: '', password: '', role: 'viewer' as Role });
  const writable = can('users.write');
  // Nobody changes their own row; only an owner touches owners (the API refuses the rest too).
  const mayChange = (user: User) => writable && user.id !== session.id && (session.role === 'owner' || user.role !== 'owner');
  const rolesOffered = ROLES.filter((role) => session.role === 'owner' || role !== 'owner');

  const confirm = async (code: string) => {
    if (!change) return;
    if (change.kind === 'add') {
      await api('POST', '/users', {
        body: { email: draft.email, password: draft.password, role: draft.role, ...(draft.name ? { name: draft.name } : {}), code },
      });
      setDraft({ email: '', name: '', password: '', role: 'viewer' });
    } else if (change.kind === 'role') {
      await api('PATCH', `/users/${encodeURIComponent(change.user.id)}`, { body: { role: change.role, code } });
    } else if (change.kind === 'status') {
      await api('PATCH', `/users/${encodeURIComponent(change.user.id)}`, { body: { status: change.user.status === 'active' ? 'disabled' : 'active', code } });
    } else {
      await api('POST', `/users/${encodeURIComponent(change.user.id)}/mfa`, { body: { code } });
    }
    users.reload();
  };

  return (
    <>
      <h1>{t('team.title')}</h1>
      <ErrorText error={users.error} />
      <Loading when={users.loading && !users.data} />
      <DataTable
        rows={users.data?.data}
        rowKey={(user) => user.id}
        empty={t('team.none')}
        columns={[
          { label: t('team.member'), cell: (user) => <span translate={false}>{user.name ? `${user.name} · ${user.email}` : user.email}</span> },
          {
            label: t('team.role'),
            cell: (user) =>
              mayChange(user) ? (
                <select
                  aria-label={t('team.roleOf', { email: user.email })}
                  value={user.role}
                  onChange={(e) => {
                    const role = ROLES.find((candidate) => candidate === e.currentTarget.value);
                    if (role && role !== user.role) setChange({ kind: 'role', user, role });
                  }}
                >
                  {rolesOffered.map((role) => (
                    <option key={role} value={role}>
                      {t(`role.${role}`)}
                    </option>
                  ))}
                </select>
              ) : (
                t(`role.${user.role}`)
              ),
          },
          { label: t('common.status'), cell: (user) => <Status value={user.status} /> },
          { label: t('team.mfa'), wide: true, cell: (user) => (user.mfa_enabled ? t('team.mfaOn') : t('team.mfaOff')) },
          { label: t('common.created'), wide: true, cell: (user) => formatDate(user.created) },
          ...(writable
            ? [
                {
                  label: t('common.actions'),
                  cell: (user: User) =>
                    mayChange(user) ? (
                      <div class="row-actions">
                        <button type="button" class="secondary" onClick={() => setChange({ kind: 'status', user })}>
                          {user.status === 'active' ? t('team.disable') : t('team.enable')}
                        </button>
                        {can('users.reset_mfa') ? (
                          <button type="button" class="secondary" onClick={() => setChange({ kind: 'reset', user })}>
                            {t('team.resetMfa')}
                          </button>
                        ) : null}
                      </div>
                    ) : null,
                },
              ]
            : []),
        ]}
      />

      {writable ? (
        <>
          <h2>{t('team.add')}</h2>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              setChange({ kind: 'add' });
            }}
          >
            <Field label={t('signIn.email')} id="member-email">
              <input id="member-email" type="email" required value={draft.email} onInput={(e) => setDraft({ ...draft, email: e.currentTarget.value.trim() })} />
            </Field>
            <Field label={t('team.name')} id="member-name">
              <input id="member-name" value={draft.name} onInput={(e) => setDraft({ ...draft, name: e.currentTarget.value })} />
            </Field>
            <Field label={t('team.password')} id="member-password" hint={t('team.passwordHint')}>
              <input
                id="member-password"
                type="password"
                autocomplete="new-password"
                required
                minLength={12}
                aria-describedby="member-password-hint"
                value={draft.password}
                onInput={(e) => setDraft({ ...draft, password: e.currentTarget.value })}
              />
            </Field>
            <Field label={t('team.role')} id="member-role">
              <select
                id="member-role"
                value={draft.role}
                onChange={(e) => setDraft({ ...draft, role: ROLES.find((role) => role === e.currentTarget.value) ?? 'viewer' })}
              >
                {rolesOffered.map((role) => (
                  <option key={role} value={role}>
                    {t(`role.${role}`)}
                  </option>
                ))}
              </select>
            </Field>
            <button type="submit">{t('team.add')}</button>
          </form>
        </>
      ) : null}

      <StepUpDialog title={change ? changeTitle(change) : ''} open={change !== undefined} onClose={() => setChange(undefined)} onConfirm={confirm} />
    </>
  );
}

function changeTitle(change: Change): string {
  switch (change.kind) {
    case 'add':
      return t('team.add');
    case 'role':
      return t('team.changeRole', { email: change.user.email, role: t(`role.${change.role}`) });
    case 'status':
      return change.user.status === 'active' ? t('team.disableOne', { email: change.user.email }) : t('team.enableOne', { email: change.user.email });
    case 'reset':
      return t('team.resetOne', { email: change.user.email });
  }
}
