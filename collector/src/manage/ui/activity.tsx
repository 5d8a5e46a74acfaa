// The audit trail (owners and admins): who changed what, when and from where, newest first; this
// domain's, or the whole account's (an admin: the domains they are given); by person and by kind.
import { typeName } from './number-types.ts';
import { get, withQuery } from './api.ts';
import { actionWords, fieldWords, valueWords } from './activity-words.ts';
import { canonicalOf, phone, when } from './format.ts';
import { useClock } from './clock.ts';
import { useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';
import { navigate, type Route } from './route.ts';

interface Entry {
  at: string;
  username: string;
  action: string;
  kind: string;
  domain?: string;
  ip: string;
  details?: Record<string, unknown>;
}

const KINDS = ['domain', 'key', 'pool', 'numbers', 'offline-number', 'caller', 'call', 'recording', 'flow', 'analysis', 'texting', 'text', 'conversation', 'shared-link', 'webhook', 'carrier', 'form', 'person', 'member', 'password', 'session', 'account'];

const PHONE_FIELDS = new Set(['number', 'numbers', 'bought', 'destination']);
/** Ids a person cannot read (a conversation's, a text's, a note's): the action says what it was about. */
const ID_FIELDS = new Set(['conversation', 'text', 'note', 'campaign']);
type Change = { field: string; from: unknown; to: unknown } | { field: string; changed: true };

/** An entry's details in a line, in words: `numbers: (415) 555-0141, (415) 555-0142`,
 * `recording: (enabled off, consent notice on) → (enabled on, consent notice on)`. */
function detailsOf(details: Record<string, unknown> | undefined): string {
  if (!details) return '';
  // Phone numbers as the domain's country writes them (the answer's phoneDisplay).
  // A pool by its name ("Local numbers"), never "type 100".
  const shown = (k: string, v: unknown): unknown => (Array.isArray(v) ? v.map((x) => shown(k, x)) : PHONE_FIELDS.has(k) && typeof v === 'string' && /^\+?\d+$/.test(v) ? phone(v.startsWith('+') ? canonicalOf(v) : v) : k === 'type' && typeof v === 'number' ? typeName(v) : v);
  // A settings change: what changed, from what to what (a secret only as changed).
  if (Array.isArray(details.changes)) return (details.changes as Change[]).map((c) => ('changed' in c ? `${fieldWords(c.field)} changed` : `${fieldWords(c.field)}: ${valueWords(c.from)} → ${valueWords(c.to)}`)).join('; ');
  return Object.entries(details)
    .filter(([k]) => !ID_FIELDS.has(k))
    .map(([k, v]) => `${k === 'type' ? 'pool' : fieldWords(k)}: ${valueWords(shown(k, v))}`)
    .join('; ');
}

export function ActivityScreen({ route }: { route: Route }) {
  const scope = route.query.scope === 'account' ? 'account' : 'domain';
  const path = scope === 'account' ? '/account/activity' : `/domains/${encodeURIComponent(route.domain!)}/activity`;
  const { data, error } = useLoad(() => get<{ entries: Entry[] }>(withQuery(path, { username: route.query.person, kind: route.query.kind })), [path, route.query.person, route.query.kind]);
  const set = (query: Record<string, string>) => navigate({ ...route, query: { ...route.query, ...query } });
  const clock = useClock(route.domain);
  return (
    <section>
      <div class="heading">
        <h1>Activity</h1>
        <div class="range">
          <button type="button" class={scope === 'domain' ? 'active' : ''} onClick={() => set({ scope: '' })}>
            {route.domain}
          </button>
          <button type="button" class={scope === 'account' ? 'active' : ''} onClick={() => set({ scope: 'account' })}>
            Whole account
          </button>
        </div>
      </div>
      <div class="toolbar">
        <input aria-label="Person" type="search" placeholder="Person (e-mail)" value={route.query.person ?? ''} onChange={(e) => set({ person: (e.target as HTMLInputElement).value.trim() })} />
        <select aria-label="Kind" value={route.query.kind ?? ''} onChange={(e) => set({ kind: (e.target as HTMLSelectElement).value })}>
          <option value="">Every kind</option>
          {KINDS.map((k) => (
            <option value={k}>{k}</option>
          ))}
        </select>
      </div>
      {error && <Failure message={error} />}
      <div class="card flush" data-testid="activity">
        {data && !data.entries.length && <p class="muted">No change recorded here yet.</p>}
        {data && data.entries.length > 0 && (
          <table class="stacked">
            <thead><tr><th>When</th><th>Who</th><th>What</th><th>Domain</th><th>Details</th><th>From</th></tr></thead>
            <tbody>
              {data.entries.map((e) => (
                <tr>
                  <td class="nowrap" data-label="When">{when(e.at, clock)}</td>
                  <td data-label="Who">{e.username}</td>
                  <td data-label="What">
                    {actionWords(e.action)} <span class="muted mono small">{e.action}</span>
                  </td>
                  <td data-label="Domain">{e.domain ?? <span class="muted">account</span>}</td>
                  <td data-label="Details">{detailsOf(e.details)}</td>
                  <td class="mono" data-label="From">{e.ip}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
