// The frame of every screen once signed in: the domain picker, the screens, the account.
import type { ComponentChildren } from 'preact';
import { navigate, routeHash, SCREENS, type Route } from './route.ts';

const LABELS: Record<(typeof SCREENS)[number], string> = { overview: 'Overview', calls: 'Calls', pools: 'Number pools', agents: 'Agents', settings: 'Settings' };

/** `domain`: the route's, or on the Account screen the one last shown. */
export function Layout({ route, domain, domains, username, onSignOut, children }: { route: Route; domain: string | null; domains: string[]; username: string; onSignOut: () => void; children: ComponentChildren }) {
  return (
    <div class="shell">
      <header class="top">
        <a class="brand" href="#/">RingTrail</a>
        <select
          aria-label="Current domain"
          value={domain ?? ''}
          onChange={(e) => {
            const value = (e.target as HTMLSelectElement).value;
            navigate(value === '+' ? { domain: null, screen: 'new', query: {} } : { domain: value, screen: route.screen === 'new' || route.screen === 'account' ? 'overview' : route.screen, query: route.query });
          }}
        >
          {domain === null && <option value="">Choose a domain</option>}
          {domains.map((d) => (
            <option value={d}>{d}</option>
          ))}
          <option value="+">+ Add a domain</option>
        </select>
        <nav>
          {domain &&
            SCREENS.map((screen) => (
              <a href={routeHash({ domain, screen, query: { from: route.query.from ?? '', to: route.query.to ?? '' } })} class={route.screen === screen || (screen === 'calls' && route.screen === 'call') ? 'active' : ''}>
                {LABELS[screen]}
              </a>
            ))}
        </nav>
        <div class="who">
          <a href="#/account" class={route.screen === 'account' ? 'active' : ''}>Account</a>
          <span>{username}</span>
          <button type="button" class="link" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <main class="content">{children}</main>
    </div>
  );
}

export function Failure({ message }: { message: string }) {
  return <p class="error" role="alert">{message}</p>;
}
