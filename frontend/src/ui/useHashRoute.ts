import { useEffect, useState } from 'react';

/**
 * Where the page is. Booking and manage may carry what an SMS link names: the place to book again at
 * (#/place/12, after a site cancelled a block) or the booking code to look up (#/manage/K7Q2M-X4P9A,
 * from a reminder); the code only fills the form in, the page still asks for the proof. A waiting-list
 * offer's SMS links to the entry by its token (#/waitlist/<32 hex>), which the page sends in a header.
 * A vaccine finder's booking deep link (SMART Scheduling Links, the API's /fhir/$bulk-publish) names the
 * place, day and time (#/place/12/2026-11-27/09:30): the place's week opens at that day with that time picked.
 * At a place with several services the link also names the service's code (#/place/12/2026-11-27/09:30/pcr);
 * without it the link means the place's only service.
 */
export type Route =
  | { name: 'book'; placeId?: number; at?: { day: string; time: string }; service?: string }
  | { name: 'manage'; code?: string }
  | { name: 'waitlist'; token: string }
  | { name: 'admin' }
  | { name: 'staff' }
  | { name: 'privacy' };

export type RouteName = Route['name'];

/** The screens that sign in through the OpenID provider. */
export type SignInScreen = 'staff' | 'admin';

/** Whether the page is the OpenID provider's answer to a sign-in (?code=…&state=… or ?error=…&state=…). */
export function isSignInAnswer(search: string): boolean {
  const params = new URLSearchParams(search);
  return params.has('state') && (params.has('code') || params.has('error'));
}

/**
 * The screen a sign-in answer returns to: the one named after the last ";" of its state (oidc-client-ts's
 * url_state, which the screen set when it sent the browser away); the staff screen otherwise.
 */
export function signInScreen(search: string): SignInScreen {
  const state = new URLSearchParams(search).get('state') ?? '';
  return state.split(';').at(-1) === 'admin' && state.includes(';') ? 'admin' : 'staff';
}

function segment(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return '';
  }
}

// Hash routes work from any folder on a CDN and need no server rewrite; what they carry (a place id, a
// booking code) never reaches a server or its logs. The provider sends the browser back to the page's
// own address (a redirect URI has no hash).
export function parseRoute(hash: string, search = ''): Route {
  if (isSignInAnswer(search)) return { name: signInScreen(search) };
  const [first = '', second, ...rest] = hash.replace(/^#\/?/, '').replace(/\/$/, '').split('/');
  if (first === 'place' && (rest.length === 2 || rest.length === 3)) {
    const place = parseRoute(`#/place/${second}`);
    const [day, time, service] = rest;
    const linked = place.name === 'book' && place.placeId !== undefined && isDay(day) && /^([01]\d|2[0-3]):[0-5]\d$/.test(time)
      && (service === undefined || /^[a-z0-9-]{1,32}$/.test(service));
    if (!linked) return { name: 'book' };
    return service === undefined ? { ...place, at: { day, time } } : { ...place, at: { day, time }, service };
  }
  if (rest.length > 0) return { name: 'book' };
  if (first === 'admin' || first === 'staff' || first === 'privacy') return second === undefined ? { name: first } : { name: 'book' };
  if (first === 'manage') {
    if (second === undefined) return { name: 'manage' };
    // A code as people read it off an SMS or a ticket; anything else is not one and fills nothing in.
    const code = segment(second).trim().toUpperCase();
    return /^[A-Z0-9-]{1,32}$/.test(code) ? { name: 'manage', code } : { name: 'manage' };
  }
  if (first === 'waitlist' && second !== undefined) {
    const token = segment(second).trim().toLowerCase();
    if (/^[0-9a-f]{32}$/.test(token)) return { name: 'waitlist', token };
  }
  if (first === 'place' && second !== undefined && /^\d{1,10}$/.test(second)) {
    const placeId = Number(second);
    if (placeId > 0 && placeId <= 2_147_483_647) return { name: 'book', placeId };
  }
  return { name: 'book' };
}

/** A real calendar day as yyyy-MM-dd (2026-02-30 is not one). */
function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const [y, m, d] = text.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10) === text;
}

function current(): Route {
  return parseRoute(window.location.hash, window.location.search);
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
