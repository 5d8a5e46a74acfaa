// A new domain: its name and time zone; everything else is on its settings screen after.
import { useState } from 'preact/hooks';
import { api } from './api.ts';
import { navigate } from './route.ts';

export function NewDomainScreen({ created, first }: { created: () => void; first: boolean }) {
  const [error, setError] = useState<string | null>(null);
  async function submit(event: Event) {
    event.preventDefault();
    const f = new FormData(event.target as HTMLFormElement);
    const origin = String(f.get('origin')).trim();
    try {
      const domain = await api<{ name: string }>('POST', '/domains', { name: String(f.get('name')).trim(), timeZone: String(f.get('timeZone')), allowedOrigins: origin ? [origin] : [] });
      created();
      navigate({ domain: domain.name, screen: 'settings', query: {} });
    } catch (err) {
      setError((err as Error).message);
    }
  }
  return (
    <section class="narrow">
      <h1>{first ? 'Add your first domain' : 'Add a domain'}</h1>
      <form class="card" onSubmit={submit}>
        <label>Domain name<input name="name" required placeholder="www.example.com" /></label>
        <label>The site's address (allowed origin)<input name="origin" type="url" placeholder="https://www.example.com" /></label>
        <label>Time zone of its reports<input name="timeZone" value={Intl.DateTimeFormat().resolvedOptions().timeZone} /></label>
        {error && <p class="error" role="alert">{error}</p>}
        <button type="submit">Add the domain</button>
      </form>
    </section>
  );
}
