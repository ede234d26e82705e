import { describe, expect, it } from 'vitest';
import { adminRole } from './adminRole';

const b64url = (value: object) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = (claims: object) => `${b64url({ alg: 'RS256', typ: 'at+jwt' })}.${b64url(claims)}.signature`;

describe('the admin screens\' role', () => {
  it('is admin when the token holds admin, whatever else it holds', () => {
    expect(adminRole(jwt({ role: ['viewer', 'admin'] }))).toBe('admin');
    expect(adminRole(jwt({ role: 'admin' }))).toBe('admin');
  });

  it('is viewer for a viewer token', () => {
    expect(adminRole(jwt({ role: ['viewer'] }))).toBe('viewer');
  });

  it('is none for a staff role alone, no role or no JWT', () => {
    expect(adminRole(jwt({ role: ['site-manager'] }))).toBeNull();
    expect(adminRole(jwt({ sub: 'x' }))).toBeNull();
    expect(adminRole('opaque')).toBeNull();
  });
});
