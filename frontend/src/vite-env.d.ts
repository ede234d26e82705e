/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the API lives, e.g. https://api.example.sk; empty means the page's own origin. */
  readonly VITE_API_BASE?: string;
  /** The staff's OpenID provider (issuer URL); empty: no provider sign-in, a pasted token instead. */
  readonly VITE_STAFF_AUTHORITY?: string;
  /** The SPA's public client id at that provider (default slots-spa). */
  readonly VITE_STAFF_CLIENT_ID?: string;
  /** The scopes to ask for (default "openid"). */
  readonly VITE_STAFF_SCOPE?: string;
  /** The API's resource indicator (RFC 8707), when the provider wants one for a JWT access token. */
  readonly VITE_STAFF_RESOURCE?: string;
}
