// A shared report link (/shared/<token>): a domain's overview, read-only, without signing in; its
// password first when the link has one. The range is kept in the address's hash.
import { useState } from 'preact/hooks';
import type { Overview } from '../../reports/overview.ts';
import { fetchJson, withQuery, type ApiError } from './api.ts';
import { localeOf } from './format.ts';
import { useLoad } from './hooks.ts';
import { OverviewBody } from './overview.tsx';
import { rangeQuery, ReportHeading } from './range.tsx';
import { useRoute } from './route.ts';

type SharedOverview = Omit<Overview, 'model'> & { domain: string; label: string; timeZone: string; country: string };

/** The link's own JSON: not the back end's API, whose session this page has none of. */
const shared = <T,>(method: string, path: string, body?: unknown) => fetchJson<T>(method, `${location.pathname}${path}`, body);

/** The first report this page shows counts as an opening of the link; its later dates do not. */
let openingCounted = false;

export function SharedReport() {
  const route = useRoute();
  const [round, setRound] = useState(0);
  const [status, setStatus] = useState<number | null>(null);
  const report = useLoad(
    () =>
      shared<SharedOverview>('GET', withQuery('/report', { ...rangeQuery(route), ...(openingCounted ? { opening: '0' } : {}) })).then(
        (shown) => {
          openingCounted = true;
          return shown;
        },
        (err: ApiError) => {
          setStatus(err.status);
          throw err;
        },
      ),
    [route.query.from, route.query.to, round],
  );
  const data = report.data;
  return (
    <div class="shell">
      <header class="top">
        <span class="brand">RingTrail</span>
        <span class="muted">{data ? `${data.domain}${data.label ? `: ${data.label}` : ''}` : 'Shared report'}</span>
        <span class="spacer" />
        <span class="muted">Read-only report</span>
      </header>
      <main class="content">
        {report.error && status === 401 && <Unlock unlocked={() => setRound((r) => r + 1)} />}
        {report.error && status !== 401 && <p class="error" role="alert">{report.error}</p>}
        {data && (
          <section>
            <ReportHeading title={`Overview of ${data.domain}`} route={route} />
            <OverviewBody data={data} route={route} clock={{ timeZone: data.timeZone, locale: localeOf(data.country) }} />
          </section>
        )}
      </main>
    </div>
  );
}

function Unlock({ unlocked }: { unlocked: () => void }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      class="card narrow"
      onSubmit={(event) => {
        event.preventDefault();
        const password = String(new FormData(event.target as HTMLFormElement).get('password'));
        shared('POST', '/unlock', { password }).then(unlocked, (err: Error) => setError(err.message));
      }}
    >
      <h2>This report asks for its password</h2>
      <label>
        Password
        <input name="password" type="password" required autoComplete="current-password" />
      </label>
      {error && <p class="error" role="alert">{error}</p>}
      <button type="submit">Open the report</button>
    </form>
  );
}
