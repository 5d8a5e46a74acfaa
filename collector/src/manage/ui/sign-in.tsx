// The sign-in page, and the sign-up page where the server allows it.
import { useState } from 'preact/hooks';
import { api } from './api.ts';
import type { Who } from './who.ts';

export type { Who };

export function SignIn({ signUpOpen, onSignedIn }: { signUpOpen: boolean; onSignedIn: (who: Who) => void }) {
  const [mode, setMode] = useState<'in' | 'up'>('in');
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const form = Object.fromEntries(new FormData(event.target as HTMLFormElement)) as Record<string, string>;
    setBusy(true);
    setError(null);
    try {
      onSignedIn(mode === 'in' ? await api<Who>('POST', '/session', form) : await api<Who>('POST', '/signup', form));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="sign-in">
      <h1 class="brand">RingTrail</h1>
      <p class="tagline">Which sources make your phone ring.</p>
      <form onSubmit={submit} class="card">
        <h2>{mode === 'in' ? 'Sign in' : 'Create an account'}</h2>
        {mode === 'up' && (
          <label>
            Company
            <input name="account" required minLength={2} autoComplete="organization" />
          </label>
        )}
        <label>
          E-mail
          <input name="username" type="email" required autoComplete="username" />
        </label>
        <label>
          Password
          <input name="password" type="password" required minLength={mode === 'up' ? 12 : 1} autoComplete={mode === 'in' ? 'current-password' : 'new-password'} />
        </label>
        {error && <p class="error" role="alert">{error}</p>}
        {note && <p class="muted" role="status">{note}</p>}
        <button type="submit" disabled={busy}>
          {mode === 'in' ? 'Sign in' : 'Sign up'}
        </button>
        {mode === 'in' && (
          <p class="switch">
            <a
              href="#"
              onClick={(e) => {
                e.preventDefault();
                const form = (e.target as HTMLElement).closest('form')!;
                const username = String(new FormData(form).get('username') ?? '').trim();
                setNote(null);
                if (!username) {
                  (form.elements.namedItem('username') as HTMLInputElement).focus();
                  setError('E-mail is required: type the address you sign in with, then ask again.');
                  return;
                }
                setError(null);
                api<{ message: string }>('POST', '/password-reset', { username }).then((a) => setNote(a.message), (err: Error) => setError(err.message));
              }}
            >
              Forgot your password?
            </a>
          </p>
        )}
        {signUpOpen && (
          <p class="switch">
            {mode === 'in' ? 'New here? ' : 'Have an account? '}
            <a href="#" onClick={(e) => { e.preventDefault(); setMode(mode === 'in' ? 'up' : 'in'); setError(null); }}>
              {mode === 'in' ? 'Create an account' : 'Sign in'}
            </a>
          </p>
        )}
      </form>
    </main>
  );
}
