// The CRM card of Settings (issue 67): connect HubSpot (a private app's token) or Salesforce (a
// connected app: the JWT bearer flow or a refresh token), checked by the CRM at once (nothing kept
// when it refuses, its words shown); choose what is sent and the default owner, test, disconnect; a
// broken connection says why; the last 50 deliveries, each with its links into the CRM, what waits
// (queued), and "Send again" for a failed one. Owners and admins.
import { useState } from 'preact/hooks';
import { CRM_NAMES, CRMS, type Crm } from '../../crm/crm-client.ts';
import { api, get } from './api.ts';
import { when } from './format.ts';
import { useClock } from './clock.ts';
import { useLoad } from './hooks.ts';
import { routeHash } from './route.ts';
import type { CrmRecordMark } from '../../telephony/documents.ts';

interface Delivery {
  id: string;
  kind: 'call' | 'form';
  itemId: number;
  records: Pick<CrmRecordMark, 'object' | 'id' | 'link'>[];
  state: string;
  error: string | null;
  at: string;
}

interface CrmView {
  crm: Crm;
  connected: boolean;
  secretsKeySet: boolean;
  account?: string;
  credentials?: string;
  send?: { calls: boolean; forms: boolean; onlyLeads: boolean; onlyFirstCallers: boolean };
  defaultOwner?: string | null;
  broken?: { at: string; error: string } | null;
  deliveries: Delivery[];
}

const SENDS = [
  ['calls', 'Calls, once they ended'],
  ['forms', 'Form submissions'],
  ['onlyLeads', 'Only leads'],
  ['onlyFirstCallers', "Only callers' first calls"],
] as const;

const pathOf = (domain: string, crm: Crm) => `/domains/${encodeURIComponent(domain)}/crm/${crm}`;

/** The card: which CRM (the connected one first), then its connection. */
export function CrmCard({ domain }: { domain: string }) {
  const views = useLoad(() => Promise.all(CRMS.map((crm) => get<CrmView>(pathOf(domain, crm)))), [domain]);
  const [chosen, choose] = useState<Crm | null>(null);
  // Shown once loaded: a form made again after someone typed in it would lose what they typed.
  if (!views.data) return <div class="card settings" data-testid="crm-settings"><h2>CRM</h2>{views.error ? <p class="error">{views.error}</p> : <p class="muted">Loading…</p>}</div>;
  const crm = chosen ?? views.data.find((v) => v.connected)?.crm ?? 'hubspot';
  return (
    <div class="card settings" data-testid="crm-settings">
      <h2>CRM</h2>
      <p class="muted">Each call and form goes to the team's CRM as it comes: the caller found or made (never twice), the call logged on them with its source, summary and link, the owner who answered.</p>
      <div class="actions" role="radiogroup" aria-label="CRM">
        {CRMS.map((c) => {
          const view = views.data!.find((v) => v.crm === c)!;
          return (
            <label class="check">
              <input type="radio" name="crm-choice" checked={c === crm} onChange={() => choose(c)} /> {CRM_NAMES[c]}
              {view.connected && <span class={`status ${view.broken ? 'failed' : 'success'}`}>{view.broken ? 'broken' : 'connected'}</span>}
            </label>
          );
        })}
      </div>
      <CrmConnection key={crm} domain={domain} crm={crm} view={views.data.find((v) => v.crm === crm)!} reload={views.reload} />
    </div>
  );
}

/** A CRM's refusal in words first, its technical reason below (after "The reason:"). */
function CrmError({ text }: { text: string }) {
  const [words, reason] = text.split('. The reason: ');
  return (
    <div role="status" data-testid="crm-error">
      <p class="error">{reason ? `${words}.` : words}</p>
      {reason && <p class="muted small">The reason: {reason}</p>}
    </div>
  );
}

interface Owner {
  id: string;
  name: string;
  email: string | null;
}

/** The default owner, picked from the CRM's owners once connected (an id typed before that). */
function DefaultOwner({ path, crm, connected, stored }: { path: string; crm: Crm; connected: boolean; stored: string | null }) {
  const owners = useLoad(() => (connected ? get<{ owners: Owner[] }>(`${path}/owners`) : Promise.resolve(null)), [path, connected]);
  const label = `Default owner in ${CRM_NAMES[crm]}, for what nobody answered`;
  if (!connected || owners.error || !owners.data)
    return (
      <label>
        {label} ({crm === 'hubspot' ? "a HubSpot owner's id" : "a Salesforce user's id, 005…"}; once connected, picked from a list)
        <input name="defaultOwner" inputMode={crm === 'hubspot' ? 'numeric' : 'text'} defaultValue={stored ?? ''} />
        {owners.error && <CrmError text={owners.error} />}
      </label>
    );
  const list = owners.data.owners;
  return (
    <label>
      {label}
      <select name="defaultOwner" defaultValue={stored ?? ''}>
        <option value="">Nobody: {CRM_NAMES[crm]}'s own default</option>
        {stored && !list.some((o) => o.id === stored) && <option value={stored}>{stored} (no longer among the owners)</option>}
        {list.map((o) => (
          <option value={o.id}>
            {o.name}
            {o.email && o.email !== o.name ? ` (${o.email})` : ''}
          </option>
        ))}
      </select>
    </label>
  );
}

interface Preview {
  callId: number | null;
  objects: { person: string; activity: string } | null;
  person: { phones: string[]; email: string | null; name: string | null; firstSource: string | null; firstCampaign: string | null } | null;
  activity: { title: string; body: string } | null;
}

/** What the last call would be sent as, before anything is connected or sent. */
function WhatIsSent({ domain, path, crm }: { domain: string; path: string; crm: Crm }) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <div class="crm-preview" data-testid="crm-preview">
      <button type="button" onClick={() => get<Preview>(`${path}/preview`).then(setPreview, (err: Error) => setError(err.message))}>
        What would be sent
      </button>
      {error && <p class="error">{error}</p>}
      {preview && !preview.callId && <p class="muted">No call yet: the first one's record shows here.</p>}
      {preview?.callId && preview.person && preview.activity && preview.objects && (
        <div>
          <p class="muted small">
            The last call (<a href={routeHash({ domain, screen: 'call', query: { id: String(preview.callId) } })}>{preview.callId}</a>) would find or make the {preview.objects.person} with {preview.person.phones.join(' or ') || 'no number'}
            {preview.person.name ? ` (${preview.person.name})` : ''}, first touch {preview.person.firstSource ?? 'unattributed'}, and log on them this {preview.objects.activity} in {CRM_NAMES[crm]}:
          </p>
          <pre class="crm-record">
            {preview.activity.title}
            {'\n\n'}
            {preview.activity.body}
          </pre>
        </div>
      )}
    </div>
  );
}

/** One CRM's connection form, status and deliveries. */
function CrmConnection({ domain, crm, view: v, reload }: { domain: string; crm: Crm; view: CrmView; reload: () => void }) {
  const path = pathOf(domain, crm);
  const name = CRM_NAMES[crm];
  const clock = useClock(domain);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const run = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      setMessage({ ok: true, text: done });
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
    reload();
  };
  async function save(event: Event) {
    event.preventDefault();
    const f = new FormData(event.target as HTMLFormElement);
    const text = (field: string) => String(f.get(field) ?? '').trim();
    const owner = text('defaultOwner');
    const send = Object.fromEntries(SENDS.map(([field]) => [field, f.get(field) === 'on']));
    const credentials = crm === 'hubspot' ? (text('accessToken') ? { accessToken: text('accessToken') } : {}) : salesforceCredentials(f);
    const fresh = Object.keys(credentials).length > 0;
    await run(() => api('PUT', path, { ...credentials, send, defaultOwner: owner || null }), fresh ? `Connected: ${name} took the credentials.` : 'Saved.');
  }
  return (
    <form onSubmit={save} key={String(v.connected)} data-testid={`crm-${crm}`}>
      {!v.secretsKeySet && <p class="warn-text">Set SECRETS_KEY on the server to store a CRM's credentials.</p>}
      {v.connected && (
        <p data-testid="crm-status">
          <strong>{v.account}</strong>, {v.credentials}{' '}
          {v.broken ? <span class="status failed">broken</span> : <span class="status success">connected</span>}
        </p>
      )}
      {v.broken && (
        <p class="error" role="alert" data-testid="crm-broken">
          Broken since {when(v.broken.at, clock)}: {v.broken.error}. Calls and forms wait; test again once access is back, or connect new credentials.
        </p>
      )}
      {crm === 'hubspot' ? (
        <label>
          {v.connected ? 'A new private app access token (empty: keep the one stored)' : 'HubSpot private app access token'}
          <input name="accessToken" type="password" autocomplete="off" placeholder="pat-na1-…" required={!v.connected} />
        </label>
      ) : (
        <SalesforceCredentials connected={v.connected} />
      )}
      <fieldset>
        <legend>What is sent</legend>
        {SENDS.map(([field, words]) => (
          <label class="check">
            <input type="checkbox" name={field} defaultChecked={v.send ? v.send[field] : field === 'calls' || field === 'forms'} /> {words}
          </label>
        ))}
      </fieldset>
      <DefaultOwner path={path} crm={crm} connected={v.connected} stored={v.defaultOwner ?? null} />
      {message && (message.ok ? <p class="ok-text" role="status">{message.text}</p> : <CrmError text={message.text} />)}
      <WhatIsSent domain={domain} path={path} crm={crm} />
      <div class="actions">
        <button type="submit">{v.connected ? `Update ${name}` : `Connect ${name}`}</button>
        {v.connected && (
          <>
            <button type="button" onClick={() => void run(() => api('POST', `${path}/test`), `${name} takes the credentials.`)}>Test</button>
            <button type="button" class="danger" onClick={() => void run(() => api('DELETE', path), `Disconnected: what was sent stays in ${name}.`)}>Disconnect</button>
          </>
        )}
      </div>
      {v.connected && v.deliveries.length > 0 && (
        <table class="stacked" data-testid="crm-deliveries">
          <thead>
            <tr>
              <th>When</th>
              <th>What</th>
              <th>In {name}</th>
              <th>State</th>
            </tr>
          </thead>
          <tbody>
            {v.deliveries.map((d) => (
              <tr>
                <td data-label="When" class="nowrap">{when(d.at, clock)}</td>
                <td data-label="What">{d.kind === 'call' ? <a href={routeHash({ domain, screen: 'call', query: { id: String(d.itemId) } })}>Call {d.itemId}</a> : `Form ${d.itemId}`}</td>
                <td data-label={`In ${name}`}>
                  {d.records.map((r) => (r.link && r.id ? (
                    <a href={r.link} target="_blank" rel="noopener noreferrer" class="crm-link">
                      {r.object} {r.id}
                    </a>
                  ) : null))}
                </td>
                <td data-label="State">
                  <span class={`status state-${d.state}`}>{d.state === 'failed' || d.state === 'skipped' ? `${d.state}: ${d.error ?? ''}` : d.state}</span>
                  {d.state === 'failed' && (
                    <button type="button" class="link" onClick={() => void run(() => api('POST', `${path}/resend/${d.id}`), `${d.id} queued again.`)}>
                      Send again
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </form>
  );
}

type SalesforceFlow = 'jwt' | 'refresh-token';

/** Salesforce's credentials by flow: all empty keeps the stored ones. */
function salesforceCredentials(f: FormData): { credentials?: Record<string, unknown> } {
  const text = (field: string) => String(f.get(field) ?? '').trim();
  const flow = text('flow') as SalesforceFlow;
  const sandbox = f.get('sandbox') === 'on';
  if (flow === 'jwt') return text('clientId') || text('privateKey') ? { credentials: { flow, clientId: text('clientId'), username: text('username'), privateKey: text('privateKey'), sandbox } } : {};
  return text('clientId') || text('refreshToken') ? { credentials: { flow, clientId: text('clientId'), ...(text('clientSecret') ? { clientSecret: text('clientSecret') } : {}), refreshToken: text('refreshToken'), sandbox } } : {};
}

/** A connected app's credentials: the JWT bearer flow (a certificate's key) or a refresh token. */
function SalesforceCredentials({ connected }: { connected: boolean }) {
  const [flow, setFlow] = useState<SalesforceFlow>('jwt');
  return (
    <fieldset>
      <legend>{connected ? 'New connected app credentials (empty: keep the ones stored)' : 'Salesforce connected app'}</legend>
      <label>
        Sign-in
        <select name="flow" value={flow} onChange={(e) => setFlow((e.target as HTMLSelectElement).value as SalesforceFlow)}>
          <option value="jwt">JWT bearer flow (the connected app's certificate)</option>
          <option value="refresh-token">Refresh token</option>
        </select>
      </label>
      <label>
        Consumer key
        <input name="clientId" autocomplete="off" required={!connected} />
      </label>
      {flow === 'jwt' ? (
        <>
          <label>
            Username (the integration user the app is approved for)
            <input name="username" autocomplete="off" required={!connected} />
          </label>
          <label>
            The certificate's private key (PEM)
            <textarea name="privateKey" rows={4} autocomplete="off" placeholder="-----BEGIN PRIVATE KEY-----" required={!connected} />
          </label>
        </>
      ) : (
        <>
          <label>
            Consumer secret (when the app requires it)
            <input name="clientSecret" type="password" autocomplete="off" />
          </label>
          <label>
            Refresh token
            <input name="refreshToken" type="password" autocomplete="off" required={!connected} />
          </label>
        </>
      )}
      <label class="check">
        <input type="checkbox" name="sandbox" /> A sandbox (test.salesforce.com)
      </label>
    </fieldset>
  );
}
