// The signed-in person's bearer token (staff and admins alike: one provider, one token for both
// screens) lives in sessionStorage: gone with the tab, never in localStorage, a URL or a log. Its
// expiry and roles are read from the token itself, so an expired one is dropped on reading instead of
// failing each call, and a screen can say at once which role is missing; the API still checks the
// signature, expiry and role of every request.
const storageKey = 'slots.staffToken';

export type TokenSource = 'sign-in' | 'pasted';

export interface StoredToken {
  token: string;
  source: TokenSource;
  /** Epoch milliseconds; null when the token names no expiry. */
  expiresAt: number | null;
}

/** A JWT's claims, read without checking the signature (the API does that); null if it is not a JWT. */
function claims(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The token's `exp` in epoch ms; null if none or not a JWT. */
export function tokenExpiry(token: string): number | null {
  const exp = claims(token)?.exp;
  return typeof exp === 'number' ? exp * 1000 : null;
}

/** The roles in the token's `role` claim (one value or an array, as the API reads it); none if not a JWT. */
export function tokenRoles(token: string): string[] {
  const role = claims(token)?.role;
  const values = Array.isArray(role) ? role : [role];
  return values.filter((value): value is string => typeof value === 'string');
}

/** Who the token names (`sub`), for "signed in as"; null if it names no one. */
export function tokenSubject(token: string): string | null {
  const sub = claims(token)?.sub;
  return typeof sub === 'string' && sub !== '' ? sub : null;
}

export function tokenStore(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>, now: () => number = Date.now) {
  return {
    /** The kept token, or null when there is none, it is unreadable or it has expired (then it is removed). */
    read(): StoredToken | null {
      const text = storage.getItem(storageKey);
      if (!text) return null;
      try {
        const stored = JSON.parse(text) as StoredToken;
        if (typeof stored.token === 'string' && stored.token !== '' && (stored.expiresAt === null || stored.expiresAt > now())) return stored;
      } catch {
        // fall through: a damaged entry is as good as none
      }
      storage.removeItem(storageKey);
      return null;
    },
    save(token: string, source: TokenSource): StoredToken {
      const stored: StoredToken = { token: token.trim().replace(/^Bearer\s+/i, ''), source, expiresAt: null };
      stored.expiresAt = tokenExpiry(stored.token);
      storage.setItem(storageKey, JSON.stringify(stored));
      return stored;
    },
    clear(): void {
      storage.removeItem(storageKey);
    },
  };
}

export type TokenStore = ReturnType<typeof tokenStore>;
