// The staff member's bearer token lives in sessionStorage: gone with the tab, never in localStorage,
// a URL or a log. Its expiry is read from the token itself, so an expired one is dropped on reading
// instead of failing each call; the API still checks the signature and expiry of every request.
const storageKey = 'slots.staffToken';

export type TokenSource = 'sign-in' | 'pasted';

export interface StoredToken {
  token: string;
  source: TokenSource;
  /** Epoch milliseconds; null when the token names no expiry. */
  expiresAt: number | null;
}

/** The token's `exp` in epoch ms, read without checking the signature (the API does that); null if none or not a JWT. */
export function tokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
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
