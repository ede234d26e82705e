// How staff and admins sign in is fixed when the SPA is built (like VITE_API_BASE): the provider's
// issuer and the SPA's client id there. Read only by the staff and admin screens, so the citizen's
// first load carries none of it.
export interface OidcConfig {
  authority: string;
  clientId: string;
  scope: string;
  resource?: string;
}

const env = import.meta.env;

export const oidcConfig: OidcConfig | null = env.VITE_STAFF_AUTHORITY
  ? {
      authority: env.VITE_STAFF_AUTHORITY.replace(/\/$/, ''),
      clientId: env.VITE_STAFF_CLIENT_ID || 'slots-spa',
      scope: env.VITE_STAFF_SCOPE || 'openid',
      resource: env.VITE_STAFF_RESOURCE || undefined,
    }
  : null;

/** A pasted token: always in a development build; in production only where no provider is configured. */
export const pasteAllowed: boolean = env.DEV || oidcConfig === null;

/**
 * Where the provider sends the browser back: the SPA's own folder, with no hash (a redirect URI may
 * carry none), so it needs no server rewrite and works from a CDN folder too. Register exactly this
 * URL at the provider, e.g. https://slots.example.sk/.
 */
export function redirectUri(href: string = window.location.href): string {
  const url = new URL('./', href);
  return `${url.origin}${url.pathname}`;
}
