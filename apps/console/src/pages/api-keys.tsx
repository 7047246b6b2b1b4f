import { useState } from 'preact/hooks';
import { api } from '../api';
import { formatDate } from '../format';
import { t } from '../i18n';
import { useConsole } from '../state';
import { KEY_RESOURCES, type ApiKey, type KeyAccess, type KeyPermissions, type KeyResource, type List, type Mode, type SigningKey } from '../types';
import { useAction, useResource } from '../ui/hooks';
import { Chunked, ConfirmDialog, DataTable, Dialog, DialogActions, ErrorText, Field, Loading, SecretOnce } from '../ui/kit';

/** The keys that work (mint with the secret shown once, revoke after a confirmation: it leaves the list) and signing keys. */
export function ApiKeysPage() {
  const { can, settings } = useConsole();
  const keys = useResource(() => api<List<ApiKey>>('GET', '/api_keys'), []);
  const [minted, setMinted] = useState<ApiKey | undefined>();
  const [minting, setMinting] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | undefined>();
  const writable = can('api_keys.write');
  return (
    <>
      <h1>{t('keys.title')}</h1>
      {writable ? (
        <button type="button" onClick={() => setMinting(true)}>
          {t('keys.mint')}
        </button>
      ) : null}
      {minted?.secret ? <SecretOnce label={t('keys.secret', { prefix: minted.prefix })} value={minted.secret} /> : null}
      <Dialog title={t('keys.mint')} open={minting} onClose={() => setMinting(false)}>
        <MintForm
          liveEnabled={settings.live_enabled}
          onCancel={() => setMinting(false)}
          onMinted={(key) => {
            setMinting(false);
            setMinted(key);
            keys.reload();
          }}
        />
      </Dialog>
      <ErrorText error={keys.error} retry={keys.reload} />
      <Loading when={keys.loading && !keys.data} />
      <DataTable
        rows={keys.data?.data}
        rowKey={(key) => key.id}
        empty={t('keys.none')}
        columns={[
          { label: t('keys.name'), cell: (key) => (key.name ? <span translate={false}>{key.name}</span> : '—') },
          { label: t('keys.prefix'), cell: (key) => <code translate={false}>{key.prefix}…</code> },
          { label: t('mode.label'), cell: (key) => t(`mode.${key.mode}`) },
          { label: t('keys.access'), cell: (key) => accessInWords(key) },
          { label: t('common.created'), wide: true, cell: (key) => formatDate(key.created) },
          ...(writable
            ? [
                {
                  label: t('common.actions'),
                  cell: (key: ApiKey) => (
                    <button type="button" class="danger" aria-label={t('keys.revokeOne', { prefix: key.prefix })} onClick={() => setRevoking(key)}>
                      {t('keys.revoke')}
                    </button>
                  ),
                },
              ]
            : []),
        ]}
      />
      <ConfirmDialog
        title={t('keys.revokeTitle')}
        message={t('keys.revokeConfirm', { prefix: revoking?.prefix ?? '' })}
        confirmLabel={t('keys.revoke')}
        open={revoking !== undefined}
        onClose={() => setRevoking(undefined)}
        onConfirm={async () => {
          if (revoking) await api('POST', `/api_keys/${encodeURIComponent(revoking.id)}/revoke`, { body: {} });
          // A revoked key's secret opens nothing any more: it leaves the page with the key.
          if (revoking && minted?.id === revoking.id) setMinted(undefined);
          keys.reload();
        }}
      />
      <SigningKeys />
    </>
  );
}

/** "Full access", or "Restricted: payment intents write, balance read" (in the API's order of resources). */
export function accessInWords(key: Pick<ApiKey, 'permissions'>): string {
  if (!key.permissions) return t('keys.full');
  const permissions = key.permissions;
  const list = KEY_RESOURCES.flatMap((resource) => {
    const access = permissions[resource];
    return access ? [t(`keys.grant.${access}`, { resource: t(`keys.resource.${resource}`) })] : [];
  });
  return t('keys.restricted', { list: list.join(', ') });
}

/**
 * The dashboard actions a person needs to give a live key write of a resource (docs/api-keys.md):
 * refunds, payouts and dispute evidence are owner and admin work, and a secret key has them all.
 */
const WRITE_NEEDS: Partial<Record<KeyResource, string>> = { refunds: 'refunds.write', settlements: 'settlements.write', disputes: 'disputes.write' };

function MintForm(props: { liveEnabled: boolean; onCancel: () => void; onMinted: (key: ApiKey) => void }) {
  const { mode: current, can } = useConsole();
  const [mode, setMode] = useState<Mode>(current);
  const [name, setName] = useState('');
  const [restricted, setRestricted] = useState(false);
  const [permissions, setPermissions] = useState<KeyPermissions>({});
  const action = useAction();
  // A live key cannot do more than the person minting it (the API refuses it with 403 insufficient_permissions).
  const mayWrite = (resource: KeyResource) => {
    const need = WRITE_NEEDS[resource];
    return mode !== 'live' || need === undefined || can(need);
  };
  const maySecret = KEY_RESOURCES.every(mayWrite);
  const limited = mode === 'live' && !maySecret;
  const kind = restricted || limited ? 'restricted' : 'secret';
  const changeMode = (next: Mode) => {
    setMode(next);
    // What the role may not give a live key drops to read, as the form then offers it.
    if (next !== 'live') return;
    const kept: KeyPermissions = {};
    for (const resource of KEY_RESOURCES) {
      const access = permissions[resource];
      const need = WRITE_NEEDS[resource];
      if (access) kept[resource] = access === 'write' && need !== undefined && !can(need) ? 'read' : access;
    }
    setPermissions(kept);
  };
  const choose = (chosen: KeyResource, value: string) => {
    const access: KeyAccess | undefined = value === 'read' || value === 'write' ? value : undefined;
    const next: KeyPermissions = {};
    for (const resource of KEY_RESOURCES) {
      const kept = resource === chosen ? access : permissions[resource];
      if (kept) next[resource] = kept;
    }
    setPermissions(next);
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = { mode, ...(name ? { name } : {}), ...(kind === 'restricted' ? { permissions } : {}) };
    await action.run(async () => props.onMinted(await api<ApiKey>('POST', '/api_keys', { body })));
  };
  return (
    <form onSubmit={(event) => void submit(event)}>
      <Field label={t('keys.name')} id="key-name">
        <input id="key-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </Field>
      <Field label={t('mode.label')} id="key-mode">
        <select id="key-mode" value={mode} onChange={(e) => changeMode(e.currentTarget.value === 'live' ? 'live' : 'test')}>
          <option value="test">{t('mode.test')}</option>
          <option value="live" disabled={!props.liveEnabled}>
            {t('mode.live')}
          </option>
        </select>
      </Field>
      <fieldset class="key-kind">
        <legend>{t('keys.kind')}</legend>
        <label>
          <input type="radio" name="key-kind" value="secret" checked={kind === 'secret'} disabled={!maySecret} onChange={() => setRestricted(false)} />{' '}
          {t('keys.kind.secret')}
        </label>
        <label>
          <input type="radio" name="key-kind" value="restricted" checked={kind === 'restricted'} onChange={() => setRestricted(true)} />{' '}
          {t('keys.kind.restricted')}
        </label>
        {limited ? <p class="hint">{t('keys.roleLimit')}</p> : null}
      </fieldset>
      {kind === 'restricted' ? (
        <fieldset class="key-permissions">
          <legend>{t('keys.permissions')}</legend>
          <p class="hint">{t('keys.permissionsHint')}</p>
          {KEY_RESOURCES.map((resource) => (
            <Field key={resource} label={t(`keys.resource.${resource}`)} id={`key-permission-${resource}`}>
              <select id={`key-permission-${resource}`} value={permissions[resource] ?? 'none'} onChange={(e) => choose(resource, e.currentTarget.value)}>
                <option value="none">{t('keys.access.none')}</option>
                <option value="read">{t('keys.access.read')}</option>
                <option value="write" disabled={!mayWrite(resource)}>
                  {t('keys.access.write')}
                </option>
              </select>
            </Field>
          ))}
        </fieldset>
      ) : null}
      <ErrorText error={action.error} />
      <DialogActions
        onCancel={props.onCancel}
        submitLabel={t('keys.mint')}
        disabled={action.busy || (kind === 'restricted' && Object.keys(permissions).length === 0)}
      />
    </form>
  );
}

function SigningKeys() {
  const { can } = useConsole();
  const keys = useResource(() => api<List<SigningKey>>('GET', '/signing_keys'), []);
  const [publicKey, setPublicKey] = useState('');
  const [name, setName] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const done = await action.run(async () => {
      await api('POST', '/signing_keys', { body: { public_key: publicKey, ...(name ? { name } : {}) } });
    });
    if (done) {
      setPublicKey('');
      setName('');
      keys.reload();
    }
  };
  return (
    <>
      <h2>{t('signing.title')}</h2>
      <p class="muted">{t('signing.intro')}</p>
      <ErrorText error={keys.error} />
      {keys.data && keys.data.data.length === 0 ? <p>{t('signing.none')}</p> : null}
      {keys.data && keys.data.data.length > 0 ? (
        <ul>
          {keys.data.data.map((key) => (
            <li key={key.id}>
              {key.name ? <span translate={false}>{key.name}</span> : <code translate={false}>{key.id}</code>} · <Chunked text={key.public_key} /> ·{' '}
              {formatDate(key.created)}
            </li>
          ))}
        </ul>
      ) : null}
      {can('signing_keys.write') ? (
        <form onSubmit={(event) => void submit(event)}>
          <Field label={t('signing.publicKey')} id="signing-key">
            <input id="signing-key" required value={publicKey} onInput={(e) => setPublicKey(e.currentTarget.value.trim())} />
          </Field>
          <Field label={t('keys.name')} id="signing-name">
            <input id="signing-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </Field>
          <ErrorText error={action.error} />
          <button type="submit" disabled={action.busy}>
            {t('signing.register')}
          </button>
        </form>
      ) : null}
    </>
  );
}
