// The account's people (owners only): each member's role, the domains they see and last sign-in;
// invite one by e-mail and role (a link to copy and hand over), change a role, make a reset link,
// remove; the invitations waiting, which can be revoked.
import { useState } from 'preact/hooks';
import { api, get } from './api.ts';
import { BROWSER_CLOCK, when } from './format.ts';
import { useAction, useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';
import { LinkToCopy } from './shown-once.tsx';
import { ROLE_NOTES, ROLES, useWho, type Role } from './who.ts';

interface Member {
  username: string;
  role: Role;
  domains: string[] | null;
  lastSignInAt: string | null;
}

interface Invitation {
  id: string;
  username: string;
  role: Role;
  domains: string[] | null;
  createdBy: string;
  expiresAt: string;
}


export function MembersScreen({ domains }: { domains: string[] }) {
  const who = useWho();
  const list = useLoad(() => get<{ members: Member[]; invitations: Invitation[] }>('/account/members'), []);
  const action = useAction(list.reload);
  const [link, setLink] = useState<{ label: string; url: string } | null>(null);
  const [role, setRole] = useState<Role>('analyst');
  const ask = (label: string, work: () => Promise<{ invitation: { url: string; mailed: boolean } }>) =>
    action.run(async () => {
      const { url, mailed } = (await work()).invitation;
      // Said once, as it happened: mailed to them, or to be handed over by the person who made it.
      setLink({ label: mailed ? `${label}: sent to them by e-mail. Should the mail not arrive, this link does the same` : `${label}: no mail is sent from this server (SMTP_URL is not set), so send them this link yourself`, url });
    });
  return (
    <section>
      <div class="heading">
        <h1>Members of {who.account}</h1>
      </div>
      {action.error && <Failure message={action.error} />}
      {link && <LinkToCopy label={link.label} url={link.url} />}
      <form
        class="card"
        data-testid="invite"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.target as HTMLFormElement);
          const chosen = form.getAll('domains').map(String);
          const limited = role === 'analyst' || role === 'agent' || form.get('limit') === 'on';
          const username = String(form.get('username'));
          void ask(`Invitation of ${username}`, () => api('POST', '/account/members', { username, role, ...(limited ? { domains: chosen } : {}) }));
        }}
      >
        <h2>Invite someone</h2>
        <div class="row">
          <label>
            E-mail
            <input name="username" type="email" required />
          </label>
          <label>
            Role
            <select name="role" value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value as Role)}>
              {ROLES.map((r) => (
                <option value={r}>{r}</option>
              ))}
            </select>
          </label>
        </div>
        <p class="muted">{ROLE_NOTES[role]}.</p>
        {(role === 'owner' || role === 'admin') && (
          <label class="check">
            <input type="checkbox" name="limit" /> Only the domains ticked below (otherwise every domain, new ones too)
          </label>
        )}
        <fieldset class="lead-rule">
          <legend>Domains they see</legend>
          <DomainChecks domains={domains} />
        </fieldset>
        <button type="submit">Make an invitation link</button>
        <p class="muted">The link is valid 7 days and works once; they choose their own password.</p>
      </form>
      <div class="card flush">
        <h2>Members</h2>
        {list.data && (
          <table>
            <thead><tr><th>E-mail</th><th>Role</th><th>Domains</th><th>Last sign-in</th><th></th></tr></thead>
            <tbody>
              {list.data.members.map((m) => (
                <tr data-member={m.username}>
                  <td>{m.username}</td>
                  <td>
                    <select aria-label={`Role of ${m.username}`} value={m.role} onChange={(e) => action.run(() => api('PATCH', `/account/members/${encodeURIComponent(m.username)}`, { role: (e.target as HTMLSelectElement).value }))}>
                      {ROLES.map((r) => (
                        <option value={r}>{r}</option>
                      ))}
                    </select>
                  </td>
                  <td>
                    <MemberDomains member={m} domains={domains} save={(chosen) => action.run(() => api('PATCH', `/account/members/${encodeURIComponent(m.username)}`, { domains: chosen }))} />
                  </td>
                  <td class="nowrap">{m.lastSignInAt ? when(m.lastSignInAt, BROWSER_CLOCK) : <span class="muted">never</span>}</td>
                  <td class="nowrap">
                    <button type="button" onClick={() => ask(`Password reset link of ${m.username}`, () => api('POST', `/account/members/${encodeURIComponent(m.username)}/reset`))}>
                      Reset link
                    </button>{' '}
                    {m.username !== who.username && (
                      <button type="button" onClick={() => confirm(`Remove ${m.username}? They are signed out at once.`) && action.run(() => api('DELETE', `/account/members/${encodeURIComponent(m.username)}`))}>
                        Remove
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {list.data && list.data.invitations.length > 0 && (
        <div class="card flush">
          <h2>Invitations waiting</h2>
          <table>
            <thead><tr><th>E-mail</th><th>Role</th><th>Domains</th><th>Valid until</th><th></th></tr></thead>
            <tbody>
              {list.data.invitations.map((i) => (
                <tr>
                  <td>{i.username}</td>
                  <td>{i.role}</td>
                  <td>{i.domains ? i.domains.join(', ') || 'none' : <span class="muted">every domain</span>}</td>
                  <td class="nowrap">{when(i.expiresAt, BROWSER_CLOCK)}</td>
                  <td>
                    <button type="button" onClick={() => action.run(() => api('DELETE', `/account/invitations/${encodeURIComponent(i.id)}`))}>
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The domains a member sees, and a way to change them (null: every domain, for owners and admins). */
function MemberDomains({ member, domains, save }: { member: Member; domains: string[]; save: (chosen: string[] | null) => void }) {
  const [editing, setEditing] = useState(false);
  const shown = member.domains ? member.domains.join(', ') || 'none' : <span class="muted">every domain</span>;
  if (!editing)
    return (
      <>
        {shown}{' '}
        <button type="button" class="link" onClick={() => setEditing(true)} aria-label={`Change the domains of ${member.username}`}>
          change
        </button>
      </>
    );
  const mayHaveAll = member.role === 'owner' || member.role === 'admin';
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.target as HTMLFormElement);
        setEditing(false);
        save(mayHaveAll && form.get('all') === 'on' ? null : form.getAll('domains').map(String));
      }}
    >
      {mayHaveAll && (
        <label class="check">
          <input type="checkbox" name="all" defaultChecked={!member.domains} /> every domain
        </label>
      )}
      <DomainChecks domains={domains} checked={member.domains ?? []} />
      <button type="submit">Save</button>
    </form>
  );
}

/** A box per domain of the account, named `domains` in the form. */
function DomainChecks({ domains, checked = [] }: { domains: string[]; checked?: string[] }) {
  return (
    <>
      {domains.map((d) => (
        <label class="check">
          <input type="checkbox" name="domains" value={d} defaultChecked={checked.includes(d)} /> {d}
        </label>
      ))}
    </>
  );
}
