// A domain's pools and numbers: add a pool, add numbers to it, remove a number that nobody holds.
import { useState } from 'preact/hooks';
import { api } from './api.ts';
import { useAction } from './hooks.ts';
import { phone } from './format.ts';
import { Failure } from './layout.tsx';
import type { DomainView } from './domain-view.ts';
import { NUMBER_TYPES, numberTypesFor, offPrefix, typeName } from './number-types.ts';
import { parseTimetable, timetableText, type TimetableEntry } from './timetable.ts';
import { BuyForm, CarrierLine } from './carrier.tsx';

export function NumbersCard({ path, domain, changed }: { path: string; domain: DomainView; changed: () => void }) {
  const { error, run } = useAction(changed);
  const [frenchTypes, setFrenchTypes] = useState(false);
  async function addPool(event: Event) {
    event.preventDefault();
    const f = new FormData(event.target as HTMLFormElement);
    await run(() => api('POST', `${path}/pools`, { type: Number(f.get('type')), usage: f.get('usage'), codeDigits: Number(f.get('codeDigits') || 0) }));
  }
  return (
    <div class="card" id="pools">
      <h2>Number pools</h2>
      {error && <Failure message={error} />}
      {domain.pools.map((pool) => {
        const numbers = domain.numbers.filter((n) => n.type === pool.type);
        return (
          <div class="pool" data-pool={pool.type}>
            <h3>
              {typeName(pool.type)}, {pool.usage}
              {pool.codeDigits > 0 && `, shared with ${pool.codeDigits}-digit codes`}
            </h3>
            <ul class={`numbers ${pool.usage}`}>
              {numbers.map((n) => (
                <li>
                  {phone(n.number)}
                  {n.description && <span class="muted"> {n.description}</span>}
                  {pool.usage === 'offline' && n.inUse && (
                    <button type="button" class="link" onClick={() => run(() => api('POST', `${path}/offline-numbers/${n.number}/unassign`))}>
                      unassign
                    </button>
                  )}
                  {pool.usage === 'offline' && n.redirect && <RedirectForm key={JSON.stringify(n.redirect)} number={n.number} redirect={n.redirect} save={(body) => run(() => api('POST', `${path}/offline-numbers/${n.number}/redirect`, body))} />}
                  {pool.usage === 'offline' && n.recording !== undefined && (
                    <label class="check">
                      <input type="checkbox" checked={n.recording} aria-label={`Record calls to ${n.number}`} onChange={(e) => run(() => api('POST', `${path}/offline-numbers/${n.number}/recording`, { recording: (e.target as HTMLInputElement).checked }))} /> record its calls
                      {!domain.recording.enabled && <span class="muted"> (recording is off for the domain: Call handling)</span>}
                    </label>
                  )}
                  {pool.usage === 'online' && n.inUse && <span class="muted"> held now</span>}
                  {n.carrier && <CarrierLine path={path} number={n.number} carrier={n.carrier} changed={changed} />}
                  {!n.inUse && !n.carrier && (
                    <button type="button" class="link" aria-label={`Remove ${n.number}`} onClick={() => run(() => api('DELETE', `${path}/numbers/${n.number}`))}>
                      remove
                    </button>
                  )}
                  {pool.usage === 'offline' && !n.inUse && <AssignForm assign={(body) => run(() => api('POST', `${path}/offline-numbers/${n.number}/assign`, body))} number={n.number} />}
                </li>
              ))}
            </ul>
            <AddNumbersForm type={pool.type} add={(numbers) => run(() => api('POST', `${path}/pools/${pool.type}/numbers`, { numbers }))} />
            {domain.carrierConnected && <BuyForm path={path} type={pool.type} bought={changed} />}
          </div>
        );
      })}
      <form class="inline" onSubmit={addPool}>
        <label>
          Type
          <select name="type" required aria-label="Pool type">
            {numberTypesFor(domain.country, frenchTypes).filter((t) => !domain.pools.some((p) => p.type === t.type)).map((t) => (
              <option value={t.type}>{t.label}</option>
            ))}
          </select>
        </label>
        {domain.country !== 'FR' && (
          <label class="check">
            <input type="checkbox" checked={frenchTypes} onChange={(e) => setFrenchTypes((e.target as HTMLInputElement).checked)} /> French number types too
          </label>
        )}
        <label>Use<select name="usage"><option value="online">online (the tracker)</option><option value="offline">offline (print, radio...)</option></select></label>
        <label>Code digits<input name="codeDigits" type="number" min={0} max={8} value={0} /></label>
        <button type="submit">Add a pool</button>
      </form>
    </div>
  );
}

/** Numbers for a pool, each checked against the type's prefix as it is typed. */
function AddNumbersForm({ type, add }: { type: number; add: (numbers: string[]) => Promise<void> }) {
  const [wrong, setWrong] = useState<string[]>([]);
  return (
    <form
      class="inline"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.target as HTMLFormElement;
        const numbers = String(new FormData(form).get('numbers')).split(/[\n,;]+/).map((n) => n.trim()).filter(Boolean);
        void add(numbers).then(() => form.reset());
      }}
    >
      <input
        name="numbers"
        placeholder="Numbers to add, comma-separated"
        aria-label={`Numbers to add to type ${type}`}
        required
        onInput={(e) => setWrong(offPrefix((e.target as HTMLInputElement).value, type))}
      />
      <button type="submit">Add numbers</button>
      {wrong.length > 0 && <span class="warn-text">{wrong.join(', ')}: not {NUMBER_TYPES.find((t) => t.type === type)?.prefix}… numbers</span>}
    </form>
  );
}

/** An offline number's campaign: where its calls go, and what it is printed on. */
function AssignForm({ number, assign }: { number: string; assign: (body: { destination: string; description: string; allowRedirect: boolean; recording: boolean }) => Promise<void> }) {
  return (
    <form
      class="inline"
      onSubmit={(event) => {
        event.preventDefault();
        const f = new FormData(event.target as HTMLFormElement);
        void assign({ destination: String(f.get('destination')), description: String(f.get('description')), allowRedirect: f.get('allowRedirect') === 'on', recording: f.get('recording') === 'on' });
      }}
    >
      <input name="destination" placeholder="Forwards to" aria-label={`Where ${number} forwards`} required />
      <input name="description" placeholder="Campaign (flyer, radio...)" aria-label={`Campaign of ${number}`} required />
      <label class="check"><input type="checkbox" name="allowRedirect" /> redirect if unanswered</label>
      <label class="check"><input type="checkbox" name="recording" defaultChecked /> record its calls (when the domain records)</label>
      <button type="submit">Assign</button>
    </form>
  );
}

/** An assigned offline number's no-answer redirect: on or off, and when (the offline API's allow_redirect and timetable). */
function RedirectForm({ number, redirect, save }: { number: string; redirect: { allowRedirect: boolean; timetable: TimetableEntry[] }; save: (body: { allowRedirect: boolean; timetable: TimetableEntry[] }) => Promise<void> }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      class="inline redirect"
      onSubmit={(event) => {
        event.preventDefault();
        const f = new FormData(event.target as HTMLFormElement);
        try {
          setError(null);
          void save({ allowRedirect: f.get('allowRedirect') === 'on', timetable: parseTimetable(String(f.get('timetable') ?? '')) });
        } catch (err) {
          setError((err as Error).message);
        }
      }}
    >
      <label class="check"><input type="checkbox" name="allowRedirect" defaultChecked={redirect.allowRedirect} aria-label={`Redirect ${number} if unanswered`} /> redirect if unanswered</label>
      <input name="timetable" defaultValue={timetableText(redirect.timetable, ', ')} placeholder="always, or mon-fri 09:00-18:00" aria-label={`When ${number} redirects`} />
      <button type="submit">Set redirect</button>
      {error && <span class="error">{error}</span>}
    </form>
  );
}
