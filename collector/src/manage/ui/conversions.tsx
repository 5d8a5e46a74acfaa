// The Conversions screen (issue 56): each ad platform the domain sends its leads to, in a word
// (connected, broken and why, not connected) with how many leads are in each state; owners and
// admins connect one, send a test (the platform's answer shown) or disconnect it; then each lead's
// conversion, newest first, by platform and state, with the platform's reason.
import { useState } from 'preact/hooks';
import { api, get, withQuery } from './api.ts';
import { useAction, useLoad } from './hooks.ts';
import { useClock } from './clock.ts';
import { sentence, when } from './format.ts';
import { Failure } from './layout.tsx';
import { Pager } from './pager.tsx';
import { navigate, routeHash, type Route } from './route.ts';
import { may, useWho } from './who.ts';
import { ADS_PLATFORMS as PLATFORMS, CONVERSION_STATES as STATES, PLATFORM_NAMES as NAMES, type AdsPlatform } from '../../ads/names.ts';

type Platform = AdsPlatform;

interface PlatformLine {
  platform: Platform;
  connected: boolean;
  broken: { at: string; error: string } | null;
  counts: Record<string, number>;
}

interface ConversionRow {
  platform: Platform;
  kind: 'call' | 'form';
  id: number;
  state: string;
  at: string;
  reason?: string;
}

/** Each platform's connection form: its fields, and the body they make. */
const FIELDS: Record<Platform, { name: string; label: string; secret?: boolean; optional?: boolean; long?: boolean }[]> = {
  google: [
    { name: 'operatingAccountId', label: 'Google Ads account (customer id)' },
    { name: 'conversionActionId', label: 'Conversion action id (UPLOAD_CLICKS)' },
    { name: 'loginAccountId', label: 'Manager account (optional)', optional: true },
    { name: 'serviceAccountKey', label: 'Service account key (the JSON file)', secret: true, long: true },
  ],
  microsoft: [
    { name: 'customerId', label: 'Customer id' },
    { name: 'accountId', label: 'Account id' },
    { name: 'conversionName', label: 'Offline conversion goal' },
    { name: 'developerToken', label: 'Developer token', secret: true },
    { name: 'clientId', label: 'OAuth client id' },
    { name: 'clientSecret', label: 'OAuth client secret (optional)', secret: true, optional: true },
    { name: 'refreshToken', label: 'Refresh token', secret: true },
  ],
  meta: [
    { name: 'datasetId', label: 'Dataset (pixel) id' },
    { name: 'accessToken', label: "System user's access token", secret: true },
  ],
};

function bodyOf(platform: Platform, f: FormData): Record<string, unknown> {
  const values = Object.fromEntries(FIELDS[platform].flatMap(({ name }) => (String(f.get(name) ?? '').trim() ? [[name, String(f.get(name)).trim()]] : [])));
  if (platform !== 'microsoft') return values;
  const { clientId, clientSecret, refreshToken, ...rest } = values;
  return { ...rest, oauth: { clientId, refreshToken, ...(clientSecret ? { clientSecret } : {}) } };
}

function PlatformCard({ domain, line, reload }: { domain: string; line: PlatformLine; reload: () => void }) {
  const who = useWho();
  const [open, setOpen] = useState(false);
  const [answer, setAnswer] = useState<{ ok: boolean; answer: string } | null>(null);
  const action = useAction(() => {
    setOpen(false);
    reload();
  });
  const clock = useClock(domain);
  const path = `/domains/${encodeURIComponent(domain)}/ads/${line.platform}`;
  const counted = STATES.filter((state) => line.counts[state]);
  return (
    <div class="card" data-testid={`ads-${line.platform}`}>
      <h2>{NAMES[line.platform]}</h2>
      <p class={line.broken ? 'warn-text' : line.connected ? 'ok-text' : 'muted'}>
        {line.broken ? `Refuses the credentials since ${when(line.broken.at, clock)}: ${sentence(line.broken.error)} Leads wait: they go by themselves once the platform takes the credentials again (each send tries), or once it is connected with new ones.` : line.connected ? 'Connected: each lead is sent a few seconds after it becomes one.' : 'Not connected.'}
      </p>
      {counted.length > 0 && (
        <p class="counts">
          {counted.map((state) => (
            <a class={`status state-${state}`} href={routeHash({ domain, screen: 'conversions', query: { platform: line.platform, state } })}>
              {state} {line.counts[state]! >= 10_000 ? '10000+' : line.counts[state]}
            </a>
          ))}
        </p>
      )}
      {action.error && <Failure message={action.error} />}
      {answer && <p class={answer.ok ? 'ok-text' : 'error'} role="status">{answer.answer}</p>}
      {may.manageDomain(who) && (
        <div class="actions">
          {line.connected && (
            <button type="button" onClick={() => void action.run(async () => setAnswer(await api('POST', `${path}/test`)))}>
              Send a test
            </button>
          )}
          <button type="button" onClick={() => setOpen(!open)}>{open ? 'Cancel' : line.connected ? 'Connect again' : 'Connect'}</button>
          {line.connected && (
            <button type="button" class="danger" onClick={() => confirm(`Disconnect ${NAMES[line.platform]}? Leads are no longer sent to it.`) && void action.run(() => api('DELETE', path))}>
              Disconnect
            </button>
          )}
        </div>
      )}
      {open && (
        <form
          class="stack"
          onSubmit={(event) => {
            event.preventDefault();
            void action.run(() => api('PUT', path, bodyOf(line.platform, new FormData(event.target as HTMLFormElement))));
          }}
        >
          {FIELDS[line.platform].map((field) => (
            <label>
              {field.label}
              {field.long ? <textarea name={field.name} rows={4} required={!field.optional} autocomplete="off" /> : field.secret ? <input name={field.name} type="password" required={!field.optional} autocomplete="off" /> : <input name={field.name} required={!field.optional} autocomplete="off" />}
            </label>
          ))}
          <p class="muted">The credentials are checked with {NAMES[line.platform]} at once, stored encrypted, and never shown again.</p>
          <button type="submit">Connect {NAMES[line.platform]}</button>
        </form>
      )}
    </div>
  );
}

/** The platforms' cards alone, for the Settings screen: connect, send a test, disconnect there too. */
export function AdPlatformsCard({ domain }: { domain: string }) {
  const { data, error, reload } = useLoad(() => get<{ platforms: PlatformLine[] }>(`/domains/${encodeURIComponent(domain)}/ads`), [domain]);
  return (
    <div class="card" id="ad-platforms">
      <h2>Ad platforms</h2>
      <p class="muted">
        Each lead is sent to the platforms connected here, with its value. Every lead's state: <a href={routeHash({ domain, screen: 'conversions', query: {} })}>Conversions</a>.
      </p>
      {error && <Failure message={error} />}
      <div class="platforms">{data?.platforms.map((line) => <PlatformCard domain={domain} line={line} reload={reload} />)}</div>
    </div>
  );
}

export function ConversionsScreen({ route }: { route: Route }) {
  const domain = route.domain!;
  const page = Number(route.query.page) || 1;
  const { data, error, reload } = useLoad(
    () => get<{ platforms: PlatformLine[]; conversions: ConversionRow[]; page: number; more: boolean }>(withQuery(`/domains/${encodeURIComponent(domain)}/ads`, { platform: route.query.platform, state: route.query.state, page })),
    [domain, route.query.platform, route.query.state, page],
  );
  const set = (query: Record<string, string>) => navigate({ ...route, query: { ...route.query, page: '', ...query } });
  const clock = useClock(domain);
  return (
    <section>
      <div class="heading">
        <h1>Conversions</h1>
      </div>
      <p class="muted">Qualified leads sent to the ad platforms by their APIs, with their value, so that bidding learns from phone leads the same day.</p>
      {error && <Failure message={error} />}
      <div class="platforms">{data?.platforms.map((line) => <PlatformCard domain={domain} line={line} reload={reload} />)}</div>
      <div class="toolbar">
        <select aria-label="Platform" value={route.query.platform ?? ''} onChange={(e) => set({ platform: (e.target as HTMLSelectElement).value })}>
          <option value="">Every platform</option>
          {PLATFORMS.map((p) => (
            <option value={p}>{NAMES[p]}</option>
          ))}
        </select>
        <select aria-label="State" value={route.query.state ?? ''} onChange={(e) => set({ state: (e.target as HTMLSelectElement).value })}>
          <option value="">Every state</option>
          {STATES.map((s) => (
            <option value={s}>{s}</option>
          ))}
        </select>
      </div>
      <div class="card flush" data-testid="conversions">
        {data && !data.conversions.length && <p class="muted">No lead here yet: each lead is listed once it is queued for a platform.</p>}
        {data && data.conversions.length > 0 && (
          <table>
            <thead><tr><th>When</th><th>Lead</th><th>Platform</th><th>State</th><th>Why</th></tr></thead>
            <tbody>
              {data.conversions.map((row) => (
                <tr>
                  <td class="nowrap">{when(row.at, clock)}</td>
                  <td>{row.kind === 'call' ? <a href={routeHash({ domain, screen: 'call', query: { id: String(row.id) } })}>Call {row.id}</a> : <a href={routeHash({ domain, screen: 'forms', query: {} })}>Form {row.id}</a>}</td>
                  <td>{NAMES[row.platform]}</td>
                  <td><span class={`status state-${row.state}`}>{row.state}</span></td>
                  <td>{row.reason ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {data && <Pager page={page} hasMore={data.more} go={(p) => set({ page: p > 1 ? String(p) : '' })} />}
    </section>
  );
}
