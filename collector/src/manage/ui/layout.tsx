// The frame of every screen once signed in: the domain picker, the screens the member's role
// shows, the account's screens, who is signed in.
import type { ComponentChildren } from 'preact';
import { ACCOUNT_SCREENS, navigate, routeHash, SCREENS, type Route } from './route.ts';
import { may, useWho, type Who } from './who.ts';
import { get } from './api.ts';
import { useLoad } from './hooks.ts';

type DomainScreen = (typeof SCREENS)[number];
const LABELS: Record<DomainScreen, string> = { overview: 'Overview', calls: 'Calls', forms: 'Forms', conversions: 'Conversions', pools: 'Number pools', agents: 'Agents', flows: 'Call flows', settings: 'Settings', activity: 'Activity' };

/** The domain screens a role shows (the server refuses the others). */
export function screensOf(who: Who): DomainScreen[] {
  return SCREENS.filter((screen) => {
    if (screen === 'calls' || screen === 'forms') return true;
    // Those who connect the ad platforms; everyone sees a lead's states on its call's page.
    if (screen === 'settings' || screen === 'conversions' || screen === 'flows') return may.manageDomain(who);
    if (screen === 'activity') return may.readActivity(who);
    return may.readReports(who);
  });
}

const isAccountScreen = (route: Route) => (ACCOUNT_SCREENS as readonly string[]).includes(route.screen);

/** `domain`: the route's, or on an account screen the one last shown. */
export function Layout({ route, domain, domains, onSignOut, children }: { route: Route; domain: string | null; domains: string[]; onSignOut: () => void; children: ComponentChildren }) {
  const who = useWho();
  const screens = screensOf(who);
  return (
    <div class="shell">
      <header class="top">
        <a class="brand" href="#/">RingTrail</a>
        <select
          aria-label="Current domain"
          value={domain ?? ''}
          onChange={(e) => {
            const value = (e.target as HTMLSelectElement).value;
            navigate(value === '+' ? { domain: null, screen: 'new', query: {} } : { domain: value, screen: isAccountScreen(route) || !screens.includes(route.screen as DomainScreen) ? screens[0]! : route.screen, query: route.query });
          }}
        >
          {domain === null && <option value="">Choose a domain</option>}
          {domains.map((d) => (
            <option value={d}>{d}</option>
          ))}
          {may.manageDomain(who) && <option value="+">+ Add a domain</option>}
        </select>
        <nav>
          {domain &&
            screens.map((screen) => (
              <a href={routeHash({ domain, screen, query: { from: route.query.from ?? '', to: route.query.to ?? '' } })} class={route.screen === screen || (screen === 'calls' && route.screen === 'call') ? 'active' : ''}>
                {LABELS[screen]}
              </a>
            ))}
        </nav>
        <div class="who">
          {domain && <InboxLink domain={domain} active={route.screen === 'inbox'} />}
          {may.manageAccount(who) && (
            <>
              <a href="#/members" class={route.screen === 'members' ? 'active' : ''}>Members</a>
              <a href="#/account" class={route.screen === 'account' ? 'active' : ''}>Account</a>
            </>
          )}
          <a href="#/profile" class={route.screen === 'profile' ? 'active' : ''} title={`${who.role} of ${who.account}: your password and sessions`}>
            {who.username}
          </a>
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

/** The domain's texting inbox, with its unread conversations counted (every member reads it). */
function InboxLink({ domain, active }: { domain: string; active: boolean }) {
  const unread = useLoad(() => get<{ unreadConversations: number }>(`/domains/${encodeURIComponent(domain)}/conversations?limit=1`), [domain, active]);
  const count = unread.data?.unreadConversations ?? 0;
  return (
    <a href={routeHash({ domain, screen: 'inbox', query: {} })} class={active ? 'active' : ''} data-testid="inbox-link">
      Inbox{count > 0 && <span class="status unread-count" aria-label={`${count} unread`}>{count}</span>}
    </a>
  );
}
