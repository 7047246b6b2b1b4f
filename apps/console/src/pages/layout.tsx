import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
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
  // On a phone the menu folds behind one button, so the header stays a few lines high.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [props.path]);
  const account = (
    <div class="account">
      <span class="who">
        <span translate={false}>{session.email}</span> · {t(`role.${session.role}`)}
      </span>
      <button type="button" class="secondary" onClick={props.onSignOut}>
        {t('nav.signOut')}
      </button>
    </div>
  );
  return (
    <>
      <a class="skip" href="#main">
        {t('nav.skip')}
      </a>
      <header class="top">
        <span class="brand" translate={false}>
          {settings.business_name}
        </span>
        <button type="button" class="secondary menu-toggle" aria-expanded={menuOpen} aria-controls="console-menu" onClick={() => setMenuOpen(!menuOpen)}>
          {t('nav.menu')}
        </button>
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
            <span id="live-locked" class="hint live-locked">
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
              <option key={code} value={code} lang={code}>
                {t(`language.${code}`)}
              </option>
            ))}
          </select>
        </label>
        <div class="account-wide">{account}</div>
      </header>
      {mode === 'test' ? (
        <p class="test-banner" role="note">
          {t('mode.testBanner')}
        </p>
      ) : null}
      <div class="frame">
        <nav id="console-menu" class={menuOpen ? 'side open' : 'side'} aria-label={t('nav.label')}>
          <ul>
            {NAV.map(([to, key]) => (
              <li key={to}>
                <Link to={to} aria-current={props.path === to || props.path.startsWith(`${to}/`) ? 'page' : undefined}>
                  {t(key)}
                </Link>
              </li>
            ))}
          </ul>
          <div class="account-narrow">{account}</div>
        </nav>
        <main id="main" tabIndex={-1}>
          {props.children}
        </main>
      </div>
    </>
  );
}
