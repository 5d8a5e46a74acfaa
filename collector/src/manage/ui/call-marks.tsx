// A call's tags, value and history on its page: the account's tags as chips (× takes one off, the
// list adds one), the lead's value, and what people and rules did to it. A tag taken off here is
// never put back by a rule; a value set here is never changed by one.
import { useState } from 'preact/hooks';
import { api, get } from './api.ts';
import { when, type Clock } from './format.ts';
import { useLoad } from './hooks.ts';

export interface Tag {
  name: string;
  colour: string;
}

/** The account's tags, for the chips' colours and the list that adds one. */
export const useAccountTags = () => useLoad(() => get<{ tags: Tag[] }>('/account/tags'), []);

export function TagChips({ names, tags, remove }: { names: string[]; tags: Tag[]; remove?: (name: string) => void }) {
  return (
    <>
      {names.map((name) => (
        <span class="tag" style={{ background: tags.find((t) => t.name === name)?.colour ?? '#4b5563' }} data-testid="tag">
          {name}
          {remove && (
            <button type="button" class="link" aria-label={`Remove the tag ${name}`} onClick={() => remove(name)}>
              ×
            </button>
          )}
        </span>
      ))}
    </>
  );
}

export function CallMarksCard({ path, tags, value, currency, history, clock, changed }: { path: string; tags: string[]; value: number | null; currency: string; history: { at: string; by: string; what: string }[]; clock: Clock; changed: () => void }) {
  const account = useAccountTags();
  const [error, setError] = useState<string | null>(null);
  const act = async (work: () => Promise<unknown>) => {
    try {
      await work();
      setError(null);
      changed();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const setTags = (next: string[]) => act(() => api('PUT', `${path}/tags`, { tags: next }));
  const free = (account.data?.tags ?? []).filter((t) => !tags.includes(t.name));
  async function saveValue(event: Event) {
    event.preventDefault();
    const raw = String(new FormData(event.target as HTMLFormElement).get('value') ?? '').trim();
    await act(() => api('PUT', `${path}/value`, { value: raw === '' ? null : Number(raw.replace(',', '.')) }));
  }
  return (
    <div class="card" data-testid="call-marks">
      <h2>Tags and value</h2>
      <p>
        <TagChips names={tags} tags={account.data?.tags ?? []} remove={(name) => setTags(tags.filter((t) => t !== name))} />
        {free.length > 0 && (
          <select aria-label="Add a tag" value="" onChange={(e) => setTags([...tags, (e.target as HTMLSelectElement).value])}>
            <option value="">+ tag</option>
            {free.map((t) => (
              <option value={t.name}>{t.name}</option>
            ))}
          </select>
        )}
        {!tags.length && !free.length && <span class="muted">No tag yet: an owner or admin makes them under Settings, Rules.</span>}
      </p>
      <form class="inline" onSubmit={saveValue}>
        <label>
          Value ({currency}) <input name="value" inputMode="decimal" size={8} defaultValue={value === null ? '' : String(value)} key={String(value)} />
        </label>{' '}
        <button type="submit">Set the value</button>
      </form>
      {error && <p class="error">{error}</p>}
      {history.length > 0 && (
        <ul class="history" data-testid="call-history">
          {history.map((h) => (
            <li>
              <span class="muted nowrap">{when(h.at, clock)}</span> {h.what} <span class="muted">by {h.by}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
