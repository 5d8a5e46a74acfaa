// A domain's texting settings on a screen (issue 81): the business's name and the answer to HELP
// (the default shown as it is sent), the saved replies, and the text back of a missed caller. Its
// hours, set through the API, are kept as they are.
import { useState } from 'preact/hooks';
import { MAX_TEXT_LENGTH } from '../../texting/segments.ts';
import { api, get } from './api.ts';
import { useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';

interface SavedReply {
  name: string;
  body: string;
}

interface Texting {
  businessName: string | null;
  helpText: string | null;
  savedReplies: SavedReply[];
  textBack: { enabled: boolean; message: string; hours: unknown };
  defaultBusinessName: string;
  helpTextSent: string;
}

export function TextingCard({ path, editable }: { path: string; editable: boolean }) {
  const texting = useLoad(() => get<Texting>(`${path}/texting`), [path]);
  if (texting.error) return <Failure message={texting.error} />;
  if (!texting.data) return null;
  return <TextingForm key={JSON.stringify(texting.data)} path={path} texting={texting.data} editable={editable} saved={texting.reload} />;
}

function TextingForm({ path, texting, editable, saved }: { path: string; texting: Texting; editable: boolean; saved: () => void }) {
  const [replies, setReplies] = useState<SavedReply[]>(texting.savedReplies);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const change = (i: number, field: keyof SavedReply, value: string) => setReplies(replies.map((r, j) => (j === i ? { ...r, [field]: value } : r)));
  async function submit(event: Event) {
    event.preventDefault();
    const f = new FormData(event.target as HTMLFormElement);
    const text = (name: string) => String(f.get(name) ?? '').trim() || null;
    try {
      await api('PUT', `${path}/texting`, {
        businessName: text('businessName'),
        helpText: text('helpText'),
        savedReplies: replies.map((r) => ({ name: r.name.trim(), body: r.body.trim() })).filter((r) => r.name || r.body),
        textBack: { enabled: f.get('textBackEnabled') === 'on', message: text('textBackMessage') ?? texting.textBack.message, hours: texting.textBack.hours },
      });
      setMessage({ ok: true, text: 'Saved.' });
      saved();
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  }
  return (
    <form class="card settings" id="texting" data-testid="texting-settings" onSubmit={submit}>
      <h2>Texting</h2>
      <fieldset disabled={!editable}>
        <label>
          The business's name, as texts give it
          <input name="businessName" defaultValue={texting.businessName ?? ''} placeholder={texting.defaultBusinessName} maxLength={80} />
        </label>
        <p class="muted small">Empty: the account's name, {texting.defaultBusinessName}.</p>
        <label>
          The answer to HELP (carriers require one: who is texting, and how to stop)
          <textarea name="helpText" rows={2} maxLength={320} placeholder={texting.helpTextSent}>
            {texting.helpText ?? ''}
          </textarea>
        </label>
        <p class="muted small" data-testid="help-text-sent">
          Sent now: “{texting.helpTextSent}”
        </p>
        <h3>Saved replies</h3>
        <p class="muted small">Picked in the inbox instead of typing; {'{firstName}'} becomes the person's first name where it is known.</p>
        <ol class="saved-replies">
          {replies.map((r, i) => (
            <li>
              <label>
                Name <input value={r.name} maxLength={60} onInput={(e) => change(i, 'name', (e.target as HTMLInputElement).value)} required />
              </label>
              <label>
                Text <textarea rows={2} maxLength={MAX_TEXT_LENGTH} value={r.body} onInput={(e) => change(i, 'body', (e.target as HTMLTextAreaElement).value)} required />
              </label>
              <button type="button" class="link" onClick={() => setReplies(replies.filter((_, j) => j !== i))}>
                Remove {r.name || 'this reply'}
              </button>
            </li>
          ))}
        </ol>
        <button type="button" onClick={() => setReplies([...replies, { name: '', body: '' }])} disabled={replies.length >= 50}>
          Add a saved reply
        </button>
        <h3>Text back a missed call</h3>
        <label class="check">
          <input type="checkbox" name="textBackEnabled" defaultChecked={texting.textBack.enabled} /> Text a caller nobody answered, from the number they called (once a day at most, only a
          mobile that did not opt out)
        </label>
        <label>
          The text
          <textarea name="textBackMessage" rows={2} maxLength={320}>
            {texting.textBack.message}
          </textarea>
        </label>
      </fieldset>
      {message && <p class={message.ok ? 'ok-text' : 'error'} role="status">{message.text}</p>}
      {editable ? <button type="submit">Update texting</button> : <p class="muted">Owners and admins change these.</p>}
    </form>
  );
}
