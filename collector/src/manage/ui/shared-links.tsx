// A domain's read-only report links, under Settings: make one (a label, a password or none), see
// how often each was opened, revoke one. The link is shown once, when made.
import { useState } from 'preact/hooks';
import { api, get } from './api.ts';
import { when, type Clock } from './format.ts';
import { useAction, useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';
import { LinkToCopy } from './shown-once.tsx';

interface SharedLink {
  id: string;
  label: string;
  passwordProtected: boolean;
  createdBy: string;
  createdAt: string;
  openings: number;
  lastOpenedAt: string | null;
}

export function SharedLinksCard({ path, clock }: { path: string; clock: Clock }) {
  const links = useLoad(() => get<{ links: SharedLink[] }>(`${path}/shared-links`), [path]);
  const action = useAction(links.reload);
  const [made, setMade] = useState<string | null>(null);
  return (
    <div class="card" data-testid="shared-links">
      <h2>Shared report links</h2>
      <p class="muted">A link that opens this domain's overview, sources, keywords, campaigns, landing pages and calls per day without signing in: no caller numbers, no call pages, no settings. For a client, say.</p>
      {action.error && <Failure message={action.error} />}
      {made && <LinkToCopy label="Shared link" url={made} />}
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          const el = event.target as HTMLFormElement;
          const form = new FormData(el);
          const password = String(form.get('password') ?? '');
          void action.run(async () => {
            setMade((await api<{ url: string }>('POST', `${path}/shared-links`, { label: form.get('label'), ...(password ? { password } : {}) })).url);
            el.reset();
          });
        }}
      >
        <label>
          Label
          <input name="label" maxLength={100} placeholder="For the client" />
        </label>
        <label>
          Password (optional)
          <input name="password" type="password" minLength={8} autoComplete="new-password" />
        </label>
        <button type="submit">Make a link</button>
      </form>
      {links.data && links.data.links.length > 0 && (
        <table>
          <thead><tr><th>Label</th><th>Made</th><th>Password</th><th class="num">Openings</th><th>Last opened</th><th></th></tr></thead>
          <tbody>
            {links.data.links.map((l) => (
              <tr>
                <td>{l.label || <span class="muted">no label</span>}</td>
                <td>{when(l.createdAt, clock)} by {l.createdBy}</td>
                <td>{l.passwordProtected ? 'yes' : 'no'}</td>
                <td class="num">{l.openings}</td>
                <td>{l.lastOpenedAt ? when(l.lastOpenedAt, clock) : <span class="muted">never</span>}</td>
                <td>
                  <button type="button" onClick={() => action.run(() => api('DELETE', `${path}/shared-links/${encodeURIComponent(l.id)}`))}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
