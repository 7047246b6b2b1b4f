import type { ComponentChildren } from 'preact';
import { LANGUAGES, language, setLanguage, t } from '../i18n';
import { useConsole } from '../state';
import { Link } from '../ui/kit';

const NAV: readonly (readonly [string, string])[] = [
  ['/payments', 'nav.payments'],
  ['/disputes', 'nav.disputes'],
  ['/balance', 'nav.balance'],
  ['/developers', 'nav.developers'],
  ['/webhooks', 'nav.webhooks'],
  ['/events', 'nav.events'],
  ['/team', 'nav.team'],
  ['/settings', 'nav.settings'],
];

/** Every signed-in page: the account, the test/live switch, the language, the menu, signing out. */
export function Layout(props: { path: string; onSignOut: () => void; children: ComponentChildren }) {
  const { session, settings, mode, setMode } = useConsole();
  return (
    <>
      <a class="skip" href="#main">
        {t('nav.skip')}
      </a>
      <header class="top">
        <span class="brand">{settings.business_name}</span>
        <fieldset class="mode">
          <legend class="visually-hidden">{t('mode.label')}</legend>
          <label>
            <input type="radio" name="mode" value="test" checked={mode === 'test'} onChange={() => setMode('test')} /> {t('mode.test')}
          </label>
          <label title={settings.live_enabled ? undefined : t('mode.liveLocked')}>
            <input
              type="radio"
              name="mode"
              value="live"
              checked={mode === 'live'}
              disabled={!settings.live_enabled}
              aria-describedby={settings.live_enabled ? undefined : 'live-locked'}
              onChange={() => setMode('live')}
            />{' '}
            {t('mode.live')}
          </label>
          {settings.live_enabled ? null : (
            <span id="live-locked" class="hint">
              {t('mode.liveLocked')}
            </span>
          )}
        </fieldset>
        <label class="language">
          <span class="visually-hidden">{t('nav.language')}</span>
          <select
            value={language()}
            onChange={(e) => {
              const chosen = LANGUAGES.find((code) => code === e.currentTarget.value);
              if (chosen) setLanguage(chosen);
            }}
          >
            {LANGUAGES.map((code) => (
              <option key={code} value={code}>
                {t(`language.${code}`)}
              </option>
            ))}
          </select>
        </label>
        <span class="who">
          {session.email} · {t(`role.${session.role}`)}
        </span>
        <button type="button" class="secondary" onClick={props.onSignOut}>
          {t('nav.signOut')}
        </button>
      </header>
      {mode === 'test' ? (
        <p class="test-banner" role="note">
          {t('mode.testBanner')}
        </p>
      ) : null}
      <div class="frame">
        <nav class="side" aria-label={t('nav.label')}>
          <ul>
            {NAV.map(([to, key]) => (
              <li key={to}>
                <Link to={to} aria-current={props.path === to || props.path.startsWith(`${to}/`) ? 'page' : undefined}>
                  {t(key)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          {props.children}
        </main>
      </div>
    </>
  );
}
