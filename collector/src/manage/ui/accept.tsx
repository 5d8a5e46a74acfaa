// An invitation or password reset link (`#/accept?token=...`): what it is for, or why it cannot be
// used; then the person chooses their password and is signed in.
import { useState } from 'preact/hooks';
import { api } from './api.ts';
import { useLoad } from './hooks.ts';
import { ROLE_NOTES, type Role, type Who } from './who.ts';

interface Link {
  kind: 'invitation' | 'reset';
  username: string;
  account: string;
  role: Role;
  expiresAt: string;
}

export function AcceptScreen({ token, onSignedIn }: { token: string; onSignedIn: (who: Who) => void }) {
  const link = useLoad(() => api<Link>('POST', '/invitations/check', { token }), [token]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const password = String(form.get('password'));
    if (password !== String(form.get('again'))) return setError('The two passwords differ');
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await api<Who>('POST', '/invitations/accept', { token, password }));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const l = link.data;
  return (
    <main class="sign-in">
      <h1 class="brand">RingTrail</h1>
      {link.error && (
        <div class="card" data-testid="link-problem">
          <p class="error" role="alert">{link.error}</p>
          <p>
            <a href="#/">Sign in</a>
          </p>
        </div>
      )}
      {l && (
        <form onSubmit={submit} class="card">
          <h2>{l.kind === 'invitation' ? `Join ${l.account}` : 'Choose a new password'}</h2>
          {l.kind === 'invitation' ? (
            <p class="muted">
              You are invited as <strong>{l.role}</strong> ({ROLE_NOTES[l.role]}). Your login is <strong>{l.username}</strong>.
            </p>
          ) : (
            <p class="muted">
              For <strong>{l.username}</strong>. Every session of yours ends when you save it.
            </p>
          )}
          <label>
            Password (at least 12 characters)
            <input name="password" type="password" required minLength={12} maxLength={200} autoComplete="new-password" />
          </label>
          <label>
            The same again
            <input name="again" type="password" required autoComplete="new-password" />
          </label>
          {error && <p class="error" role="alert">{error}</p>}
          <button type="submit" disabled={busy}>
            {l.kind === 'invitation' ? 'Join and sign in' : 'Save and sign in'}
          </button>
        </form>
      )}
    </main>
  );
}
