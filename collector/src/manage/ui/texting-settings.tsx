// A domain's texting settings on a screen (issue 81): the business's name and the answer to HELP
// (the default shown as it is sent), the saved replies, and the text back of a missed caller. Its
// hours, set through the API, are kept as they are. For a US domain, the A2P 10DLC registration of its
// local numbers, polled while Twilio reviews the campaign.
import { useEffect, useState } from 'preact/hooks';
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

type Message = { ok: boolean; text: string } | null;

export function TextingCard({ path, editable }: { path: string; editable: boolean }) {
  const texting = useLoad(() => get<Texting>(`${path}/texting`), [path]);
  // Kept here: the form is drawn again with what was saved, and the word "Saved." stays.
  const [message, setMessage] = useState<Message>(null);
  if (texting.error) return <Failure message={texting.error} />;
  if (!texting.data) return null;
  return <TextingForm key={JSON.stringify(texting.data)} path={path} texting={texting.data} editable={editable} saved={texting.reload} message={message} setMessage={setMessage} />;
}

function TextingForm({ path, texting, editable, saved, message, setMessage }: { path: string; texting: Texting; editable: boolean; saved: () => void; message: Message; setMessage: (m: Message) => void }) {
  const [replies, setReplies] = useState<SavedReply[]>(texting.savedReplies);
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
      <fieldset class="plain" disabled={!editable}>
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
          Add a reply
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

interface UsNumber {
  number: string;
  shown: string;
  service: { sid: string; name: string } | null;
  campaign: { sid: string; status: string; useCase: string } | null;
  registered: boolean;
}

interface UsRegistration {
  required: boolean;
  ready: boolean;
  numbers: UsNumber[];
  brands: { sid: string; status: string; failureReason: string | null }[];
  brandConsoleUrl: string;
}

/** While Twilio reviews a campaign, its status is asked again this often. */
const REVIEW_POLL_MS = 30_000;
const USE_CASES: [string, string][] = [
  ['CUSTOMER_CARE', 'Customer care: answering customers who text or call'],
  ['LOW_VOLUME', 'Low volume mixed: a few kinds of texts, under 2,000 a day'],
  ['MIXED', 'Mixed: customer care with some notifications'],
  ['ACCOUNT_NOTIFICATION', 'Account notifications'],
  ['MARKETING', 'Marketing: promotions'],
];

/** A US domain's local numbers and A2P 10DLC: where each stands, the brand, the campaign, its review. */
export function UsTextingCard({ path, country, carrierConnected }: { path: string; country: string; carrierConnected: boolean }) {
  // Asked only where it can say something: a US domain with its carrier connected.
  const asks = country === 'US' && carrierConnected;
  const state = useLoad(() => (asks ? get<UsRegistration>(`${path}/texting/us-registration`) : Promise.resolve(null)), [path, asks]);
  const reviewing = state.data?.numbers.some((n) => n.campaign && !n.registered && n.campaign.status !== 'FAILED');
  useEffect(() => {
    if (!reviewing) return;
    const timer = setInterval(state.reload, REVIEW_POLL_MS);
    return () => clearInterval(timer);
  }, [reviewing, state.reload]);
  if (state.error) return <Failure message={state.error} />;
  if (!state.data?.required) return null;
  const { numbers, brands, ready, brandConsoleUrl } = state.data;
  const approved = brands.filter((b) => b.status === 'APPROVED');
  const unregistered = numbers.filter((n) => !n.campaign);
  return (
    <div class="card settings" data-testid="us-texting">
      <h2>US texting registration (A2P 10DLC)</h2>
      <p class="muted">
        US carriers deliver texts from a local number only when it belongs to a registered campaign under a registered brand; other texts fail (Twilio error 30034). Toll-free numbers are verified in
        Twilio's Console instead.
      </p>
      {!numbers.length && <p class="muted">No US local number of this domain is at the carrier yet.</p>}
      {numbers.length > 0 && (
        <table class="compact">
          <thead>
            <tr>
              <th>Number</th>
              <th>Messaging Service</th>
              <th>Campaign</th>
            </tr>
          </thead>
          <tbody>
            {numbers.map((n) => (
              <tr>
                <td data-label="Number">{n.shown}</td>
                <td data-label="Messaging Service">{n.service?.name ?? <span class="warn-text">none</span>}</td>
                <td data-label="Campaign">
                  {n.registered ? <span class="ok-text">approved: texts go</span> : n.campaign ? <span class="warn-text">{campaignWords(n.campaign.status)}</span> : <span class="warn-text">not registered: texts fail</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {ready && numbers.length > 0 && <p class="ok-text">Every local number may text US phones.</p>}
      {reviewing && <p class="muted" role="status">The carriers review a campaign in a few days; this card asks Twilio again every 30 seconds.</p>}
      {unregistered.length > 0 && !approved.length && (
        <ol class="steps">
          <li>
            Register the business as a brand in Twilio's Console (a Customer Profile, then an A2P brand; Twilio charges a one-time fee): <a href={brandConsoleUrl} target="_blank" rel="noopener">Twilio Console, A2P brands</a>.
            {brands.map((b) => (
              <span class="muted">
                {' '}
                Brand {b.sid}: {b.status.toLowerCase()}
                {b.failureReason ? ` (${b.failureReason})` : ''}.
              </span>
            ))}
          </li>
          <li>Once the brand is approved, register the campaign here: this card shows its form.</li>
        </ol>
      )}
      {unregistered.length > 0 && approved.length > 0 && <CampaignForm path={path} brands={approved} registered={state.reload} />}
    </div>
  );
}

const campaignWords = (status: string) => (status === 'FAILED' ? 'refused by the carriers: see Twilio Console' : status === 'EXPIRED' ? 'expired' : 'in review: texts wait for approval');

function CampaignForm({ path, brands, registered }: { path: string; brands: { sid: string }[]; registered: () => void }) {
  const [error, setError] = useState<string | null>(null);
  async function submit(event: Event) {
    event.preventDefault();
    const f = new FormData(event.target as HTMLFormElement);
    const text = (name: string) => String(f.get(name) ?? '').trim();
    setError(null);
    try {
      await api('POST', `${path}/texting/us-registration/campaign`, {
        brandRegistrationSid: text('brand'),
        useCase: text('useCase'),
        description: text('description'),
        messageFlow: text('messageFlow'),
        messageSamples: [text('sample1'), text('sample2')].filter(Boolean),
        hasEmbeddedLinks: f.get('links') === 'on',
        hasEmbeddedPhone: f.get('phones') === 'on',
      });
      registered();
    } catch (err) {
      setError((err as Error).message);
    }
  }
  return (
    <form onSubmit={submit} data-testid="campaign-form">
      <h3>Register the campaign</h3>
      <label>
        Brand
        <select name="brand">{brands.map((b) => <option value={b.sid}>{b.sid}</option>)}</select>
      </label>
      <label>
        Use case
        <select name="useCase">{USE_CASES.map(([value, words]) => <option value={value}>{words}</option>)}</select>
      </label>
      <label>
        What the texts are for (at least 40 characters)
        <textarea name="description" rows={2} minLength={40} maxLength={4096} required placeholder="Answers to customers who text our numbers about quotes, jobs and appointments." />
      </label>
      <label>
        How people agree to be texted (at least 40 characters)
        <textarea name="messageFlow" rows={2} minLength={40} maxLength={2048} required placeholder="Customers text our number first, from our website or ads; we only reply to them and they can text STOP at any time." />
      </label>
      <label>
        A text as the team sends it
        <input name="sample1" minLength={20} maxLength={1024} required placeholder="Hi Jane, yes we can come on Saturday at 10 am. Does that suit you?" />
      </label>
      <label>
        Another
        <input name="sample2" minLength={20} maxLength={1024} required placeholder="Sorry we missed your call! How can we help? Reply to this text." />
      </label>
      <label class="check">
        <input type="checkbox" name="links" /> The texts contain links
      </label>
      <label class="check">
        <input type="checkbox" name="phones" /> The texts contain phone numbers
      </label>
      {error && <p class="error" role="alert">{error}</p>}
      <button type="submit">Register the campaign with Twilio</button>
    </form>
  );
}
