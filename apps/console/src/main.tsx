import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, whenSignedOut } from './api';
import { useLanguage } from './i18n';
import { DisputeDetailPage, DisputesPage } from './pages/disputes';
import { BalancePage, SettlementDetailPage } from './pages/balance';
import { ApiKeysPage } from './pages/api-keys';
import { EventDetailPage, EventsPage } from './pages/events';
import { Layout } from './pages/layout';
import { PaymentDetailPage, PaymentsPage } from './pages/payments';
import { SettingsPage } from './pages/settings';
import { ClaimPage, SignedOutPage, SignInPage } from './pages/sign-in';
import { TeamPage } from './pages/team';
import { WebhookDeliveryPage, WebhookEndpointPage, WebhooksPage } from './pages/webhooks';
import { match, navigate, useLocation } from './router';
import { ConsoleContext, storedMode, storeMode, type ConsoleState } from './state';
import type { Mode, Session, Settings } from './types';
import { ErrorText, Loading, NotFoundPage } from './ui/kit';
import { asApiError } from './ui/hooks';
import type { ApiError } from './api';

const PAGES: readonly (readonly [string, (params: Record<string, string>) => preact.JSX.Element])[] = [
  ['/payments', () => <PaymentsPage />],
  ['/payments/:id', (p) => <PaymentDetailPage id={p.id} />],
  ['/disputes', () => <DisputesPage />],
  ['/disputes/:id', (p) => <DisputeDetailPage id={p.id} />],
  ['/balance', () => <BalancePage />],
  ['/settlements/:id', (p) => <SettlementDetailPage id={p.id} />],
  ['/developers', () => <ApiKeysPage />],
  ['/webhooks', () => <WebhooksPage />],
  ['/webhooks/:id', (p) => <WebhookEndpointPage id={p.id} />],
  ['/webhooks/:endpoint/deliveries/:id', (p) => <WebhookDeliveryPage endpoint={p.endpoint} id={p.id} />],
  ['/events', () => <EventsPage />],
  ['/events/:id', (p) => <EventDetailPage id={p.id} />],
  ['/team', () => <TeamPage />],
  ['/settings', () => <SettingsPage />],
];

type Phase =
  { kind: 'loading' } | { kind: 'signed-out'; expired: boolean } | { kind: 'failed'; error: ApiError } | { kind: 'in'; session: Session; settings: Settings };

function App() {
  useLanguage();
  const { path } = useLocation();
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [mode, setMode] = useState<Mode>(storedMode());
  const [settingsTick, setSettingsTick] = useState(0);

  const load = async () => {
    try {
      const session = await api<Session>('GET', '/session');
      const settings = await api<Settings>('GET', '/settings');
      setPhase({ kind: 'in', session, settings });
    } catch (error) {
      const failure = asApiError(error);
      setPhase(failure.status === 401 ? { kind: 'signed-out', expired: false } : { kind: 'failed', error: failure });
    }
  };
  useEffect(() => {
    // Only a session that was live can expire; before sign-in a 401 is just "not signed in".
    whenSignedOut(() =>
      setPhase((previous) => {
        if (previous.kind !== 'in') return previous;
        navigate('/signed-out', { replace: true });
        return { kind: 'signed-out', expired: true };
      }),
    );
    void load();
  }, [settingsTick]);

  if (path === '/claim') return <ClaimPage onSignedIn={() => signedIn(setPhase, load)} />;
  if (phase.kind === 'loading') return <Loading when />;
  if (phase.kind === 'failed')
    return (
      <main class="auth" id="main">
        <ErrorText error={phase.error} retry={() => setSettingsTick((tick) => tick + 1)} />
      </main>
    );
  if (phase.kind === 'signed-out' || path === '/sign-in' || path === '/signed-out') {
    if (path === '/signed-out') return <SignedOutPage expired={phase.kind === 'signed-out' && phase.expired} />;
    return <SignInPage onSignedIn={() => signedIn(setPhase, load)} />;
  }

  const { session, settings } = phase;
  // Live stays test until the review opens live mode, whatever was chosen before.
  const shownMode: Mode = settings.live_enabled ? mode : 'test';
  const state: ConsoleState = {
    session,
    settings,
    mode: shownMode,
    setMode: (next) => {
      storeMode(next);
      setMode(next);
    },
    can: (action) => session.permissions.includes(action),
    reloadSettings: () => setSettingsTick((tick) => tick + 1),
  };
  if (path === '/' || path === '') {
    navigate('/payments', { replace: true });
    return null;
  }
  // A path that names no page is said to be one (the server answered it 404), never shown as another page.
  const page = PAGES.map(([pattern, view]) => [match(pattern, path), view] as const).find(([params]) => params !== undefined);
  return (
    <ConsoleContext.Provider value={state}>
      <Layout path={path} onSignOut={() => void signOut(setPhase)}>
        {page ? page[1](page[0] ?? {}) : <NotFoundPage />}
      </Layout>
    </ConsoleContext.Provider>
  );
}

function signedIn(setPhase: (phase: Phase) => void, load: () => Promise<void>): void {
  setPhase({ kind: 'loading' });
  navigate('/payments', { replace: true });
  void load();
}

async function signOut(setPhase: (phase: Phase) => void): Promise<void> {
  await api('DELETE', '/session').catch(() => undefined);
  setPhase({ kind: 'signed-out', expired: false });
  navigate('/signed-out', { replace: true });
}

document.documentElement.lang = document.documentElement.lang || 'en';
const root = document.getElementById('app');
if (root) render(<App />, root);
