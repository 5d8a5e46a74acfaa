// The back end in the browser: who is signed in, then the screen the address names.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import 'uplot/dist/uPlot.min.css';
import './style.css';
import { AccountScreen } from './account.tsx';
import { AgentsScreen } from './agents.tsx';
import { api, get, setCsrfToken } from './api.ts';
import { CallsScreen } from './calls.tsx';
import { CallScreen } from './call.tsx';
import { useLoad } from './hooks.ts';
import { Layout } from './layout.tsx';
import { NewDomainScreen } from './new-domain.tsx';
import { OverviewScreen } from './overview.tsx';
import { PoolsScreen } from './pools.tsx';
import { navigate, useRoute } from './route.ts';
import { SettingsScreen } from './settings.tsx';
import { SignIn, type Who } from './sign-in.tsx';

function App() {
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
  if (who === undefined) return null;
  if (who === null) return <SignIn signUpOpen={signUpOpen} onSignedIn={signedIn} />;
  return <SignedIn who={who} onSignOut={() => api('DELETE', '/session').finally(() => setWho(null))} />;
}

/** The domain of the last domain screen: the Account screen keeps it in the picker and the menu. */
let lastDomain: string | null = null;

function SignedIn({ who, onSignOut }: { who: Who; onSignOut: () => void }) {
  const route = useRoute();
  if (route.domain) lastDomain = route.domain;
  const domains = useLoad(() => get<{ name: string }[]>('/domains'), []);
  const names = domains.data?.map((d) => d.name) ?? [];
  useEffect(() => {
    if (domains.data && route.domain === null && route.screen !== 'new' && route.screen !== 'account') {
      navigate(names.length ? { domain: names[0]!, screen: 'overview', query: {} } : { domain: null, screen: 'new', query: {} });
    }
  }, [domains.data, route.domain, route.screen]);
  if (!domains.data) return null;
  return (
    <Layout route={route} domain={route.domain ?? (route.screen === 'account' && lastDomain && names.includes(lastDomain) ? lastDomain : null)} domains={names} username={who.username} onSignOut={onSignOut}>
      {route.screen === 'new' && <NewDomainScreen created={domains.reload} first={!names.length} />}
      {route.screen === 'account' && <AccountScreen />}
      {route.domain && route.screen === 'overview' && <OverviewScreen route={route} />}
      {route.domain && route.screen === 'calls' && <CallsScreen route={route} />}
      {route.domain && route.screen === 'call' && <CallScreen route={route} />}
      {route.domain && route.screen === 'pools' && <PoolsScreen route={route} />}
      {route.domain && route.screen === 'agents' && <AgentsScreen route={route} />}
      {route.domain && route.screen === 'settings' && <SettingsScreen route={route} />}
    </Layout>
  );
}

render(<App />, document.getElementById('app')!);
