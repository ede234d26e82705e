import { useEffect, useMemo, useState } from 'react';
import { apiBase } from '../api/slotsApi';
import { StaffApi } from '../api/staffApi';
import { useStaffI18n } from './staffTexts';
import { Notice } from '../ui/Notice';
import { StepHeading } from '../ui/StepHeading';
import { isSignInAnswer } from '../ui/useHashRoute';
import { SignIn } from './SignIn';
import { oidcConfig, redirectUri } from './staffConfig';
import { StaffDesk } from './StaffDesk';
import { type StoredToken, tokenStore } from './staffToken';

const store = tokenStore(window.sessionStorage);

/** The door: staff sign in, choose their place, check people in, and read the day's roster. */
export function StaffPage() {
  const { t } = useStaffI18n();
  const [token, setToken] = useState<StoredToken | null>(store.read);
  const [answer] = useState(() => (isSignInAnswer(window.location.search) ? window.location.href : null));
  const [notice, setNotice] = useState<string | null>(null);
  const api = useMemo(() => (token ? new StaffApi(apiBase, token.token) : null), [token]);

  // Back from the provider: trade the code for the token, then take the code out of the address.
  useEffect(() => {
    if (!answer) return;
    window.history.replaceState(null, '', `${redirectUri(answer)}#/staff`);
    if (!oidcConfig) return;
    import('./oidc')
      .then(({ finishSignIn }) => finishSignIn(oidcConfig!, answer))
      .then((accessToken) => setToken(store.save(accessToken, 'sign-in')))
      .catch((error: unknown) => setNotice(t('staffSignInFailed', { detail: error instanceof Error ? error.message : String(error) })));
  }, [answer]);

  const signOut = (message?: string) => {
    store.clear();
    setToken(null);
    setNotice(message ?? null);
  };

  return (
    <section className="staff">
      <StepHeading>{t('staffTitle')}</StepHeading>
      {notice && <Notice kind="error">{notice}</Notice>}
      {api && token ? (
        <StaffDesk api={api} onSignOut={signOut} />
      ) : answer && !notice ? (
        <p role="status" className="loading">{t('staffSigningIn')}</p>
      ) : (
        <SignIn onToken={(value) => { setNotice(null); setToken(store.save(value, 'pasted')); }} onError={setNotice} />
      )}
    </section>
  );
}
