// One's own login: the password (the current one required), one's phone for call flows and whether
// one takes calls, one's e-mail alerts, and the signed-in sessions, each of which can be ended.
import { useState } from 'preact/hooks';
import { api, get } from './api.ts';
import { BROWSER_CLOCK, when } from './format.ts';
import { useAction, useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';
import { ROLE_NOTES, useWho } from './who.ts';
import { AlertsCard } from './alerts.tsx';
import { AvailabilityCard } from './availability.tsx';

interface Session {
  id: string;
  current: boolean;
  device: string | null;
  address: string | null;
  signedInAt: string;
  lastSeenAt: string;
}

/** A User-Agent in a few words: the browser and the system. */
function deviceOf(agent: string | null): string {
  if (!agent) return 'Unknown device';
  const browser = /Edg\//.test(agent) ? 'Edge' : /Firefox\//.test(agent) ? 'Firefox' : /Chrome\//.test(agent) ? 'Chrome' : /Safari\//.test(agent) ? 'Safari' : agent.split(/[ /]/)[0];
  const system = /Windows/.test(agent) ? 'Windows' : /Android/.test(agent) ? 'Android' : /iPhone|iPad/.test(agent) ? 'iOS' : /Mac OS X/.test(agent) ? 'macOS' : /Linux/.test(agent) ? 'Linux' : '';
  return system ? `${browser} on ${system}` : String(browser);
}

export function ProfileScreen({ noDomains }: { noDomains: boolean }) {
  const who = useWho();
  const sessions = useLoad(() => get<{ sessions: Session[] }>('/session/sessions'), []);
  const action = useAction(sessions.reload);
  const [done, setDone] = useState<string | null>(null);
  return (
    <section class="narrow">
      <div class="heading">
        <h1>{who.username}</h1>
      </div>
      <p class="muted">
        {who.role} of {who.account} ({ROLE_NOTES[who.role]}).
      </p>
      {noDomains && <p class="warn-text">You are given no domain yet: ask an owner of {who.account} to give you one.</p>}
      {action.error && <Failure message={action.error} />}
      <form
        class="card"
        onSubmit={(event) => {
          event.preventDefault();
          const el = event.target as HTMLFormElement;
          const form = new FormData(el);
          setDone(null);
          void action.run(async () => {
            if (form.get('password') !== form.get('again')) throw new Error('The two new passwords differ');
            const answer = await api<{ endedSessions: number }>('PUT', '/session/password', { current: form.get('current'), password: form.get('password') });
            el.reset();
            setDone(`Password changed${answer.endedSessions ? `; ${answer.endedSessions} other session${answer.endedSessions > 1 ? 's' : ''} ended` : ''}.`);
          });
        }}
      >
        <h2>Password</h2>
        <label>
          Current password
          <input name="current" type="password" required autoComplete="current-password" />
        </label>
        <label>
          New password (at least 12 characters, not a common one)
          <input name="password" type="password" required minLength={12} maxLength={200} autoComplete="new-password" />
        </label>
        <label>
          The new one again
          <input name="again" type="password" required autoComplete="new-password" />
        </label>
        <button type="submit">Change the password</button>
        {done && <p class="ok-text" role="status">{done}</p>}
      </form>
      <AvailabilityCard />
      <AlertsCard />
      <div class="card flush" data-testid="sessions">
        <h2>Signed-in sessions</h2>
        {sessions.data && (
          <table>
            <thead><tr><th>Device</th><th>Address</th><th>Last seen</th><th></th></tr></thead>
            <tbody>
              {sessions.data.sessions.map((s) => (
                <tr>
                  <td title={s.device ?? ''}>{deviceOf(s.device)}</td>
                  <td class="mono">{s.address ?? ''}</td>
                  <td class="nowrap">{when(s.lastSeenAt, BROWSER_CLOCK)}</td>
                  <td>{s.current ? <span class="status success">this one</span> : <button type="button" onClick={() => action.run(() => api('DELETE', `/session/sessions/${encodeURIComponent(s.id)}`))}>End</button>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {sessions.data && sessions.data.sessions.length > 1 && (
          <p>
            <button type="button" onClick={() => action.run(() => api('DELETE', '/session/sessions'))}>
              End every other session
            </button>
          </p>
        )}
      </div>
    </section>
  );
}
