// A person's timeline (`#/<domain>/person?id=N`): their numbers and addresses, first touch, and
// their visits, calls, texts, form submissions and sales in time order; for owners and admins,
// their data on request: downloaded whole, or erased.
import { CrmRecordsCard } from './crm-records.tsx';
import type { CrmRecordOfPerson } from '../../crm/person-records.ts';
import { useState } from 'preact/hooks';
import type { Erased } from '../../people/erase.ts';
import type { Timeline } from '../../people/timeline.ts';
import { api, get } from './api.ts';
import { outcomeShown } from '../../telephony/outcome.ts';
import { duration, money, phone, sourceWords, STATUS_LABELS, when } from './format.ts';
import { useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';
import type { Route } from './route.ts';
import { useClock } from './clock.ts';
import { CallBackButton } from './call-back.tsx';
import { may, useWho } from './who.ts';

/** A call's outcome in a sentence: `answered`, `no answer (not attributed)`, `going on`. */
function callWords(call: { status: string | null; outcome?: string | null }): string {
  const { outcome, unattributed } = outcomeShown(call);
  return `${outcome ? (STATUS_LABELS[outcome] ?? outcome).toLowerCase() : 'going on'}${unattributed ? ' (not attributed)' : ''}`;
}

export function PersonScreen({ route }: { route: Route }) {
  const clock = useClock(route.domain);
  const domain = encodeURIComponent(route.domain!);
  const path = `/domains/${domain}/people/${encodeURIComponent(route.query.id ?? '')}`;
  const { data, error, reload } = useLoad(() => get<Timeline & { crm?: CrmRecordOfPerson[] }>(path), [route.domain, route.query.id]);
  const at = (date: Date) => when(date as unknown as string, clock);
  const who = useWho();
  const [erased, setErased] = useState<(Erased & { crm?: CrmRecordOfPerson[] }) | null>(null);
  const merge = (other: number) => {
    if (!confirm(`Merge person #${other} into this one? Their numbers, addresses, visits, calls and forms become one person's; the older of the two lives on.`)) return;
    api<{ personId: number }>('POST', `${path}/merge`, { with: other }).then(({ personId }) => {
      if (String(personId) !== route.query.id) location.hash = `#/${domain}/person?id=${personId}`;
      else reload();
    }, (err: Error) => alert(err.message));
  };
  const erase = () => {
    if (!confirm('Erase this person? Their numbers, e-mail addresses, form values, visitor ids, addresses and recordings are gone for good; their calls and forms stay, anonymous, in every count.')) return;
    api<Erased & { crm?: CrmRecordOfPerson[] }>('DELETE', path).then((done) => {
      setErased(done);
      reload();
    }, (err: Error) => alert(err.message));
  };
  return (
    <section>
      <div class="heading">
        <h1>Person {data ? `${[...data.phones.map(phone), ...data.emails].join(', ') || `#${data.personId}`}` : ''}</h1>
        {data && !data.erasedAt && data.phones.length > 0 && <CallBackButton domain={route.domain!} personId={data.personId} />}
        {data && !data.erasedAt && may.manageDomain(who) && (
          <div class="row">
            <a class="button" href={`/manage/api${path}/export`} download>
              Download this person's data
            </a>
            <button type="button" class="danger" onClick={erase}>
              Erase this person
            </button>
          </div>
        )}
      </div>
      {erased && (
        <p class="card" role="status">
          Erased: the personal fields of {erased.calls} call(s), {erased.forms} form(s), {erased.texts} text(s) and {erased.visits} visit(s), and {erased.recordings} recording(s).
          {(erased.crm?.length ?? 0) > 0 && ' Their records below are in your CRM still: remove them there, RingTrail sends them no more.'}
        </p>
      )}
      {erased?.crm?.length ? <CrmRecordsCard records={erased.crm} /> : data?.crm?.length ? <CrmRecordsCard records={data.crm} /> : null}
      {data?.erasedAt && <p class="muted">Erased on request on {at(data.erasedAt)}: their calls and forms stay in the logs and in every count, with nothing that says who they were.</p>}
      {error && <Failure message={error} />}
      {data && data.possibleMatches.length > 0 && (
        <div class="card" data-testid="possible-matches">
          <p>
            <strong>Possibly the same person as another.</strong> A form named this person and another at once (its e-mail address one's, its phone number the other's), so it was kept apart: merge them if they are one.
          </p>
          <ul>
            {data.possibleMatches.map((m) => (
              <li>
                <span class="muted">{at(m.at)}</span> {m.contact.kind === 'form' ? 'a form' : m.contact.kind === 'call' ? 'a call' : 'a contact'} also named{' '}
                {m.people.map((other) => (
                  <>
                    <a href={`#/${domain}/person?id=${other}`}>person #{other}</a>{' '}
                    {may.manageDomain(who) && (
                      <button type="button" onClick={() => merge(other)}>
                        Merge with #{other}
                      </button>
                    )}{' '}
                  </>
                ))}
              </li>
            ))}
          </ul>
        </div>
      )}
      {data?.firstTouch && (
        <p class="muted">
          First touch: {sourceWords(data.firstTouch.source)}
          {data.firstTouch.keyword && `, "${data.firstTouch.keyword}"`} on {at(data.firstTouch.at)}
        </p>
      )}
      {data && data.events.length > 0 && (
        <ol class="timeline card" data-testid="timeline">
          {data.events.map((e) => (
            <li data-event={e.type}>
              <span class="nowrap muted">{at(e.at)}</span>{' '}
              {e.type === 'visit' && <>Visit: {sourceWords(e.source)}{e.keyword && `, "${e.keyword}"`}, landing on {new URL(e.landingUrl).pathname}</>}
              {e.type === 'call' && (
                <a href={`#/${domain}/call?id=${e.callId}`}>
                  Call, {callWords(e)}, {duration(e.duration)}{e.source ? `, from ${sourceWords(e.source)}` : ''}{e.lead ? ', lead' : ''}{e.recording ? ', recorded' : ''}
                </a>
              )}
              {e.type === 'sms' && <>Text: {e.message}</>}
              {e.type === 'sale' && (
                <>
                  Sale: order {e.orderId}, {money(e.totalCost, e.currency)} ({e.status}){e.callId !== null && <>, <a href={`#/${domain}/call?id=${e.callId}`}>by phone</a></>}
                </>
              )}
              {e.type === 'form' && (
                <>
                  Form on {new URL(e.pageUrl).pathname}{e.lead ? ', lead' : e.spam ? ', spam' : ''}: {Object.entries(e.fields).map(([name, value]) => `${name}: ${value}`).join(' · ')}
                </>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
