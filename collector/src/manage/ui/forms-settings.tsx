// A domain's form tracking: on or off, and the fields to capture beside the contact fields the tag
// finds by itself (never passwords, hidden or payment card fields).
import { useState } from 'preact/hooks';
import { api } from './api.ts';
import type { DomainView } from './domain-view.ts';

export function FormTrackingCard({ path, domain, saved }: { path: string; domain: DomainView; saved: () => void }) {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <form
      class="card settings"
      data-testid="form-tracking"
      key={JSON.stringify(domain.formTracking)}
      onSubmit={(event) => {
        event.preventDefault();
        const f = new FormData(event.target as HTMLFormElement);
        const fields = String(f.get('fields') ?? '').split(/[\n,]+/).map((name) => name.trim()).filter(Boolean);
        api('PATCH', path, { formTracking: { enabled: f.get('enabled') === 'on', fields } }).then(
          () => {
            setMessage({ ok: true, text: 'Saved.' });
            saved();
          },
          (err: Error) => setMessage({ ok: false, text: err.message }),
        );
      }}
    >
      <h2>Forms</h2>
      <label class="check">
        <input type="checkbox" name="enabled" defaultChecked={domain.formTracking.enabled} /> Capture the site's form submissions as leads, attributed like calls (the tag loads a small second
        script for it; nothing is sent without the visitor's consent)
      </label>
      <label>
        Also capture these fields (their names, one per line or comma-separated)
        <textarea name="fields" rows={2} placeholder="budget, postcode">{domain.formTracking.fields.join('\n')}</textarea>
      </label>
      <p class="muted">
        Captured by themselves: names, e-mail addresses, phone numbers, companies, subjects and messages. Never passwords, hidden fields or payment card fields, nor any field or
        form marked <code>data-ringtrail-ignore</code>.
      </p>
      {message && <p class={message.ok ? 'ok-text' : 'error'} role="status">{message.text}</p>}
      <button type="submit">Update forms</button>
    </form>
  );
}
