import { useEffect, useState } from 'react';

export type Route = 'book' | 'manage' | 'admin';

// Hash routes work from any folder on a CDN and need no server rewrite; they carry no personal data.
function current(): Route {
  const hash = window.location.hash.replace(/^#\/?/, '');
  return hash === 'manage' || hash === 'admin' ? hash : 'book';
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
