// A domain's settings: install, keys, the settings themselves, pools and numbers.
import { TimeZoneInput } from './time-zones.tsx';
import { MailCard } from './alerts.tsx';
import { useEffect, useState } from 'preact/hooks';
import { api, get, type ApiError } from './api.ts';
import { localeOf, phoneAsWritten, when, type Clock } from './format.ts';
import { useLoad, type Loaded } from './hooks.ts';
import { Failure } from './layout.tsx';
import { NumbersCard } from './numbers.tsx';
import { FormTrackingCard } from './forms-settings.tsx';
import type { Route } from './route.ts';
import { ShownOnce } from './shown-once.tsx';
import { BlockedCallersCard, CallHandlingForm } from './call-handling.tsx';
import { TranscriptsCard } from './transcripts-settings.tsx';
import { AnalysisSettingsCard } from './analysis-settings.tsx';
import { RulesCard } from './rules-settings.tsx';
import type { DomainView } from './domain-view.ts';
import { StoredFields } from './stored-fields.tsx';
import { SharedLinksCard } from './shared-links.tsx';
import { AdPlatformsCard } from './conversions.tsx';
import { CrmCard } from './crm-settings.tsx';
import { TextingCard, UsTextingCard } from './texting-settings.tsx';

interface Install {
  scriptTag: string | null;
  allowedOrigins: string[];
  lastViewAt: string | null;
  refusedOrigins: { origin: string; count: number; lastAt: string }[];
}

/** Until the first view arrives, the install check is asked again this often: the set-up turns green by itself. */
const WAITING_POLL_MS = 3000;

export function SettingsScreen({ route }: { route: Route }) {
  const path = `/domains/${encodeURIComponent(route.domain!)}`;
  const domain = useLoad(() => get<DomainView>(path), [path]);
  // Loaded again whenever the key or the origins change (made, rotated, allowed).
  const install = useLoad(() => get<Install>(`${path}/install`), [path, domain.data?.publicKey, domain.data?.allowedOrigins.join()]);
  const waiting = Boolean(install.data) && !install.data!.lastViewAt;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(install.reload, WAITING_POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, install.reload]);
  if (domain.error) return <Failure message={domain.error} />;
  if (!domain.data) return <p class="muted">Loading…</p>;
  const clock: Clock = { timeZone: domain.data.timeZone, locale: localeOf(domain.data.country) };
  return (
    <section>
      <div class="heading">
        <h1>Settings of {domain.data.name}</h1>
      </div>
      <SetUpCard domain={domain.data} install={install.data} />
      <InstallCard path={path} install={install} clock={clock} changed={domain.reload} />
      <KeysCard path={path} domain={domain.data} changed={domain.reload} />
      <SettingsForm path={path} domain={domain.data} saved={domain.reload} />
      <CallHandlingForm path={path} domain={domain.data} saved={domain.reload} />
      <TranscriptsCard path={path} domain={domain.data} saved={domain.reload} />
      <AnalysisSettingsCard path={path} />
      <RulesCard path={path} clock={clock} />
      <FormTrackingCard path={path} domain={domain.data} saved={domain.reload} />
      <AdPlatformsCard domain={route.domain!} />
      <CrmCard domain={route.domain!} />
      <TextingCard path={path} editable />
      <UsTextingCard path={path} country={domain.data.country} carrierConnected={domain.data.carrierConnected === true} />
      <BlockedCallersCard path={path} clock={clock} />
      <NumbersCard path={path} domain={domain.data} changed={domain.reload} />
      <SharedLinksCard path={path} clock={clock} />
      <MailCard clock={clock} />
    </section>
  );
}

/** What a new site still needs, in order, each step checked; gone once the first view has arrived. */
function SetUpCard({ domain, install }: { domain: DomainView; install: Install | null }) {
  const steps: [boolean, string, string][] = [
    [domain.allowedOrigins.length > 0, "The site's addresses (allowed origins), as browsers send them", 'site'],
    [domain.sitePhones.length > 0, "The site's phone numbers: the ones the tracker swaps", 'site'],
    [domain.numbers.some((n) => n.usage === 'online'), 'A pool of tracking numbers, of the type you bought', 'pools'],
    // Ticked when a page of the site sent its first view: a tag made is not a tag pasted.
    [Boolean(install?.lastViewAt), 'The tag, pasted into every page of the site: ticked when its first view arrives (checked every 3 seconds)', 'install'],
  ];
  if (!install || steps.every(([done]) => done)) return null;
  return (
    <div class="card setup" data-testid="set-up">
      <h2>
        Set up {domain.name}: {steps.filter(([done]) => done).length} of {steps.length} done
      </h2>
      <ol>
        {steps.map(([done, text, card]) => (
          <li class={done ? 'done' : ''}>
            <span aria-hidden="true">{done ? '✓' : '○'}</span> {text}
            {!done && (
              <button type="button" class="link" onClick={() => document.getElementById(card)?.scrollIntoView({ behavior: 'smooth' })}>
                go there
              </button>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}

function InstallCard({ path, install, clock, changed }: { path: string; install: Loaded<Install>; clock: Clock; changed: () => void }) {
  const [copied, setCopied] = useState(false);
  /** What the last "Allow this origin" did, or why it did not. */
  const [allowed, setAllowed] = useState<{ ok: boolean; text: string } | null>(null);
  const data = install.data;
  const allow = async (origin: string) => {
    try {
      await api('PATCH', path, { allowedOrigins: [...data!.allowedOrigins, origin] });
      setAllowed({ ok: true, text: `Allowed ${origin}: its pages' views are taken from now on.` });
      install.reload();
      changed();
    } catch (err) {
      // The setting's own name, as the Settings form below calls it.
      setAllowed({ ok: false, text: `${origin} was not allowed: ${(err as ApiError).said ?? (err as Error).message}` });
    }
  };
  return (
    <div class="card" id="install">
      <h2>Install</h2>
      {data && !data.scriptTag && (
        <p>
          The script tag needs a public key.{' '}
          <button type="button" onClick={() => api('POST', `${path}/keys/public`).then(() => { install.reload(); changed(); })}>
            Make the public key
          </button>
        </p>
      )}
      {data?.scriptTag && (
        <>
          <p>Add this tag to every page of the site, before &lt;/body&gt;:</p>
          <pre class="snippet" data-testid="script-tag">{data.scriptTag}</pre>
          <button type="button" onClick={() => navigator.clipboard?.writeText(data.scriptTag!).then(() => setCopied(true))}>
            {copied ? 'Copied' : 'Copy the tag'}
          </button>
          {!data.allowedOrigins.length && <p class="warn-text">No allowed origin yet: add the site's address (https://www.example.com) below, or browsers' requests are refused.</p>}
        </>
      )}
      {data && data.refusedOrigins.length > 0 && (
        <div class="refused" data-testid="refused-origins">
          <p class="warn-text">Pages at these addresses sent the tag's requests, and were refused: they are not allowed origins of this domain.</p>
          <ul>
            {data.refusedOrigins.map((r) => (
              <li>
                <code>{r.origin}</code> <span class="muted">{r.count} refused, the last {when(r.lastAt, clock)}</span>{' '}
                <button type="button" onClick={() => void allow(r.origin)}>
                  Allow this origin
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {allowed && (
        <p class={allowed.ok ? 'ok-text' : 'warn-text'} role="status" data-testid="allow-result">
          {allowed.text}
        </p>
      )}
      {data && (
        <p class={data.lastViewAt ? 'ok-text' : 'muted'} data-testid="last-view">
          {data.lastViewAt ? `Views are arriving: the last one came ${when(data.lastViewAt, clock)} (${clock.timeZone}).` : 'No view has arrived from the site yet.'}{' '}
          <button type="button" class="link" onClick={install.reload}>
            Check again
          </button>
        </p>
      )}
    </div>
  );
}

const KEY_LABELS: Record<string, string> = {
  public: 'Public key (the script tag)',
  api: 'Tracking API key (/ospView, /ospClick, /ospExpiration)',
  data: 'Data API key (/data-api)',
  offline: 'Offline numbers key',
  customer: 'Customer key (carts and orders)',
};

function KeysCard({ path, domain, changed }: { path: string; domain: DomainView; changed: () => void }) {
  const [made, setMade] = useState<{ kind: string; key: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const make = async (kind: string) => {
    const warning = kind === 'public' ? 'The tag on the site stops working at once: every page needs the new one.' : `The current ${kind} key stops working at once.`;
    if (domain.keys[kind] && !confirm(`${warning} Make a new one?`)) return;
    try {
      setMade(await api('POST', `${path}/keys/${kind}`));
      changed();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <div class="card">
      <h2>Keys</h2>
      <p class="muted">Keys are stored hashed: a new key is shown once. The call-center key is on the Account page.</p>
      {made && <ShownOnce label={`New ${made.kind} key`} value={made.key} />}
      {error && <Failure message={error} />}
      <table>
        <tbody>
          {Object.entries(KEY_LABELS).map(([kind, label]) => (
            <tr>
              <td>{label}</td>
              <td>{domain.keys[kind] ? <span class="ok-text">set</span> : <span class="muted">none</span>}</td>
              <td class="num">
                <button type="button" onClick={() => make(kind)} data-key-kind={kind}>
                  {domain.keys[kind] ? 'Rotate' : 'Make'}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);

function SettingsForm({ path, domain, saved }: { path: string; domain: DomainView; saved: () => void }) {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  async function submit(event: Event) {
    event.preventDefault();
    const f = new FormData(event.target as HTMLFormElement);
    const text = (name: string) => String(f.get(name) ?? '');
    const sales = new Set(text('saleStatuses').split(',').map((s) => s.trim()).filter(Boolean));
    const body: Record<string, unknown> = {
      allowedOrigins: lines(text('allowedOrigins')),
      sitePhones: lines(text('sitePhones')),
      displayMode: text('displayMode'),
      antiFlickerMs: Number(text('antiFlickerMs')),
      defaultExpiration: Number(text('defaultExpiration')),
      numbersPerAddress: Number(text('numbersPerAddress')),
      timeZone: text('timeZone'),
      country: text('country'),
      currency: text('currency').toUpperCase(),
      callerPrivacy: text('callerPrivacy'),
      offlineApiEnabled: f.get('offlineApiEnabled') === 'on',
      orderStatuses: lines(text('orderStatuses')).map((name) => ({ name, isSale: sales.has(name) })),
    };
    // The secret is write-only: sent only when typed, the one set stays otherwise.
    if (text('ga4MeasurementId')) Object.assign(body, { ga4MeasurementId: text('ga4MeasurementId'), ...(text('ga4ApiSecret') ? { ga4ApiSecret: text('ga4ApiSecret') } : {}) });
    try {
      await api('PATCH', path, body);
      setMessage({ ok: true, text: 'Saved.' });
      saved();
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  }
  return (
    <form class="card settings" id="site" onSubmit={submit}>
      <h2>Site</h2>
      <StoredFields domain={domain}>
      <label>Allowed origins, one per line<textarea name="allowedOrigins" rows={Math.max(2, domain.allowedOrigins.length)} placeholder="https://www.example.com">{domain.allowedOrigins.join('\n')}</textarea></label>
      <label>The site's phone numbers, one per line (the tracker swaps only these)<textarea name="sitePhones" rows={2}>{domain.sitePhones.map(phoneAsWritten).join('\n')}</textarea></label>
      <div class="row">
        <label>Display<select name="displayMode"><option value="direct" selected={domain.displayMode === 'direct'}>direct: swap at once</option><option value="click" selected={domain.displayMode === 'click'}>click: reveal on click</option></select></label>
        <label>Anti-flicker (ms)<input name="antiFlickerMs" type="number" min={0} max={5000} defaultValue={domain.antiFlickerMs} /></label>
        <label>Number held for (s)<input name="defaultExpiration" type="number" min={1} defaultValue={domain.defaultExpiration} /></label>
        <label title="So that one address cannot take the whole pool. Behind one office or school address, raise it to the visitors there at once; 0: no limit.">
          Numbers one address may hold<input name="numbersPerAddress" type="number" min={0} max={10000} defaultValue={domain.numbersPerAddress} />
        </label>
      </div>
      <div class="row">
        <label>Time zone<TimeZoneInput value={domain.timeZone} /></label>
        <label title="How numbers written without a country code are read (ISO 3166-1 alpha-2: FR, US, GB…)">Country of its numbers<input name="country" defaultValue={domain.country} maxLength={2} size={3} /></label>
        <label>Currency<input name="currency" defaultValue={domain.currency} maxLength={3} /></label>
        <label>Callers shown<select name="callerPrivacy"><option value="none" selected={domain.callerPrivacy === 'none'}>whole</option><option value="partial" selected={domain.callerPrivacy === 'partial'}>without the last 4 digits</option><option value="full" selected={domain.callerPrivacy === 'full'}>hidden</option></select></label>
      </div>
      <div class="row">
        <label>Order statuses, one per line<textarea name="orderStatuses" rows={4}>{domain.orderStatuses.map((s) => s.name).join('\n')}</textarea></label>
        <label>Of which sales (comma-separated)<input name="saleStatuses" defaultValue={domain.orderStatuses.filter((s) => s.isSale).map((s) => s.name).join(', ')} /></label>
      </div>
      <div class="row">
        <label>GA4 measurement id<input name="ga4MeasurementId" defaultValue={domain.ga4MeasurementId ?? ''} placeholder="G-XXXXXXX" /></label>
        <label>GA4 API secret<input name="ga4ApiSecret" type="password" autoComplete="off" defaultValue="" placeholder={domain.ga4ApiSecretSet ? 'set: type a new one to replace it' : 'not set'} /></label>
      </div>
      <label class="check"><input type="checkbox" name="offlineApiEnabled" defaultChecked={domain.offlineApiEnabled} /> Offline numbers API enabled</label>
      </StoredFields>
      {message && <p class={message.ok ? 'ok-text' : 'error'} role="status">{message.text}</p>}
      <button type="submit">Save</button>
    </form>
  );
}
