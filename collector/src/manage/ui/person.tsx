// A person's timeline (`#/<domain>/person?id=N`): their numbers and addresses, first touch, and their
// visits, calls, texts and form submissions in time order.
import type { Timeline } from '../../people/timeline.ts';
import { get } from './api.ts';
import { duration, phone, when } from './format.ts';
import { useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';
import type { Route } from './route.ts';
import { useClock } from './clock.ts';

export function PersonScreen({ route }: { route: Route }) {
  const clock = useClock(route.domain);
  const domain = encodeURIComponent(route.domain!);
  const { data, error } = useLoad(() => get<Timeline>(`/domains/${domain}/people/${encodeURIComponent(route.query.id ?? '')}`), [route.domain, route.query.id]);
  const at = (date: Date) => when(date as unknown as string, clock);
  return (
    <section>
      <div class="heading">
        <h1>Person {data ? `${[...data.phones.map(phone), ...data.emails].join(', ') || `#${data.personId}`}` : ''}</h1>
      </div>
      {error && <Failure message={error} />}
      {data?.firstTouch && (
        <p class="muted">
          First touch: {data.firstTouch.source}
          {data.firstTouch.keyword && `, "${data.firstTouch.keyword}"`} on {at(data.firstTouch.at)}
        </p>
      )}
      {data && (
        <ol class="timeline card" data-testid="timeline">
          {data.events.map((e) => (
            <li data-event={e.type}>
              <span class="nowrap muted">{at(e.at)}</span>{' '}
              {e.type === 'visit' && <>Visit from {e.source}{e.keyword && `, "${e.keyword}"`}: {new URL(e.landingUrl).pathname}</>}
              {e.type === 'call' && (
                <a href={`#/${domain}/call?id=${e.callId}`}>
                  Call, {e.status ?? 'going on'}, {duration(e.duration)}{e.lead ? ', lead' : ''}{e.recording ? ', recorded' : ''}
                </a>
              )}
              {e.type === 'sms' && <>Text: {e.message}</>}
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
