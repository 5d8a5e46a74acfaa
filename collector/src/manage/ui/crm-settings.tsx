// The CRM card of Settings (issue 67): connect HubSpot with a private app's token (checked by
// HubSpot at once; nothing kept when it refuses, its words shown), choose what is sent and the
// default owner, test, disconnect; a broken connection says why; the last 50 deliveries, each with
// its links into HubSpot, and "Send again" for a failed one. Owners and admins.
import { useState } from 'preact/hooks';
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

export function CrmCard({ domain }: { domain: string }) {
  const path = `/domains/${encodeURIComponent(domain)}/crm/hubspot`;
  const view = useLoad(() => get<CrmView>(path), [path]);
  const clock = useClock(domain);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const run = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      setMessage({ ok: true, text: done });
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
    view.reload();
  };
  async function save(event: Event) {
    event.preventDefault();
    const f = new FormData(event.target as HTMLFormElement);
    const token = String(f.get('accessToken') ?? '').trim();
    const owner = String(f.get('defaultOwner') ?? '').trim();
    const send = Object.fromEntries(SENDS.map(([name]) => [name, f.get(name) === 'on']));
    await run(() => api('PUT', path, { ...(token ? { accessToken: token } : {}), send, defaultOwner: owner || null }), token ? 'Connected: HubSpot took the token.' : 'Saved.');
  }
  const v = view.data;
  // Shown once loaded: a form made again after someone typed in it would lose what they typed.
  if (!v) return <div class="card settings" data-testid="crm-settings"><h2>CRM</h2>{view.error ? <p class="error">{view.error}</p> : <p class="muted">Loading…</p>}</div>;
  return (
    <form class="card settings" onSubmit={save} data-testid="crm-settings" key={String(v.connected)}>
      <h2>CRM</h2>
      <p class="muted">Each call and form goes to HubSpot as it comes: the caller found or made a contact (never twice), the call logged on it with its source, summary and link, the owner who answered.</p>
      {!v.secretsKeySet && <p class="warn-text">Set SECRETS_KEY on the server to store a CRM's token.</p>}
      {v.connected && (
        <p data-testid="crm-status">
          <strong>{v.account}</strong>, {v.credentials}{' '}
          {v.broken ? <span class="status failed">broken</span> : <span class="status success">connected</span>}
        </p>
      )}
      {v.broken && (
        <p class="error" role="alert" data-testid="crm-broken">
          Broken since {when(v.broken.at, clock)}: {v.broken.error}. Calls and forms wait; test again once access is back, or connect a new token.
        </p>
      )}
      <label>
        {v.connected ? 'A new private app access token (empty: keep the one stored)' : 'HubSpot private app access token'}
        <input name="accessToken" type="password" autocomplete="off" placeholder="pat-na1-…" required={!v.connected} />
      </label>
      <fieldset>
        <legend>What is sent</legend>
        {SENDS.map(([name, words]) => (
          <label class="check">
            <input type="checkbox" name={name} defaultChecked={v.send ? v.send[name] : name === 'calls' || name === 'forms'} /> {words}
          </label>
        ))}
      </fieldset>
      <label>
        Default owner (a HubSpot owner's id, for what nobody answered)
        <input name="defaultOwner" inputMode="numeric" defaultValue={v.defaultOwner ?? ''} />
      </label>
      {message && <p class={message.ok ? 'ok-text' : 'error'} role="status">{message.text}</p>}
      <div class="actions">
        <button type="submit">{v.connected ? 'Update the CRM' : 'Connect HubSpot'}</button>
        {v.connected && (
          <>
            <button type="button" onClick={() => void run(() => api('POST', `${path}/test`), 'HubSpot takes the token.')}>Test</button>
            <button type="button" class="danger" onClick={() => void run(() => api('DELETE', path), 'Disconnected: what was sent stays in HubSpot.')}>Disconnect</button>
          </>
        )}
      </div>
      {v.connected && v.deliveries.length > 0 && (
        <table class="stacked" data-testid="crm-deliveries">
          <thead>
            <tr>
              <th>When</th>
              <th>What</th>
              <th>In HubSpot</th>
              <th>State</th>
            </tr>
          </thead>
          <tbody>
            {v.deliveries.map((d) => (
              <tr>
                <td data-label="When" class="nowrap">{when(d.at, clock)}</td>
                <td data-label="What">{d.kind === 'call' ? <a href={routeHash({ domain, screen: 'call', query: { id: String(d.itemId) } })}>Call {d.itemId}</a> : `Form ${d.itemId}`}</td>
                <td data-label="In HubSpot">
                  {d.records.map((r) => (r.link && r.id ? (
                    <a href={r.link} target="_blank" rel="noopener noreferrer" class="crm-link">
                      {r.object} {r.id}
                    </a>
                  ) : null))}
                </td>
                <td data-label="State">
                  <span class={`status state-${d.state}`}>{d.state === 'failed' ? `failed: ${d.error ?? ''}` : d.state}</span>
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
