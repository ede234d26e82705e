import { tokenRoles } from '../signin/token';

export type AdminRole = 'admin' | 'viewer';

/** The admin screens' role the token holds (admin before viewer), or null when it holds neither. */
export function adminRole(token: string): AdminRole | null {
  const roles = tokenRoles(token);
  return roles.includes('admin') ? 'admin' : roles.includes('viewer') ? 'viewer' : null;
}
