// The calls log: each call with what led to it, filters, pages, and the two CSV downloads.
import { TagChips, useAccountTags } from './call-marks.tsx';
import { Outcome } from './outcome.tsx';
import type { CallRow } from '../../reports/calls-log.ts';
import type { RetryingJob } from '../../reports/retrying-jobs.ts';
import { ENDED_CHOICES, LEAD_CHOICES, QuerySelect, sourceChoices, SOURCES } from './query-select.tsx';
import { OUTCOME_LABELS } from './analysis-card.tsx';
import { api, get, withQuery } from './api.ts';
import { count, duration, phone, STATUS_LABELS, UNATTRIBUTED, when } from './format.ts';
import { useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';
import { rangeQuery, ReportHeading } from './range.tsx';
import { navigate, routeHash, type Route } from './route.ts';
import { VerdictSelect } from './verdict.tsx';
import { Pager } from './pager.tsx';
import { may, useWho } from './who.ts';
import { useClock } from './clock.ts';
import { RetryingLines } from './retrying.tsx';

/** The log's answer; with a search (`q`), each call's line that said it. */
interface CallsAnswer {
  calls: (CallRow & { callerBlocked: boolean; retrying: RetryingJob[]; transcriptMatch?: { speaker: string | null; start: number; text: string } | null })[];
  hasMore: boolean;
  total: number;
  totalCapped: boolean;
  pageSize: number;
  search?: { q: string; matches: number; stopped: boolean };
}

const STATUSES = ['SUCCESS', 'NORESPONSE', 'BUSY', 'EXPIRED', 'NOTASSIGNED', 'INTERRUPTED', 'ANOMALY', 'CALLER_PHONE_BLACKLISTED', 'ONGOING'];

export function CallsScreen({ route }: { route: Route }) {
  const who = useWho();
  const clock = useClock(route.domain);
  const base = `/domains/${encodeURIComponent(route.domain!)}/reports`;
  const filters = { ...rangeQuery(route), status: route.query.status, source: route.query.source, firstCall: route.query.firstCall, lead: route.query.lead, spam: route.query.spam, q: route.query.q, tag: route.query.tag, answeredBy: route.query.answeredBy, ended: route.query.ended, direction: route.query.direction, outcome: route.query.outcome, scoreMin: route.query.scoreMin, scoreMax: route.query.scoreMax };
  const page = Number(route.query.page || 1);
  const { data, error, reload } = useLoad(() => get<CallsAnswer>(withQuery(`${base}/calls`, { ...filters, page })), [route.domain, JSON.stringify(filters), page]);
  const set = (query: Record<string, string>) => navigate({ ...route, query: { ...route.query, page: '', ...query } });
  const tags = useAccountTags();
  return (
    <section>
      <ReportHeading title="Calls" route={route} />
      <div class="toolbar">
        <WordSearch value={route.query.q ?? ''} set={(q) => set({ q })} />
        <select aria-label="Status" value={route.query.status ?? ''} onChange={(e) => set({ status: (e.target as HTMLSelectElement).value })}>
          <option value="">Every status</option>
          {STATUSES.map((s) => (
            <option value={s}>{STATUS_LABELS[s] ?? s}</option>
          ))}
        </select>
        <QuerySelect label="Direction" name="direction" route={route} set={set} choices={[['', 'Calls received'], ['outbound', 'Calls placed', 'The calls members placed from the back end: no report counts them']]} />
        <QuerySelect label="Ended" name="ended" route={route} set={set} choices={ENDED_CHOICES} />
        <QuerySelect label="Source" name="source" route={route} set={set} choices={sourceChoices(SOURCES)} />
        <select aria-label="Callers" value={route.query.firstCall ?? ''} onChange={(e) => set({ firstCall: (e.target as HTMLSelectElement).value })}>
          <option value="">Every caller</option>
          <option value="true">New callers: their first call</option>
          <option value="false">Repeat callers</option>
        </select>
        <QuerySelect label="Leads" name="lead" route={route} set={set} choices={LEAD_CHOICES} />
        <QuerySelect label="Spam" name="spam" route={route} set={set} choices={[['', 'Spam or not'], ['false', 'Counted calls', 'No spam, no blocked caller: the calls the overview counts'], ['true', 'Spam only']]} />
 <QuerySelect label="Outcome" name="outcome" route={route} set={set} choices={[['', 'Any outcome'], ...Object.entries(OUTCOME_LABELS).map(([name, label]): [string, string] => [name, label])]} />
        <input aria-label="Lead score at least" class="score" type="number" min={0} max={100} placeholder="Score ≥" value={route.query.scoreMin ?? ''} onChange={(e) => set({ scoreMin: (e.target as HTMLInputElement).value })} />
        <input aria-label="Answered by" class="answered-by" placeholder="Answered by (or nobody)" value={route.query.answeredBy ?? ''} onChange={(e) => set({ answeredBy: (e.target as HTMLInputElement).value.trim() })} />
        {(tags.data?.tags.length ?? 0) > 0 && <QuerySelect label="Tag" name="tag" route={route} set={set} choices={[['', 'Any tag'], ...tags.data!.tags.map((t): [string, string] => [t.name, t.name])]} />}
        <span class="spacer" />
        {may.readReports(who) && (
          <>
            <a class="button" href={withQuery(`/manage/api${base}/calls.csv`, filters)} download>
              Download CSV
            </a>
            <a class="button" href={withQuery(`/manage/api${base}/google-ads.csv`, rangeQuery(route))} download title="Leads and sales with a gclid, in Google Ads' offline conversion import format">
              Google Ads conversions
            </a>
            <a class="button" href={withQuery(`/manage/api${base}/microsoft-ads.csv`, rangeQuery(route))} download title="Leads and sales with an msclkid, in Microsoft Advertising's offline conversions bulk format">
              Microsoft Ads conversions
            </a>
          </>
        )}
      </div>
      {error && <Failure message={error} />}
      {data?.search && (
        <p class="muted" data-testid="search-summary">
          Calls whose transcripts say <strong>{data.search.q}</strong>: {count(data.search.matches)}
          {data.search.stopped ? ' among the most recent; a shorter period finds the rest' : ''}.
        </p>
      )}
      {data && !data.calls.length && <p class="muted">{data.search ? 'No call says that in this range.' : 'No call in this range.'}</p>}
      {data && data.calls.length > 0 && (
        <p class="muted" data-testid="calls-total">
          {count(data.total)}
          {data.totalCapped ? ' or more' : ''} call{data.total === 1 ? '' : 's'} in this range and these filters; page {page} of {data.totalCapped ? 'many' : count(Math.max(1, Math.ceil(data.total / data.pageSize)))}
        </p>
      )}
      {data && data.calls.length > 0 && (
        <div class="card flush">
          <table class="calls">
            <thead>
              <tr>
                <th>Started</th>
                <th>Number called</th>
                <th>Caller</th>
                <th title="The caller's first call to this site (new), or not (repeat); — for an anonymous caller">New</th>
                <th title="Under the status, how sure the visit match is: certain, likely (the number changed hands shortly before), possible (the call came after the hold ended), none">Status, match</th>
                <th class="num">Duration</th>
                <th title="A lead by the domain's rule, unless a person said otherwise: Lead, Not a lead, Spam (which blocks the caller)">Lead</th>
                <th>Source and keyword</th>
                <th>Landing page, pages seen, gclid</th>
              </tr>
            </thead>
            <tbody>
              {data.calls.map((call) => (
                <tr data-call={call.callId}>
                  <td data-label="Started" class="nowrap">
                    <a href={routeHash({ domain: route.domain, screen: 'call', query: { id: String(call.callId) } })} title="The call's page">
                      {when(call.startedAt, clock)}
                    </a>
                  </td>
                  <td data-label="Number called" class="nowrap">{phone(call.trackingNumber)}{call.offlineDescription && <div class="muted">{call.offlineDescription}</div>}</td>
                  <td data-label="Caller" class="nowrap">
                    {call.caller === 'anonymous' || call.caller === 'hidden' ? call.caller : phone(call.caller)}
                    {call.caller !== 'anonymous' && may.manageDomain(who) && (
                      <button
                        type="button"
                        class="link block"
                        title={call.callerBlocked ? 'Let this caller through again' : 'Refuse this caller’s next calls'}
                        onClick={() => {
                          // Blocking refuses the caller's next calls: asked first; unblocking is not.
                          if (!call.callerBlocked && !confirm(`Block ${call.caller === 'hidden' ? 'this caller' : phone(call.caller)}? Their next calls are refused and logged as blocked.`)) return;
                          void api(call.callerBlocked ? 'DELETE' : 'POST', `/domains/${encodeURIComponent(route.domain!)}/calls/${call.callId}/block-caller`).then(reload, (err: Error) => alert(err.message));
                        }}
                      >
                        {call.callerBlocked ? 'unblock' : 'block'}
                      </button>
                    )}
                  </td>
                  <td data-label="New">{call.firstCall === null ? <span class="muted">—</span> : call.firstCall ? <span class="status new-caller">new</span> : <span class="muted">repeat</span>}</td>
                  <td data-label="Status, match">
                    <Outcome call={call} />
                    {call.answeredBy && <div class="muted">answered by {call.answeredBy}</div>}
                    {call.direction === 'outbound' && <div><span class="status outbound" data-testid="outbound">outbound</span> <span class="muted">placed by {call.placedBy}</span></div>}
                    {call.analysis && (
                      <div class="analysis-line" data-testid="analysis-line">
                        <span class="status score" title="Lead score by the language model">{call.analysis.leadScore}</span> {call.analysis.summary}
                      </div>
                    )}
                    {call.recording?.status === 'stored' && (
                      <span class="status recorded" title="This call has a recording: open the call to play it">
                        rec
                      </span>
                    )}
                    <div>{call.matchConfidence ? <span class={`status match-${call.matchConfidence}`} title={`How sure the visit match is: ${call.matchCandidates} visit(s) held the number before the call`}>{call.matchConfidence}</span> : <span class="muted">{call.source === 'offline' ? 'offline' : '—'}</span>}</div>
                    <RetryingLines jobs={call.retrying} clock={clock} />
                  </td>
                  <td data-label="Duration" class="num nowrap">{duration(call.duration)}</td>
                  <td data-label="Lead">
                    <VerdictSelect call={call} domain={route.domain!} changed={reload} />
                  </td>
                  <td data-label="Source and keyword">
                    {call.source ?? <span class="muted">{UNATTRIBUTED}</span>}
                    {call.keyword && <div class="muted">{call.keyword}</div>}
                    {call.transcript?.keyPhrases.map((label) => (
                      <span class="status key-phrase">{label}</span>
                    ))}
                    {(call.tags.length > 0 || call.value !== null) && (
                      <div>
                        <TagChips names={call.tags} tags={tags.data?.tags ?? []} />
                        {call.value !== null && <span class="muted" title="The lead's value">value {call.value}</span>}
                      </div>
                    )}
                    {call.transcriptMatch && (
                      <div class="transcript-match" data-testid="transcript-match">
                        {call.transcriptMatch.speaker && <strong>{call.transcriptMatch.speaker}: </strong>}“{call.transcriptMatch.text}”
                      </div>
                    )}
                  </td>
                  <td data-label="Landing page" class="pages">
                    {call.landingPage && <div title={call.landingPage}>{call.landingPage}</div>}
                    {call.pagesSeen.length > 1 && <div class="muted">{call.pagesSeen.length} pages seen</div>}
                    {call.gclid && <div class="muted mono" title={call.gclid}>gclid {call.gclid}</div>}
                    {call.msclkid && <div class="muted mono" title={call.msclkid}>msclkid {call.msclkid}</div>}
                    {call.fbclid && <div class="muted mono" title={call.fbclid}>fbclid {call.fbclid}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && <Pager page={page} hasMore={data.hasMore} go={(to) => set({ page: String(to) })} />}
    </section>
  );
}

/** The search by words said: a word, a "phrase in quotes", optionally `caller:` or `agent:` first. */
function WordSearch({ value, set }: { value: string; set: (q: string) => void }) {
  const submit = (e: Event) => {
    e.preventDefault();
    set(((e.currentTarget as HTMLFormElement).elements.namedItem('q') as HTMLInputElement).value.trim());
  };
  return (
    <form class="inline" role="search" onSubmit={submit}>
      {/* Uncontrolled (the screen redraws each second): drawn again when the search in the address changes. */}
      <input key={value} type="search" name="q" aria-label="Words said" maxLength={200} placeholder='Words said: price, "book an appointment", caller: refund' defaultValue={value} style="min-width:19rem" />
      <button type="submit">Search</button>
    </form>
  );
}
