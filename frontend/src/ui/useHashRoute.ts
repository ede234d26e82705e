import { useEffect, useState } from 'react';

export type Route = 'book' | 'manage' | 'admin' | 'staff';

/** Whether the page is the staff OpenID provider's answer to a sign-in (?code=…&state=… or ?error=…&state=…). */
export function isSignInAnswer(search: string): boolean {
  const params = new URLSearchParams(search);
  return params.has('state') && (params.has('code') || params.has('error'));
}

// Hash routes work from any folder on a CDN and need no server rewrite; they carry no personal data.
// The provider sends the browser back to the page's own address (a redirect URI has no hash).
function current(): Route {
  if (isSignInAnswer(window.location.search)) return 'staff';
  const hash = window.location.hash.replace(/^#\/?/, '');
  return hash === 'manage' || hash === 'admin' || hash === 'staff' ? hash : 'book';
}

export function useHashRoute(): Route {
  const [route, setRoute] = useState<Route>(current);
  useEffect(() => {
    const update = () => setRoute(current());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}
