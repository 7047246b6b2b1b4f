import { useEffect, useState } from 'preact/hooks';
import QRCode from 'qrcode';
import { api } from '../api';
import { t } from '../i18n';
import { Chunked, CodeField, ErrorText, Field, Link } from '../ui/kit';
import { useAction } from '../ui/hooks';
import type { MfaClaim } from '../types';

function AuthFrame(props: { title: string; children: preact.ComponentChildren }) {
  return (
    <main class="auth" id="main">
      <h1>{props.title}</h1>
      {props.children}
    </main>
  );
}

function Credentials(props: { email: string; password: string; onEmail: (email: string) => void; onPassword: (password: string) => void }) {
  return (
    <>
      <Field label={t('signIn.email')} id="email">
        <input id="email" type="email" autocomplete="username" required value={props.email} onInput={(e) => props.onEmail(e.currentTarget.value)} />
      </Field>
      <Field label={t('signIn.password')} id="password">
        <input
          id="password"
          type="password"
          autocomplete="current-password"
          required
          value={props.password}
          onInput={(e) => props.onPassword(e.currentTarget.value)}
        />
      </Field>
    </>
  );
}

/** Email, password and a one-time code; the API sets the session cookie. */
export function SignInPage(props: { onSignedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await action.run(() => api('POST', '/session', { body: { email, password, code } }))) props.onSignedIn();
  };
  return (
    <AuthFrame title={t('signIn.title')}>
      <form onSubmit={(event) => void submit(event)}>
        <Credentials email={email} password={password} onEmail={setEmail} onPassword={setPassword} />
        <CodeField id="code" label={t('signIn.code')} hint={t('signIn.codeHint')} value={code} onInput={setCode} />
        <ErrorText error={action.error} />
        <button type="submit" disabled={action.busy}>
          {t('signIn.submit')}
        </button>
      </form>
      <p>
        <Link to="/claim">{t('signIn.firstTime')}</Link>
      </p>
    </AuthFrame>
  );
}

/** The first sign-in of a new member: claim the second factor (QR and text), then sign in with a code. */
export function ClaimPage(props: { onSignedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [claim, setClaim] = useState<MfaClaim | undefined>();
  const [code, setCode] = useState('');
  const action = useAction();
  const claimFactor = async (event: Event) => {
    event.preventDefault();
    await action.run(async () => setClaim(await api<MfaClaim>('POST', '/mfa', { body: { email, password } })));
  };
  const signIn = async (event: Event) => {
    event.preventDefault();
    if (await action.run(() => api('POST', '/session', { body: { email, password, code } }))) props.onSignedIn();
  };
  if (!claim) {
    return (
      <AuthFrame title={t('claim.title')}>
        <p>{t('claim.intro')}</p>
        <form onSubmit={(event) => void claimFactor(event)}>
          <Credentials email={email} password={password} onEmail={setEmail} onPassword={setPassword} />
          <ErrorText error={action.error} />
          <button type="submit" disabled={action.busy}>
            {t('claim.submit')}
          </button>
        </form>
        <p>
          <Link to="/sign-in">{t('claim.haveCode')}</Link>
        </p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title={t('claim.scanTitle')}>
      <p>{t('claim.scan')}</p>
      <QrCode text={claim.otpauth_url} label={t('claim.qrLabel')} />
      <p>
        {t('claim.secretText')} <Chunked class="secret-value" text={claim.secret} />
      </p>
      <form onSubmit={(event) => void signIn(event)}>
        <CodeField id="code" label={t('signIn.code')} hint={t('signIn.codeHint')} value={code} onInput={setCode} />
        <ErrorText error={action.error} />
        <button type="submit" disabled={action.busy}>
          {t('signIn.submit')}
        </button>
      </form>
    </AuthFrame>
  );
}

/** Drawn here, in the page: the secret in the otpauth URL never goes to another service. */
function QrCode(props: { text: string; label: string }) {
  const [svg, setSvg] = useState('');
  useEffect(() => {
    QRCode.toString(props.text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }).then(setSvg, () => setSvg(''));
  }, [props.text]);
  return <div class="qr" role="img" aria-label={props.label} dangerouslySetInnerHTML={{ __html: svg }} />;
}

export function SignedOutPage(props: { expired: boolean }) {
  return (
    <AuthFrame title={t('signedOut.title')}>
      <p>{props.expired ? t('signedOut.expired') : t('signedOut.body')}</p>
      <p>
        <Link to="/sign-in">{t('signedOut.again')}</Link>
      </p>
    </AuthFrame>
  );
}
