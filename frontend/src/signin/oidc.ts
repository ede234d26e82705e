import { InMemoryWebStorage, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import type { SignInScreen } from '../ui/useHashRoute';
import { type OidcConfig, redirectUri } from './config';

// The authorization code flow with PKCE (oidc-client-ts), loaded only when someone signs in through
// the provider. The verifier and state wait in sessionStorage across the redirect; the user it makes is
// kept in memory only, and the access token goes to the SPA's own token store (token.ts).
function manager(config: OidcConfig): UserManager {
  return new UserManager({
    authority: config.authority,
    client_id: config.clientId,
    redirect_uri: redirectUri(),
    response_type: 'code',
    scope: config.scope,
    resource: config.resource,
    loadUserInfo: false,
    monitorSession: false,
    automaticSilentRenew: false,
    stateStore: new WebStorageStateStore({ store: window.sessionStorage }),
    userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
  });
}

/**
 * Sends the browser to the provider's sign-in page. The screen that asked rides in the state the
 * provider sends back (url_state), so one registered redirect URI serves the staff and admin screens.
 */
export async function startSignIn(config: OidcConfig, screen: SignInScreen): Promise<void> {
  await manager(config).signinRedirect({ url_state: screen });
}

/** Trades the provider's answer in the page's address for the access token. */
export async function finishSignIn(config: OidcConfig, url: string): Promise<string> {
  const user = await manager(config).signinRedirectCallback(url);
  return user.access_token;
}
