// One's own phone and availability (every role): the phone a call flow's ring groups ring, and a
// switch to take no calls for a while (ring groups skip you meanwhile); an agent without a phone is
// asked for it once (issue 81).
import { useState } from 'preact/hooks';
import { api, get } from './api.ts';
import { useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';

export function AvailabilityCard() {
  const mine = useLoad(() => get<{ phone: string | null; available: boolean }>('/profile/availability'), []);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const save = async (body: { phone?: string | null; available?: boolean }, done: string) => {
    try {
      await api('PUT', '/profile/availability', body);
      setMessage({ ok: true, text: done });
      mine.reload();
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  };
  if (!mine.data) return mine.error ? <Failure message={mine.error} /> : null;
  return (
    <form
      class="card"
      data-testid="availability"
      onSubmit={(event) => {
        event.preventDefault();
        const phone = String(new FormData(event.target as HTMLFormElement).get('phone') ?? '').trim();
        void save({ phone: phone || null }, phone ? 'Your phone is saved: ring groups ring it.' : 'Your phone is cleared: ring groups skip you.');
      }}
    >
      <h2>Taking calls</h2>
      <p class="muted">Call flows' ring groups ring you at this phone, unless you switch yourself off.</p>
      <div class="row">
        <label>
          Your phone
          {/* Not controlled: a redraw of the page (another card loading) would put the stored phone back over what is being typed. Drawn again when the stored phone changes. */}
          <input name="phone" type="tel" key={mine.data.phone ?? ''} defaultValue={mine.data.phone ?? ''} placeholder="+1 415 555 0123" autoComplete="tel" />
        </label>
        <label class="check">
          <input type="checkbox" checked={mine.data.available} onChange={(e) => void save({ available: (e.target as HTMLInputElement).checked }, (e.target as HTMLInputElement).checked ? 'You take calls again.' : 'You take no calls: ring groups skip you.')} /> I take calls now
        </label>
      </div>
      <button type="submit">Save my phone</button>
      {message && (message.ok ? <p class="ok-text" role="status">{message.text}</p> : <Failure message={message.text} />)}
    </form>
  );
}

/** Where the prompt remembers it asked, per member: asked once, on this browser. */
const askedKey = (username: string) => `ringtrail.phone-asked.${username}`;

/** An agent signed in without a phone is asked once for it: ring groups skip a member without one. */
export function PhonePrompt({ username, role }: { username: string; role: string }) {
  const [asked, setAsked] = useState(() => role !== 'agent' || localStorage.getItem(askedKey(username)) !== null);
  const mine = useLoad(() => (asked ? Promise.resolve(null) : get<{ phone: string | null }>('/profile/availability')), [asked]);
  const [error, setError] = useState<string | null>(null);
  if (asked || !mine.data || mine.data.phone) return null;
  const done = () => {
    localStorage.setItem(askedKey(username), new Date().toISOString());
    setAsked(true);
  };
  return (
    <form
      class="card notice"
      data-testid="phone-prompt"
      onSubmit={(event) => {
        event.preventDefault();
        const phone = String(new FormData(event.target as HTMLFormElement).get('phone') ?? '').trim();
        api('PUT', '/profile/availability', { phone }).then(done, (err: Error) => setError(err.message));
      }}
    >
      <p>
        <strong>Which phone should ring for you?</strong> Call flows' ring groups ring members at their phone, and skip you until you set one (you can change it later in your Profile).
      </p>
      <div class="row">
        <label>
          Your phone
          <input name="phone" type="tel" required placeholder="+1 415 555 0123" autoComplete="tel" />
        </label>
        <button type="submit">Save my phone</button>
        <button type="button" class="link" onClick={done}>
          Not now
        </button>
      </div>
      {error && <Failure message={error} />}
    </form>
  );
}
