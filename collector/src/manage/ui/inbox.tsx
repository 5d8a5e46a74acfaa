// The texting inbox (issue 68): the domain's conversations, newest first, with their unread counts
// (all, unread, mine); a thread with the texts both ways and the person's calls and forms between
// them; a reply box counting characters and segments as one types, saved replies, and the reason
// when the person opted out. Agents and above reply and take a conversation; analysts read.
import { useState } from 'preact/hooks';
import { segmentsOf, MAX_TEXT_LENGTH } from '../../texting/segments.ts';
import { api, get, withQuery } from './api.ts';
import { useClock } from './clock.ts';
import { when } from './format.ts';
import { useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';
import { Pager } from './pager.tsx';
import { QuerySelect } from './query-select.tsx';
import { navigate, routeHash, type Route } from './route.ts';
import { may, useWho } from './who.ts';
import { CallBackButton } from './call-back.tsx';

interface Conversation {
  id: string;
  name: string | null;
  phone: string;
  trackingNumber: string;
  personId: number | null;
  lastAt: string;
  lastText: string;
  lastDirection: 'inbound' | 'outbound';
  unread: number;
  assignee: string | null;
  optedOut: { at: string; word: string } | null;
}

type Entry =
  | { type: 'text'; id: string; direction: 'inbound' | 'outbound'; body: string | null; at: string; status: string; error?: string | null; by?: string; segments?: number; source?: string | null; media?: { contentType: string }[] }
  | { type: 'note'; id: string; at: string; by: string; text: string }
  | { type: 'call'; at: string; callId: number; status: string | null; duration: number; source: string | null }
  | { type: 'form'; at: string; formId: number; pageUrl: string; source: string | null };

const FILTERS: [string, string][] = [
  ['', 'All conversations'],
  ['unread', 'Unread'],
  ['mine', 'Assigned to me'],
];

export function InboxScreen({ route }: { route: Route }) {
  const domain = encodeURIComponent(route.domain!);
  const clock = useClock(route.domain);
  const page = Number(route.query.page || 1);
  const show = route.query.show ?? '';
  const list = useLoad(() => get<{ conversations: Conversation[]; total: number; unreadConversations: number; limit: number }>(withQuery(`/domains/${domain}/conversations`, { unread: show === 'unread' ? 'true' : undefined, mine: show === 'mine' ? 'true' : undefined, page })), [route.domain, show, page]);
  const set = (query: Record<string, string>) => navigate({ ...route, query: { ...route.query, page: '', ...query } });
  const open = route.query.id;
  return (
    <section class={`inbox${open ? ' reading' : ''}`}>
      <h1>Inbox</h1>
      <div class="toolbar">
        <QuerySelect label="Show" name="show" route={route} set={set} choices={FILTERS} />
        {list.data && <span class="muted" role="status">{list.data.unreadConversations} unread conversation{list.data.unreadConversations === 1 ? "" : "s"}</span>}
      </div>
      {list.error && <Failure message={list.error} />}
      <div class="inbox-panes">
        <div class="card flush conversation-list" data-testid="conversations">
          {list.data && !list.data.conversations.length && <EmptyInbox domain={route.domain!} />}
          <ul>
            {list.data?.conversations.map((c) => (
              <li class={`${c.id === open ? 'open' : ''}${c.unread ? ' unread' : ''}`}>
                <a href={routeHash({ ...route, query: { ...route.query, id: c.id } })} data-conversation={c.id}>
                  <span class="texter">
                    {c.name ?? c.phone}
                    {c.name && <span class="muted small"> {c.phone}</span>}
                    {c.unread > 0 && <span class="status unread-count" aria-label={`${c.unread} unread`}>{c.unread}</span>}
                    {c.optedOut && <span class="status opted-out">opted out</span>}
                  </span>
                  <span class="when muted">{when(c.lastAt, clock)}</span>
                  <span class="preview">{c.lastDirection === 'outbound' ? 'You: ' : ''}{c.lastText}</span>
                  {c.assignee && <span class="muted small">{c.assignee}</span>}
                </a>
              </li>
            ))}
          </ul>
          {list.data && <Pager page={page} hasMore={page * list.data.limit < list.data.total} go={(p) => set({ page: String(p) })} />}
        </div>
        {open ? <Thread key={open} route={route} id={open} changed={list.reload} /> : <p class="muted thread-empty">Choose a conversation.</p>}
      </div>
    </section>
  );
}

function Thread({ route, id, changed }: { route: Route; id: string; changed: () => void }) {
  const domain = encodeURIComponent(route.domain!);
  const path = `/domains/${domain}/conversations/${encodeURIComponent(id)}`;
  const clock = useClock(route.domain);
  const who = useWho();
  const answers = may.answerLeads(who);
  const thread = useLoad(async () => {
    const t = await get<{ conversation: Conversation; entries: Entry[]; firstName: string | null }>(path);
    // Opened: read. The list's count follows.
    if (t.conversation.unread > 0) {
      await api('PUT', path, { read: true });
      changed();
    }
    return t;
  }, [path]);
  const [error, setError] = useState<string | null>(null);
  const act = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
    } catch (err) {
      setError((err as Error).message);
    }
    thread.reload();
    changed();
  };
  if (thread.error) return <Failure message={thread.error} />;
  if (!thread.data) return <p class="muted">Loading…</p>;
  const { conversation: c, entries } = thread.data;
  return (
    <div class="card thread" data-testid="thread">
      <div class="thread-head">
        <a class="back" href={routeHash({ ...route, query: { ...route.query, id: '' } })}>
          ← Conversations
        </a>
        <h2>{c.name ?? c.phone}</h2>
        <span class="muted">
          {c.name ? `${c.phone} · ` : ''}to {c.trackingNumber}
        </span>
        {answers && c.personId !== null && c.phone !== 'erased' && <NameButton path={path} name={c.name} act={act} />}
        {c.personId !== null && <a href={routeHash({ domain: route.domain, screen: 'person', query: { id: String(c.personId) } })}>Their timeline</a>}
        {c.personId !== null && c.phone !== 'erased' && <CallBackButton domain={route.domain!} personId={c.personId} />}
        <span class="spacer" />
        {c.assignee ? <span class="muted">Assigned to {c.assignee}</span> : <span class="muted">Nobody assigned</span>}
        {answers && c.assignee !== who.username && (
          <button type="button" onClick={() => void act(() => api('PUT', path, { assignee: who.username }))}>
            Take it
          </button>
        )}
        {answers && c.assignee && (
          <button type="button" onClick={() => void act(() => api('PUT', path, { assignee: null }))}>
            Unassign
          </button>
        )}
      </div>
      <ol class="messages">
        {entries.map((e) =>
          e.type === 'text' ? (
            <li class={`bubble ${e.direction}`}>
              {e.media?.map((m, i) => (m.contentType.startsWith('image/') ? <img class="mms" src={`/manage/api${path}/texts/${encodeURIComponent(e.id)}/media/${i}`} alt="Picture sent with the text" loading="lazy" /> : <a href={`/manage/api${path}/texts/${encodeURIComponent(e.id)}/media/${i}`}>File sent with the text ({m.contentType})</a>))}
              {(e.body || !e.media?.length) && <p>{e.body ?? <em class="muted">erased</em>}</p>}
              <span class="meta muted">
                {when(e.at, clock)}
                {e.source && ` · from ${e.source}`}
                {e.direction === 'outbound' && (
                  <>
                    {' · '}
                    {e.by === 'auto' ? 'automatic answer' : e.by === 'text-back' ? 'text back of a missed call' : e.by}
                    {' · '}
                    <span class={`status ${e.status}`} data-testid="text-status">{e.status}</span>
                    {e.error && <span class="error-text"> {e.error}</span>}
                  </>
                )}
              </span>
            </li>
          ) : e.type === 'note' ? (
            <li class="note" data-testid="note">
              <p>{e.text}</p>
              <span class="meta muted">
                Note by {e.by} · {when(e.at, clock)} · never texted
              </span>
            </li>
          ) : (
            <li class="event muted">
              {e.type === 'call' ? <a href={routeHash({ domain: route.domain, screen: 'call', query: { id: String(e.callId) } })}>Call, {e.duration} s{e.source ? `, from ${e.source}` : ''}</a> : <span>Form on {pathOf(e.pageUrl)}{e.source ? `, from ${e.source}` : ''}</span>} · {when(e.at, clock)}
            </li>
          ),
        )}
      </ol>
      {error && <p class="error" role="alert">{error}</p>}
      {answers && <NoteForm path={path} act={act} />}
      {c.optedOut ? (
        <p class="warn-text" data-testid="opted-out">
          This number opted out: they texted {c.optedOut.word} on {when(c.optedOut.at, clock)}. No text can be sent to them until they text START.
        </p>
      ) : answers ? (
        <Reply path={path} domain={domain} firstName={thread.data.firstName} sent={() => void act(async () => {})} />
      ) : (
        <p class="muted">Analysts read conversations; agents and above reply.</p>
      )}
    </div>
  );
}

/** No conversation yet: what brings texts in, and what answering them needs. */
function EmptyInbox({ domain }: { domain: string }) {
  const who = useWho();
  return (
    <div class="muted pad" data-testid="empty-inbox">
      <p>No conversation yet: texts to the tracking numbers appear here.</p>
      <p>
        Replies are sent from the tracking number through the account's carrier: {may.manageAccount(who) ? <a href={routeHash({ domain: null, screen: 'account', query: {} })}>connect Twilio on Account</a> : 'an owner connects Twilio on Account'}, and
        its numbers' texts come here. The answer to HELP and the saved replies are set in <a href={routeHash({ domain, screen: 'settings', query: {} })}>Settings, Texting</a>.
      </p>
    </div>
  );
}

/** The person's name, set by a member: kept on their person, never overwritten by a form. */
function NameButton({ path, name, act }: { path: string; name: string | null; act: (work: () => Promise<unknown>) => Promise<void> }) {
  const [editing, setEditing] = useState(false);
  if (!editing)
    return (
      <button type="button" class="link" onClick={() => setEditing(true)}>
        {name ? 'Rename' : 'Add their name'}
      </button>
    );
  return (
    <form
      class="inline"
      onSubmit={(event) => {
        event.preventDefault();
        const value = String(new FormData(event.target as HTMLFormElement).get('name') ?? '').trim();
        setEditing(false);
        void act(() => api('PUT', path, { name: value || null }));
      }}
    >
      <label>
        Their name <input name="name" defaultValue={name ?? ''} maxLength={80} autoFocus />
      </label>
      <button type="submit">Save name</button>
    </form>
  );
}

/** A note for the team, shown in the thread, never texted. */
function NoteForm({ path, act }: { path: string; act: (work: () => Promise<unknown>) => Promise<void> }) {
  const [text, setText] = useState('');
  return (
    <form
      class="note-form"
      onSubmit={(event) => {
        event.preventDefault();
        const note = text.trim();
        setText('');
        void act(() => api('POST', `${path}/notes`, { text: note }));
      }}
    >
      <label>
        Note for the team (never texted)
        <input name="note" value={text} maxLength={2000} onInput={(e) => setText((e.target as HTMLInputElement).value)} />
      </label>
      <button type="submit" disabled={!text.trim()}>
        Add note
      </button>
    </form>
  );
}

function Reply({ path, domain, firstName, sent }: { path: string; domain: string; firstName: string | null; sent: () => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const saved = useLoad(() => get<{ savedReplies: { name: string; body: string }[] }>(`/domains/${domain}/texting`), [domain]);
  const count = segmentsOf(text);
  async function send(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api('POST', `${path}/messages`, { body: text });
      setText('');
      sent();
    } catch (err) {
      setError((err as Error).message);
    }
    setBusy(false);
  }
  return (
    <form class="reply" onSubmit={send}>
      {(saved.data?.savedReplies.length ?? 0) > 0 && (
        <select aria-label="Saved reply" value="" onChange={(e) => setText(filled(saved.data!.savedReplies[Number((e.target as HTMLSelectElement).value)]!.body, firstName))}>
          <option value="">Saved replies…</option>
          {saved.data!.savedReplies.map((r, i) => (
            <option value={String(i)}>{r.name}</option>
          ))}
        </select>
      )}
      <label>
        Reply from the tracking number
        <textarea name="body" rows={3} maxLength={MAX_TEXT_LENGTH} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} required />
      </label>
      <div class="actions">
        <span class="muted" data-testid="segments">
          {text.length}/{MAX_TEXT_LENGTH} · {count.segments} segment{count.segments === 1 ? '' : 's'}
          {count.encoding === 'UCS-2' ? ' (unicode: 70 characters each)' : ''}
        </span>
        <span class="spacer" />
        <button type="submit" disabled={busy || !text.trim()}>
          Send text
        </button>
      </div>
      {error && <p class="error" role="alert">{error}</p>}
    </form>
  );
}

/** A saved reply for this person: `{firstName}` filled, or taken out with its space when unknown. */
const filled = (body: string, firstName: string | null) => (firstName ? body.replaceAll('{firstName}', firstName) : body.replace(/ ?\{firstName\}/g, ''));

/** A page's path, or the address whole when it is not one. */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
