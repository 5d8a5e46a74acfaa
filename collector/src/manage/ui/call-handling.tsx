// A domain's call handling: where unanswered calls go and when, the whisper, the lead rule, recording, and the blocklist.
import { useState } from 'preact/hooks';
import { api, get } from './api.ts';
import { phone, phoneAsWritten, when, type Clock } from './format.ts';
import { useAction, useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';
import type { DomainView } from './domain-view.ts';
import { StoredFields } from './stored-fields.tsx';
import { parseTimetable, timetableText } from './timetable.ts';

export function CallHandlingForm({ path, domain, saved }: { path: string; domain: DomainView; saved: () => void }) {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  async function submit(event: Event) {
    event.preventDefault();
    const f = new FormData(event.target as HTMLFormElement);
    const text = (name: string) => String(f.get(name) ?? '').trim();
    try {
      await api('PATCH', path, {
        redirectPhone: text('redirectPhone') || null,
        redirectAfterSeconds: Number(text('redirectAfterSeconds')),
        redirect: { enabled: f.get('redirectEnabled') === 'on', timetable: parseTimetable(text('redirectTimetable')) },
        whisper: f.get('whisper') === 'on',
        leadRule: { minDuration: Number(text('minDuration')), answeredOnly: f.get('answeredOnly') === 'on', firstTimeOnly: f.get('firstTimeOnly') === 'on' },
        recording: { enabled: f.get('recordingEnabled') === 'on', announcement: text('announcement'), channels: text('channels'), otherLawfulBasis: f.get('otherLawfulBasis') === 'on', deleteAtCarrier: f.get('deleteAtCarrier') === 'on' },
        recordingRetentionDays: Number(text('recordingRetentionDays')),
      });
      setMessage({ ok: true, text: 'Saved.' });
      saved();
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  }
  return (
    <form class="card settings" onSubmit={submit} data-testid="call-handling">
      <h2>Calls</h2>
      <StoredFields domain={domain}>
      <div class="row">
        <label>When nobody answers, redirect to<input name="redirectPhone" defaultValue={domain.redirectPhone ? phoneAsWritten(domain.redirectPhone) : ''} placeholder={domain.country === 'FR' ? '06 11 22 33 44' : `a number of ${domain.country}, or another country's with its code`} /></label>
        <label>after ringing (s)<input name="redirectAfterSeconds" type="number" min={5} max={120} defaultValue={domain.redirectAfterSeconds} /></label>
      </div>
      <label class="check"><input type="checkbox" name="redirectEnabled" defaultChecked={domain.redirect.enabled} /> Redirect unanswered calls to the website's numbers (offline numbers have their own switch, under Number pools)</label>
      <label>
        Redirect only at these times ({domain.timeZone}), one day or run of days per line; empty: always
        <textarea name="redirectTimetable" rows={2} placeholder="mon-fri 09:00-12:00;14:00-18:00">{timetableText(domain.redirect.timetable)}</textarea>
      </label>
      {!domain.redirectPhone && (domain.redirect.enabled || domain.numbers.some((n) => n.redirect?.allowRedirect)) && <p class="warn-text">Redirects are on, but there is no number to redirect to.</p>}
      <label class="check"><input type="checkbox" name="whisper" defaultChecked={domain.whisper} /> Whisper: whoever answers hears where the call comes from ("Call from Google Ads, keyword boiler") before the caller is put through</label>
      <fieldset class="lead-rule">
        <legend>A call is a lead when</legend>
        <label>it lasts at least (s)<input name="minDuration" type="number" min={0} max={86400} defaultValue={domain.leadRule.minDuration} /></label>
        <label class="check"><input type="checkbox" name="answeredOnly" defaultChecked={domain.leadRule.answeredOnly} /> it was answered</label>
        <label class="check"><input type="checkbox" name="firstTimeOnly" defaultChecked={domain.leadRule.firstTimeOnly} /> it is the caller's first call</label>
        <p class="muted">A person's verdict in the calls log (Lead, Not a lead, Spam) wins over this rule. Only leads go to the Google Ads file.</p>
      </fieldset>
      <fieldset class="lead-rule" data-testid="recording-settings">
        <legend>Recording</legend>
        <label class="check"><input type="checkbox" name="recordingEnabled" defaultChecked={domain.recording.enabled} /> Record calls from their answer (kept in this database; played on each call's page)</label>
        <label>
          Said to the caller first (many places require telling them)
          <textarea name="announcement" rows={2} maxLength={500}>{domain.recording.announcement}</textarea>
        </label>
        <label class="check"><input type="checkbox" name="otherLawfulBasis" defaultChecked={domain.recording.otherLawfulBasis} /> I have another lawful basis to record without telling the caller (needed to leave the announcement empty)</label>
        <div class="row">
          <label>
            Channels
            <select name="channels" defaultValue={domain.recording.channels}>
              <option value="dual">Each party on its own channel</option>
              <option value="mono">Mixed</option>
            </select>
          </label>
          <label>Keep recordings (days; 0: until deleted)<input name="recordingRetentionDays" type="number" min={0} max={3650} defaultValue={domain.recordingRetentionDays} /></label>
        </div>
        <label class="check"><input type="checkbox" name="deleteAtCarrier" defaultChecked={domain.recording.deleteAtCarrier} /> Once a recording is stored here, delete the carrier's copy (Twilio's), so it is kept in one place</label>
        <p class="muted">Turning recording off deletes nothing: a recording is deleted from its call's page, or when its days are over.</p>
      </fieldset>
      </StoredFields>
      {message && <p class={message.ok ? 'ok-text' : 'error'} role="status">{message.text}</p>}
      <button type="submit">Update call handling</button>
    </form>
  );
}

interface BlockedCaller {
  id: string;
  number: string;
  addedAt: string;
  addedBy: string;
}

export function BlockedCallersCard({ path, clock }: { path: string; clock: Clock }) {
  // With the domain's view, which says how its country writes them (phoneDisplay), a number just blocked too.
  const list = useLoad(() => Promise.all([get<BlockedCaller[]>(`${path}/blocked-callers`), get(path)]).then(([entries]) => entries), [path]);
  const { error, run } = useAction(list.reload);
  return (
    <div class="card" data-testid="blocked-callers">
      <h2>Blocked callers</h2>
      <p class="muted">Their calls are refused and logged as blocked, apart from the other calls; their SMS are kept but not listed.</p>
      {(error || list.error) && <Failure message={error ?? list.error!} />}
      {list.data && list.data.length > 0 && (
        <table class="stacked">
          <thead>
            <tr>
              <th>Caller</th>
              <th>Blocked</th>
              <th>By</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.data.map((entry) => (
              <tr>
                <td class="nowrap" data-label="Caller">{/^[\dX]+$/.test(entry.number) ? phone(entry.number) : entry.number}</td>
                <td class="nowrap" data-label="Blocked">{when(entry.addedAt, clock)}</td>
                <td class="name" data-label="By">{entry.addedBy}</td>
                <td class="num" data-label="">
                  <button type="button" class="link" onClick={() => run(() => api('DELETE', `${path}/blocked-callers/${entry.id}`))}>
                    unblock
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.data?.length === 0 && <p class="muted">Nobody is blocked.</p>}
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.target as HTMLFormElement;
          void run(() => api('POST', `${path}/blocked-callers`, { number: String(new FormData(form).get('number')) })).then(() => form.reset());
        }}
      >
        <input name="number" placeholder="Caller's number, any format" aria-label="Number to block" required />
        <button type="submit">Block</button>
      </form>
    </div>
  );
}
