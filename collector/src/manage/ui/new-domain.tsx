// A new domain: its name, the addresses of its pages (the name's own https origins proposed, with
// and without www.), and its time zone. It comes with its public key; Settings then guides through
// the rest, in order.
import { TimeZoneInput } from './time-zones.tsx';
import { useEffect, useState } from 'preact/hooks';
import { api, get } from './api.ts';
import { navigate } from './route.ts';

/** `https://example.com` and `https://www.example.com` for `www.example.com` or `example.com`. */
function proposedOrigins(name: string): string[] {
  const bare = name.trim().toLowerCase().replace(/\.$/, '').replace(/^www\./, '');
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(bare) ? [`https://${bare}`, `https://www.${bare}`] : [];
}

const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

export function NewDomainScreen({ created, first }: { created: () => void; first: boolean }) {
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');
  // Proposed from where the browser is (America/Chicago: US, USD); the person may change both.
  const [locale, setLocale] = useState<{ country: string; currency: string } | null>(null);
  useEffect(() => {
    get<{ country: string; currency: string }>(`/locale?timeZone=${encodeURIComponent(BROWSER_ZONE)}`).then(setLocale, () => setLocale({ country: 'FR', currency: 'EUR' }));
  }, []);
  const chooseCountry = (country: string) => {
    if (/^[A-Za-z]{2}$/.test(country)) get<{ country: string; currency: string }>(`/locale?country=${country}`).then(setLocale, () => undefined);
  };
  async function submit(event: Event) {
    event.preventDefault();
    const f = new FormData(event.target as HTMLFormElement);
    const origins = [String(f.get('origin')).trim(), ...f.getAll('proposed').map(String)].filter(Boolean);
    try {
      const domain = await api<{ name: string }>('POST', '/domains', { name: name.trim(), timeZone: String(f.get('timeZone')), country: String(f.get('country')), currency: String(f.get('currency')).trim().toUpperCase(), allowedOrigins: [...new Set(origins.map((o) => o.replace(/\/$/, '')))] });
      created();
      navigate({ domain: domain.name, screen: 'settings', query: {} });
    } catch (err) {
      setError((err as Error).message);
    }
  }
  const proposed = proposedOrigins(name);
  if (!locale) return null;
  return (
    <section class="narrow">
      <h1>{first ? 'Add your first domain' : 'Add a domain'}</h1>
      <form class="card" onSubmit={submit}>
        <label>Domain name<input name="name" required placeholder="www.example.com" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
        {proposed.length > 0 && (
          <fieldset class="proposed">
            <legend>Its pages' addresses (allowed origins)</legend>
            {proposed.map((origin) => (
              <label class="check">
                <input type="checkbox" name="proposed" value={origin} defaultChecked /> {origin}
              </label>
            ))}
          </fieldset>
        )}
        <label>
          The site's address (allowed origin)
          <input name="origin" type="url" placeholder="http://localhost:3000" />
        </label>
        <p class="muted">Another address its pages are served from, such as a test server's; <code>localhost</code> and <code>127.0.0.1</code> are two different ones.</p>
        <label>Time zone of its reports<TimeZoneInput value={BROWSER_ZONE} /></label>
        <div class="row">
          <label>
            Country of its phone numbers (US, GB, FR…): numbers written without a country code are read there
            <input name="country" required maxLength={2} value={locale.country} onChange={(e) => chooseCountry((e.target as HTMLInputElement).value.trim())} />
          </label>
          <label>
            Currency of its sales
            <input name="currency" required maxLength={3} value={locale.currency} onChange={(e) => setLocale({ ...locale, currency: (e.target as HTMLInputElement).value })} />
          </label>
        </div>
        {error && <p class="error" role="alert">{error}</p>}
        <button type="submit">Add the domain</button>
      </form>
    </section>
  );
}
