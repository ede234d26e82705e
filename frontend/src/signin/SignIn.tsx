import { type FormEvent, useState } from 'react';
import type { SignInScreen } from '../ui/useHashRoute';
import { Field } from '../ui/Field';
import { oidcConfig, pasteAllowed } from './config';
import { useSignInI18n } from './signInTexts';

/** Sign-in through the site's OpenID provider, or (development, or no provider) a pasted token. */
export function SignIn({ screen, onToken, onError }: { screen: SignInScreen; onToken: (token: string) => void; onError: (message: string) => void }) {
  const { t } = useSignInI18n();
  const [busy, setBusy] = useState(false);
  const [pasted, setPasted] = useState('');

  const signIn = async () => {
    setBusy(true);
    try {
      const { startSignIn } = await import('./oidc');
      await startSignIn(oidcConfig!, screen);
    } catch (error) {
      setBusy(false);
      onError(t('staffSignInFailed', { detail: error instanceof Error ? error.message : String(error) }));
    }
  };

  const usePasted = (e: FormEvent) => {
    e.preventDefault();
    if (pasted.trim()) onToken(pasted);
  };

  return (
    <div className="cards">
      {oidcConfig && (
        <section className="card" aria-labelledby="staff-sign-in">
          <h2 id="staff-sign-in">{t('signIn')}</h2>
          <p>{t('staffSignInLead')}</p>
          <button type="button" className="primary" disabled={busy} onClick={() => void signIn()}>
            {busy ? t('staffSigningIn') : t('staffSignIn')}
          </button>
        </section>
      )}
      {pasteAllowed && (
        <section className="card" aria-labelledby="dev-token">
          <h2 id="dev-token">{t('devToken')}</h2>
          <form onSubmit={usePasted} noValidate>
            <Field label={t('devToken')} type="password" autoComplete="off" spellCheck={false} value={pasted} onChange={setPasted} hint={t('devTokenHint')} />
            <button type="submit" className={oidcConfig ? 'secondary' : 'primary'} disabled={pasted.trim() === ''}>{t('useToken')}</button>
          </form>
        </section>
      )}
    </div>
  );
}
