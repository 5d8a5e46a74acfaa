// The back end in the browser: who is signed in, then the screen the address names; an invitation
// or reset link opens without a session; /shared/<token> is a shared report, read-only.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import 'uplot/dist/uPlot.min.css';
import './style.css';
import { AcceptScreen } from './accept.tsx';
import { AccountScreen } from './account.tsx';
import { ActivityScreen } from './activity.tsx';
import { AgentsScreen } from './agents.tsx';
import { api, get, setCsrfToken } from './api.ts';
import { CallsScreen } from './calls.tsx';
import { CallScreen } from './call.tsx';
import { ConversionsScreen } from './conversions.tsx';
import { useLoad } from './hooks.ts';
import { clocksOf, ClocksContext } from './clock.ts';
import { Layout, screensOf } from './layout.tsx';
import { PhonePrompt } from './availability.tsx';
import { MembersScreen } from './members.tsx';
import { NewDomainScreen } from './new-domain.tsx';
import { OverviewScreen } from './overview.tsx';
import { PoolsScreen } from './pools.tsx';
import { ProfileScreen } from './profile.tsx';
import { ACCOUNT_SCREENS, isPage, navigate, useRoute } from './route.ts';
import { FormsScreen } from './forms.tsx';
import { InboxScreen } from './inbox.tsx';
import { FlowsScreen } from './flows.tsx';
import { PersonScreen } from './person.tsx';
import { SettingsScreen } from './settings.tsx';
import { SharedReport } from './shared-report.tsx';
import { SignIn } from './sign-in.tsx';
import { may, WhoContext, type Who } from './who.ts';

function App() {
  const route = useRoute();
  const [who, setWho] = useState<Who | null | undefined>(undefined);
  const [signUpOpen, setSignUpOpen] = useState(false);
  useEffect(() => {
    get<{ signUp: boolean }>('/config').then((c) => setSignUpOpen(c.signUp), () => undefined);
    get<Who>('/session').then(signedIn, () => setWho(null)); // 401: not signed in
  }, []);
  function signedIn(w: Who) {
    setCsrfToken(w.csrfToken);
    setWho(w);
  }
  if (route.screen === 'accept')
    return (
      <AcceptScreen token={route.query.token ?? ''} onSignedIn={(w) => {
          signedIn(w);
          location.hash = '#/';
        }}
      />
    );
  if (who === undefined) return null;
  if (who === null) return <SignIn signUpOpen={signUpOpen} onSignedIn={signedIn} />;
  return (
    <WhoContext.Provider value={who}>
      <SignedIn who={who} onSignOut={() => api('DELETE', '/session').finally(() => setWho(null))} />
    </WhoContext.Provider>
  );
}

/** The domain of the last domain screen: the account's screens keep it in the picker and the menu. */
let lastDomain: string | null = null;

function SignedIn({ who, onSignOut }: { who: Who; onSignOut: () => void }) {
  const route = useRoute();
  if (route.domain) lastDomain = route.domain;
  const domains = useLoad(() => get<{ name: string; country: string; timeZone: string }[]>('/domains'), []);
  const names = domains.data?.map((d) => d.name) ?? [];
  const accountScreen = (ACCOUNT_SCREENS as readonly string[]).includes(route.screen);
  useEffect(() => {
    if (domains.data && route.domain === null && !accountScreen) {
      // A member who may not add a domain and sees none is told so on their profile.
      navigate(names.length ? { domain: names[0]!, screen: screensOf(who)[0]!, query: {} } : { domain: null, screen: may.manageDomain(who) ? 'new' : 'profile', query: {} });
    } else if (route.domain && !isPage(route.screen) && !(screensOf(who) as string[]).includes(route.screen)) {
      navigate({ ...route, screen: screensOf(who)[0]! }); // a screen of another role, from a link
    }
  }, [domains.data, route.domain, route.screen]);
  if (!domains.data) return null;
  return (
    <ClocksContext.Provider value={clocksOf(domains.data)}>
      <Layout route={route} domain={route.domain ?? (accountScreen && lastDomain && names.includes(lastDomain) ? lastDomain : null)} domains={names} onSignOut={onSignOut}>
        {route.screen !== 'profile' && <PhonePrompt username={who.username} role={who.role} />}
        {route.screen === 'new' && (may.manageDomain(who) ? <NewDomainScreen created={domains.reload} first={!names.length} /> : <ProfileScreen noDomains={!names.length} />)}
        {route.screen === 'account' && may.manageAccount(who) && <AccountScreen />}
        {route.screen === 'members' && may.manageAccount(who) && <MembersScreen domains={names} />}
        {route.screen === 'profile' && <ProfileScreen noDomains={!names.length} />}
        {route.domain && route.screen === 'overview' && <OverviewScreen route={route} />}
        {route.domain && route.screen === 'calls' && <CallsScreen route={route} />}
        {route.domain && route.screen === 'call' && <CallScreen route={route} />}
        {route.domain && route.screen === 'forms' && <FormsScreen route={route} />}
        {route.domain && route.screen === 'inbox' && <InboxScreen route={route} />}
        {route.domain && route.screen === 'person' && <PersonScreen route={route} />}
        {route.domain && route.screen === 'conversions' && <ConversionsScreen route={route} />}
        {route.domain && route.screen === 'pools' && <PoolsScreen route={route} />}
        {route.domain && route.screen === 'agents' && <AgentsScreen route={route} />}
        {route.domain && route.screen === 'flows' && <FlowsScreen route={route} />}
        {route.domain && route.screen === 'settings' && <SettingsScreen route={route} />}
        {route.domain && route.screen === 'activity' && <ActivityScreen route={route} />}
      </Layout>
    </ClocksContext.Provider>
  );
}

render(location.pathname.startsWith('/shared/') ? <SharedReport /> : <App />, document.getElementById('app')!);
