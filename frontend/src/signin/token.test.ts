import { describe, expect, it } from 'vitest';
import { tokenExpiry, tokenRoles, tokenStore, tokenSubject } from './token';

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

const b64url = (value: object) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = (claims: object) => `${b64url({ alg: 'RS256', typ: 'at+jwt' })}.${b64url(claims)}.signature`;

describe('the sign-in token store', () => {
  it('keeps the token with the expiry its payload names', () => {
    const storage = new MemoryStorage();
    const store = tokenStore(storage, () => 1_000_000);
    const token = jwt({ sub: 'nurse-1', exp: 2_000 });
    store.save(token, 'sign-in');
    expect(store.read()).toEqual({ token, source: 'sign-in', expiresAt: 2_000_000 });
  });

  it('drops a token once it has expired', () => {
    const storage = new MemoryStorage();
    let now = 1_000_000;
    const store = tokenStore(storage, () => now);
    store.save(jwt({ exp: 1_500 }), 'pasted');
    now = 1_500_000;
    expect(store.read()).toBeNull();
    expect(storage.items.size).toBe(0);
  });

  it('takes a pasted token with or without its Bearer prefix and blanks around it', () => {
    const store = tokenStore(new MemoryStorage());
    expect(store.save('  Bearer abc.def.ghi \n', 'pasted').token).toBe('abc.def.ghi');
  });

  it('keeps an opaque token without an expiry, and forgets it on sign-out', () => {
    const store = tokenStore(new MemoryStorage());
    store.save('opaque-token', 'pasted');
    expect(store.read()?.expiresAt).toBeNull();
    store.clear();
    expect(store.read()).toBeNull();
  });

  it('treats a damaged entry as none', () => {
    const storage = new MemoryStorage();
    storage.setItem('slots.staffToken', '{not json');
    expect(tokenStore(storage).read()).toBeNull();
  });

  it('reads no expiry from something that is not a JWT', () => {
    expect(tokenExpiry('abc')).toBeNull();
    expect(tokenExpiry('a.!!!.c')).toBeNull();
  });
});

describe('what a token says about its holder', () => {
  it('reads the roles from a role claim that is an array or a single value', () => {
    expect(tokenRoles(jwt({ role: ['viewer', 'site-staff'] }))).toEqual(['viewer', 'site-staff']);
    expect(tokenRoles(jwt({ role: 'admin' }))).toEqual(['admin']);
  });

  it('reads no roles where there is no role claim, or no JWT', () => {
    expect(tokenRoles(jwt({ sub: 'x' }))).toEqual([]);
    expect(tokenRoles(jwt({ role: [1, null] }))).toEqual([]);
    expect(tokenRoles('opaque-token')).toEqual([]);
  });

  it('reads the subject, or none', () => {
    expect(tokenSubject(jwt({ sub: 'admin-1' }))).toBe('admin-1');
    expect(tokenSubject(jwt({ sub: '' }))).toBeNull();
    expect(tokenSubject('opaque')).toBeNull();
  });
});
