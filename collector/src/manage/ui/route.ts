// Where the user is, kept in the address's hash so that reload, back and a shared link work:
// `#/<domain>/<screen>?from=...&to=...`, or `#/new` for a new domain, `#/account` for the account,
// `#/members`, `#/profile` (one's password and sessions), `#/accept?token=...` (an invitation or
// reset link).
import { useEffect, useState } from 'preact/hooks';

export const SCREENS = ['overview', 'calls', 'forms', 'conversions', 'pools', 'agents', 'flows', 'settings', 'activity'] as const;
/** Screens of no domain. */
export const ACCOUNT_SCREENS = ['new', 'account', 'members', 'profile', 'accept'] as const;
/** Screens of a domain that are no tab. `call`: one call's page, `#/<domain>/call?id=N` (opened from
 * the calls log); `person`: a person's timeline, `#/<domain>/person?id=N`; `inbox`: the texting inbox,
 * `#/<domain>/inbox?id=<conversation>` (its link beside the member's name, with the unread count). */
const PAGES = ['call', 'person', 'inbox'] as const;
export type Screen = (typeof SCREENS)[number] | (typeof ACCOUNT_SCREENS)[number] | (typeof PAGES)[number];
/** A domain's screen that every member may open, though it is no tab. */
export const isPage = (screen: Screen) => (PAGES as readonly string[]).includes(screen);

export interface Route {
  domain: string | null;
  screen: Screen;
  query: Record<string, string>;
}

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const query = Object.fromEntries(new URLSearchParams(search));
  if ((ACCOUNT_SCREENS as readonly string[]).includes(parts[0] ?? '')) return { domain: null, screen: parts[0] as Screen, query };
  const screen = ([...SCREENS, ...PAGES] as string[]).includes(parts[1] ?? '') ? (parts[1] as Screen) : 'overview';
  return { domain: parts[0] ?? null, screen, query };
}

export function routeHash(route: Route): string {
  const path = route.domain ? `#/${encodeURIComponent(route.domain)}/${route.screen}` : `#/${route.screen}`;
  const search = new URLSearchParams(Object.entries(route.query).filter(([, v]) => v));
  return search.size ? `${path}?${search}` : path;
}

export function navigate(route: Route): void {
  location.hash = routeHash(route);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const changed = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}
