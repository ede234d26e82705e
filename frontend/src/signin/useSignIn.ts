import { useEffect, useState } from 'react';
import { isSignInAnswer, type SignInScreen } from '../ui/useHashRoute';
import { oidcConfig, redirectUri } from './config';
import { useSignInI18n } from './signInTexts';
import { type StoredToken, tokenStore } from './token';

const store = tokenStore(window.sessionStorage);

/**
 * The sign-in a screen holds: the token kept for the tab (one for the staff and the admin screens),
 * the provider's answer traded for a token when the page is that answer, and signing out.
 */
export function useSignIn(screen: SignInScreen) {
  const { t } = useSignInI18n();
  const [token, setToken] = useState<StoredToken | null>(store.read);
  // The provider's answer while it is being traded; null once it is done, so signing out later shows the sign-in again.
  const [answer, setAnswer] = useState(() => (isSignInAnswer(window.location.search) ? window.location.href : null));
  const [notice, setNotice] = useState<string | null>(null);

  // Back from the provider: trade the code for the token, then take the code out of the address.
  useEffect(() => {
    if (!answer) return;
    window.history.replaceState(null, '', `${redirectUri(answer)}#/${screen}`);
    if (!oidcConfig) {
      setAnswer(null);
      return;
    }
    import('./oidc')
      .then(({ finishSignIn }) => finishSignIn(oidcConfig!, answer))
      .then((accessToken) => setToken(store.save(accessToken, 'sign-in')))
      .catch((error: unknown) => setNotice(t('staffSignInFailed', { detail: error instanceof Error ? error.message : String(error) })))
      .finally(() => setAnswer(null));
  }, [answer]);

  return {
    token,
    notice,
    setNotice,
    /** The provider's answer is being traded for the token. */
    signingIn: answer !== null,
    takePasted: (value: string) => {
      setNotice(null);
      setToken(store.save(value, 'pasted'));
    },
    signOut: (message?: string) => {
      store.clear();
      setToken(null);
      setNotice(message ?? null);
    },
  };
}
