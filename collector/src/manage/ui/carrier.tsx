// The account's carrier (issue 42): connect a Twilio account, see its numbers and where their calls
// go, import some into a pool, check the wiring; and, on a domain's pools, buy numbers, release one,
// fix one whose calls no longer come here.
import { useState } from 'preact/hooks';
import { numberTypesFor, typeName } from './number-types.ts';
import { api, get, withQuery } from './api.ts';
import { canonicalOf, money, phone, sentence } from './format.ts';
import { useAction, useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';

interface CarrierView {
  connected: boolean;
  secretsKeySet: boolean;
  accountSid?: string;
  apiKey?: string | null;
  name?: string;
  broken?: { at: string; error: string } | null;
}

interface CarrierNumberRow {
  number: string;
  friendlyName: string;
  voiceUrl: string | null;
  pool: { domain: string; type: number } | null;
  wiredHere: boolean;
}

export interface NumberResult {
  number: string;
  ok: boolean;
  error?: string;
  movedFrom?: string | null;
}

/** Each number's outcome of an import or a purchase. */
export function Results({ results, reason }: { results: NumberResult[]; reason?: string | undefined }) {
  return (
    <ul class="results" role="status">
      {results.map((r) => (
        <li class={r.ok ? 'ok-text' : 'error'}>
          {r.number}: {r.ok ? (r.movedFrom ? `done; its calls went to ${r.movedFrom} before` : 'done') : r.error}
        </li>
      ))}
      {reason && <li class="muted">{reason}</li>}
    </ul>
  );
}

export function CarrierCard() {
  const carrier = useLoad(() => get<CarrierView>('/account/carrier'), []);
  const [withKey, setWithKey] = useState(false);
  const [checked, setChecked] = useState<string | null>(null);
  const action = useAction(() => carrier.reload());
  const v = carrier.data;
  return (
    <div class="card" id="carrier">
      <h2>Carrier</h2>
      <p class="muted">Your Twilio account: its numbers are imported or bought into a pool and wired here (voice, status and SMS URLs), never by hand.</p>
      {action.error && <Failure message={action.error} />}
      {v && !v.secretsKeySet && (
        <p class="warn-text">
          To connect a carrier account, set <code>SECRETS_KEY</code> (32 random bytes, base64: <code>openssl rand -base64 32</code>) and restart the collector: its credentials are
          stored encrypted with it. Nothing is stored without it.
        </p>
      )}
      {v && v.secretsKeySet && !v.connected && (
        <form
          class="stack"
          onSubmit={(event) => {
            event.preventDefault();
            const f = new FormData(event.target as HTMLFormElement);
            const text = (name: string) => String(f.get(name) ?? '').trim();
            const secret = withKey ? { apiKey: text('apiKey'), apiSecret: text('apiSecret') } : { authToken: text('authToken') };
            void action.run(() => api('PUT', '/account/carrier', { provider: 'twilio', accountSid: text('accountSid'), ...secret }));
          }}
        >
          <label>Twilio Account SID<input name="accountSid" required placeholder="AC…" autocomplete="off" /></label>
          <label class="check"><input type="checkbox" checked={withKey} onChange={(e) => setWithKey((e.target as HTMLInputElement).checked)} /> Connect with an API key and secret (Twilio's recommended way)</label>
          {withKey ? (
            <div class="row">
              <label>API key SID<input name="apiKey" required placeholder="SK…" autocomplete="off" /></label>
              <label>API key secret<input name="apiSecret" type="password" required autocomplete="off" /></label>
            </div>
          ) : (
            <label>Auth token<input name="authToken" type="password" required autocomplete="off" /></label>
          )}
          <button type="submit">Connect</button>
        </form>
      )}
      {v?.connected && (
        <>
          <p>
            Connected to <strong>{v.name}</strong> <span class="mono">{v.accountSid}</span>
            {v.apiKey && <span class="muted"> by the API key {v.apiKey}</span>}. The secret is stored encrypted and never shown again.{' '}
            <button type="button" onClick={() => action.run(async () => setChecked(checkWords(await api('POST', '/account/carrier/check'))))}>
              Check now
            </button>{' '}
            <button type="button" onClick={() => confirm('Forget this carrier account? Its numbers stay as they are at Twilio.') && action.run(() => api('DELETE', '/account/carrier'))}>
              Remove
            </button>
          </p>
          {v.broken && <p class="error">The connection broke: {sentence(v.broken.error)} It mends by itself when the carrier takes the credentials again (checked daily and at each use); if they were changed or revoked, remove it and connect again with new ones.</p>}
          {checked && <p role="status">{checked}</p>}
          <CarrierNumbers />
        </>
      )}
    </div>
  );
}

function checkWords(answer: { checked: number; miswired: { domain: string; number: string; voiceUrl: string | null }[] }): string {
  if (!answer.miswired.length) return `${answer.checked} numbers checked: their calls all come here.`;
  return `${answer.checked} numbers checked; calls to ${answer.miswired.map((m) => `${m.number} (${m.domain})`).join(', ')} are not tracked: see Number pools.`;
}

/** The carrier account's numbers, and an import of those chosen into a domain's pool. */
function CarrierNumbers() {
  const numbers = useLoad(() => get<{ numbers: CarrierNumberRow[] }>('/account/carrier/numbers'), []);
  const domains = useLoad(() => get<{ name: string; country: string; pools: { type: number; usage: string }[] }[]>('/domains'), []);
  const [chosen, setChosen] = useState<string[]>([]);
  const [domain, setDomain] = useState('');
  const [results, setResults] = useState<NumberResult[] | null>(null);
  const action = useAction(() => numbers.reload());
  const target = domains.data?.find((d) => d.name === (domain || domains.data?.[0]?.name));
  return (
    <>
      {(numbers.error || action.error) && <Failure message={(numbers.error ?? action.error)!} />}
      {numbers.data && !numbers.data.numbers.length && <p class="muted">The Twilio account has no numbers yet: buy some from a domain's Number pools.</p>}
      {numbers.data && numbers.data.numbers.length > 0 && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const type = String(new FormData(event.target as HTMLFormElement).get('type'));
            void action.run(async () => setResults((await api<{ results: NumberResult[] }>('POST', `/domains/${encodeURIComponent(target!.name)}/pools/${type}/numbers/import`, { numbers: chosen })).results));
          }}
        >
          <table>
            <thead><tr><th></th><th>Number</th><th>Its calls go to</th><th>Pool here</th></tr></thead>
            <tbody>
              {numbers.data.numbers.map((n) => (
                <tr>
                  <td>{!n.pool && <input type="checkbox" aria-label={`Import ${n.number}`} checked={chosen.includes(n.number)} onChange={(e) => setChosen((e.target as HTMLInputElement).checked ? [...chosen, n.number] : chosen.filter((x) => x !== n.number))} />}</td>
                  <td>{phone(canonicalOf(n.number))}{n.friendlyName !== n.number && <span class="muted"> {n.friendlyName}</span>}</td>
                  <td class={n.voiceUrl && !n.wiredHere ? 'warn-text' : ''}>{n.wiredHere ? 'here' : (n.voiceUrl ?? <span class="muted">nowhere</span>)}{n.voiceUrl && !n.wiredHere && ' (importing it moves its calls here)'}</td>
                  <td>{n.pool ? `${n.pool.domain}, ${typeName(n.pool.type)}` : <span class="muted">none</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {domains.data && domains.data.length > 0 && numbers.data.numbers.some((n) => !n.pool) && (
            <div class="inline">
              <label>
                Domain
                <select value={target?.name} onChange={(e) => setDomain((e.target as HTMLSelectElement).value)}>
                  {domains.data.map((d) => <option value={d.name}>{d.name}</option>)}
                </select>
              </label>
              <label>
                Pool
                <select name="type" aria-label="Pool to import into">
                  {target?.pools.map((p) => <option value={p.type}>{typeName(p.type)}{p.usage === 'offline' ? ', offline' : ''}</option>)}
                  {/* A type without a pool yet: the import makes it. */}
                  {target && numberTypesFor(target.country).filter((t) => !t.prefix && !target.pools.some((p) => p.type === t.type)).map((t) => <option value={t.type}>{t.label} (a new pool)</option>)}
                </select>
              </label>
              <button type="submit" disabled={!chosen.length || !target}>Import {chosen.length || ''} into the pool</button>
            </div>
          )}
        </form>
      )}
      {results && <Results results={results} />}
    </>
  );
}

interface Price {
  amount: number;
  currency: string;
}

/** Buy numbers into a pool at the carrier: how many, and optionally an area code or digits they
 * contain. Nothing is bought by one click: the monthly price Twilio lists and the total are shown
 * first, and bought only once confirmed (at that price at most). */
export function BuyForm({ path, type, count = 1, label = 'Buy numbers', bought }: { path: string; type: number; count?: number; label?: string; bought: () => void }) {
  const [answer, setAnswer] = useState<{ results: NumberResult[]; reason?: string } | null>(null);
  const [onSale, setOnSale] = useState<{ numbers: string[]; reason?: string } | null>(null);
  const [quote, setQuote] = useState<{ count: number; query: Record<string, string>; price: Price | null; onSale: number } | null>(null);
  const action = useAction(bought);
  const narrowing = (form: HTMLFormElement) => {
    const f = new FormData(form);
    const text = (name: string) => String(f.get(name) ?? '').trim();
    const query = Object.fromEntries(['areaCode', 'locality', 'contains'].map((name) => [name, text(name)]).filter(([, value]) => value));
    return { count: Number(text('count')), query };
  };
  const lookUp = (query: Record<string, string>) => get<{ numbers: string[]; reason?: string }>(withQuery(`${path}/pools/${type}/numbers/available`, query));
  return (
    <form
      class="inline buy"
      onSubmit={(event) => {
        event.preventDefault();
        const { count, query } = narrowing(event.target as HTMLFormElement);
        void action.run(async () => {
          setAnswer(null);
          const [found, quoted] = await Promise.all([lookUp(query), get<{ price: Price | null }>(withQuery(`${path}/pools/${type}/numbers/price`, { count: String(count) }))]);
          setOnSale(null);
          setQuote({ count, query, price: quoted.price, onSale: found.numbers.length });
        });
      }}
    >
      <label>Buy<input name="count" type="number" min={1} max={50} defaultValue={count} aria-label={`How many numbers to buy for type ${type}`} /></label>
      <input name="areaCode" inputMode="numeric" placeholder="area code" aria-label={`Area code for type ${type}`} />
      <input name="locality" placeholder="town or city" aria-label={`Town or city for type ${type}`} />
      <input name="contains" placeholder="containing" aria-label={`Digits the numbers of type ${type} contain`} />
      <button type="button" onClick={(e) => action.run(async () => setOnSale(await lookUp(narrowing((e.target as HTMLElement).closest('form')!).query)))}>
        See what is on sale
      </button>
      <button type="submit">{label}…</button>
      {action.error && <span class="error">{action.error}</span>}
      {onSale && (
        <p class="muted" role="status">
          {onSale.numbers.length ? `On sale now: ${onSale.numbers.join(', ')}` : onSale.reason}
        </p>
      )}
      {quote && (
        <div class="confirm-buy" role="alertdialog" aria-label="Confirm the purchase" data-testid="confirm-buy">
          <p>
            {quote.price
              ? `Buy ${quote.count} number${quote.count === 1 ? '' : 's'} at ${money(quote.price.amount, quote.price.currency)} a month each: ${money(quote.price.amount * quote.count, quote.price.currency)} a month in all, billed by Twilio to the connected account, until released.`
              : `Twilio lists no monthly price for these numbers here: the purchase is billed by Twilio at its price. Buy ${quote.count} number${quote.count === 1 ? '' : 's'}?`}
            {quote.onSale < quote.count && ` Only ${quote.onSale} such number${quote.onSale === 1 ? ' is' : 's are'} on sale now.`}
          </p>
          <button
            type="button"
            onClick={() =>
              void action.run(async () => {
                const confirmed = quote;
                setQuote(null);
                setAnswer(await api('POST', `${path}/pools/${type}/numbers/buy`, { count: confirmed.count, ...confirmed.query, ...(confirmed.price ? { monthlyPrice: confirmed.price.amount } : {}) }));
              })
            }
          >
            Confirm: buy {quote.count}
            {quote.price ? ` for ${money(quote.price.amount * quote.count, quote.price.currency)} a month` : ''}
          </button>
          <button type="button" class="link" onClick={() => setQuote(null)}>
            Cancel
          </button>
        </div>
      )}
      {answer && <Results results={answer.results} reason={answer.reason} />}
    </form>
  );
}

/** A number imported or bought through the carrier: its check's flag, Fix, and Release. */
export function CarrierLine({ path, number, carrier, changed }: { path: string; number: string; carrier: { origin: string; check: { ok: boolean; voiceUrl: string | null } | null }; changed: () => void }) {
  const action = useAction(changed);
  const release = () =>
    action.run(async () => {
      const preview = await api<{ released: string; callsLast30Days: number }>('GET', `${path}/numbers/${number}/release`);
      if (!confirm(`${number} had ${preview.callsLast30Days} calls in the last 30 days. Take it out of the pool and have it ${preview.released}?`)) return;
      await api('POST', `${path}/numbers/${number}/release`);
    });
  return (
    <>
      {carrier.check && !carrier.check.ok && (
        <span class="warn-text">
          {' '}
          calls to this number are not tracked: {carrier.check.voiceUrl ? `its voice URL points to ${carrier.check.voiceUrl}` : 'it left the carrier account'}{' '}
          <button type="button" onClick={() => action.run(() => api('POST', `${path}/numbers/${number}/fix`))}>Fix</button>
        </span>
      )}
      <button type="button" class="link" onClick={release}>
        {carrier.origin === 'bought' ? 'release at the carrier' : 'release to carrier as it was'}
      </button>
      {action.error && <span class="error"> {action.error}</span>}
    </>
  );
}
