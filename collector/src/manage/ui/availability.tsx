// One's own phone and availability (every role): the phone a call flow's ring groups ring, and a
// switch to take no calls for a while (ring groups skip you meanwhile).
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
          <input name="phone" type="tel" key={mine.data.phone ?? ''} defaultValue={mine.data.phone ?? ''} placeholder="06 12 34 56 78" autoComplete="tel" />
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
