// One call's page: when and how long, the number and the caller, the outcome, what led to it and how
// sure that is, the visitor's pages up to the call, the cart and orders tied to it, and the verdict.
import { CallBackButton } from './call-back.tsx';
import { CrmRecordsCard } from './crm-records.tsx';
import { CallMarksCard } from './call-marks.tsx';
import { Outcome } from './outcome.tsx';
import type { callPage } from '../../reports/call-page.ts';
import type { CallRow } from '../../reports/calls-log.ts';
import { api, get } from './api.ts';
import { may, useWho } from './who.ts';
import { duration, money, phone, sourceWords, UNATTRIBUTED, when } from './format.ts';
import { useClock } from './clock.ts';
import { useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';
import { routeHash, type Route } from './route.ts';
import { VerdictSelect } from './verdict.tsx';
import { TranscriptCard } from './transcript.tsx';
import { RetryingLines } from './retrying.tsx';
import { AnalysisCard } from './analysis-card.tsx';
import { ADS_PLATFORMS, PLATFORM_NAMES, type AdsPlatform } from '../../ads/names.ts';

type CallPage = NonNullable<Awaited<ReturnType<typeof callPage>>>;

export function CallScreen({ route }: { route: Route }) {
  const domain = route.domain!;
  const { data, error, reload } = useLoad(() => get<CallPage>(`/domains/${encodeURIComponent(domain)}/calls/${encodeURIComponent(route.query.id ?? '')}`), [domain, route.query.id]);
  const call = data?.call;
  const clock = useClock(domain);
  const who = useWho();
  // A transcript being retried is said in its own card; the other jobs in one of theirs.
  const transcriptJob = data?.retrying.find((job) => job.kind === 'transcript') ?? null;
  const otherJobs = data?.retrying.filter((job) => job.kind !== 'transcript') ?? [];
  return (
    <section class="call-page">
      <p>
        <a href={routeHash({ domain, screen: 'calls', query: {} })}>← Calls</a>
      </p>
      {error && <Failure message={error} />}
      {call && data && (
        <>
          <h1>
            {call.direction === 'outbound' ? 'Call to' : 'Call from'} {call.caller === 'anonymous' || call.caller === 'hidden' ? `an ${call.caller === 'hidden' ? 'undisclosed' : 'anonymous'} caller` : phone(call.caller)}
            {call.firstCall && <span class="status new-caller">new caller</span>}
            {call.direction === 'outbound' && <span class="status outbound">outbound, placed by {call.placedBy}</span>}
          </h1>
          {typeof data.personId === 'number' && call.caller !== 'anonymous' && <CallBackButton domain={domain} personId={data.personId} />}
          {otherJobs.length > 0 && (
            <div class="card" data-testid="retrying-jobs">
              <h2>Being retried</h2>
              <RetryingLines jobs={otherJobs} clock={clock} />
            </div>
          )}
          <div class="card">
            <dl class="facts">
              <dt>When</dt>
              <dd>{when(call.startedAt, clock)}, for {duration(call.duration)}</dd>
              <dt>Number called</dt>
              <dd>
                {phone(call.trackingNumber)}
                {call.destination && <span class="muted"> forwarded to {phone(call.destination)}</span>}
              </dd>
              <dt>Outcome</dt>
              <dd>
                <Outcome call={call} />
                {call.agent && <span class="muted"> taken by {call.agent}</span>}
              </dd>
              <dt>Source</dt>
              <dd>
                {call.source ? <span title={call.source}>{sourceWords(call.source, call.offlineDescription)}</span> : UNATTRIBUTED}
                {call.keyword && <>, keyword <strong>{call.keyword}</strong></>}
                {call.gclid && <div class="muted mono">gclid {call.gclid}</div>}
                {call.msclkid && <div class="muted mono">msclkid {call.msclkid}</div>}
                {call.fbclid && <div class="muted mono">fbclid {call.fbclid}</div>}
              </dd>
              <dt title="The visitor's first visit of the 90 days before the call, linked by the visitor id">First touch</dt>
              <dd>
                {call.firstTouchSource ? (
                  <>
                    {sourceWords(call.firstTouchSource)}
                    {call.firstTouchKeyword && <>, keyword <strong>{call.firstTouchKeyword}</strong></>}
                    {call.firstTouchAt && <span class="muted"> on {when(call.firstTouchAt, clock)}</span>}
                  </>
                ) : (
                  <span class="muted">Not known: no visit led to the call, or it was stored before first touches were kept.</span>
                )}
                {call.lastNonDirectSource && call.lastNonDirectSource !== call.source && <div class="muted">Last non-direct visit: {sourceWords(call.lastNonDirectSource)}</div>}
              </dd>
              <dt>How sure</dt>
              <dd>{call.matchInWords}</dd>
              <dt>Lead</dt>
              <dd>
                <VerdictSelect call={call} domain={domain} changed={reload} />
                <span class="muted">
                  {' '}
                  {call.verdict ? `said by ${call.verdictBy} on ${when(call.verdictAt!, clock)}` : call.lead === null ? 'decided when the call ends' : `${call.lead ? 'a lead' : 'not a lead'} by the domain's rule`}
                </span>
              </dd>
            </dl>
          </div>
          <CallMarksCard path={`/domains/${encodeURIComponent(domain)}/calls/${call.callId}`} tags={call.tags} value={call.value} currency={data.currency} history={data.history} clock={clock} changed={reload} />
          {data.adsConversions && <AdsCard domain={domain} marks={data.adsConversions} />}
          {data.crmRecords && <CrmRecordsCard records={data.crmRecords} />}
          {data.flow && <FlowPathCard flow={data.flow} />}
          {data.analysis && <AnalysisCard path={`/domains/${encodeURIComponent(domain)}/calls/${call.callId}`} analysis={data.analysis} mayCorrect={may.giveVerdicts(who)} changed={reload} />}
          {call.recording && <RecordingCard domain={domain} callId={call.callId} recording={call.recording} transcribed={call.transcript?.status === 'ready'} deleted={reload} />}
          {(call.transcript || transcriptJob) && <TranscriptCard domain={domain} callId={call.callId} transcript={call.transcript} retrying={transcriptJob} clock={clock} />}
          <div class="card">
            <h2>Pages the caller saw before calling</h2>
            {data.pages.length ? (
              <ol class="pages-seen">
                {data.pages.map((p) => (
                  <li>
                    <span class="muted nowrap">{when(p.createdAt, clock)}</span> <strong>{p.pageTitle || p.url}</strong>
                    <div class="muted" title={p.url}>{p.url}</div>
                  </li>
                ))}
              </ol>
            ) : (
              <p class="muted">No page: the call was not matched to a visit.</p>
            )}
          </div>
          {(data.currentCart || data.orders.length > 0) && (
            <div class="card">
              <h2>Cart and orders</h2>
              {data.currentCart && <p>Open cart: {money(data.currentCart.totalCost, data.currentCart.currency ?? 'EUR')}, {data.currentCart.products.length} product(s)</p>}
              <ul>
                {data.orders.map((o) => (
                  <li>
                    Order {o.id}, {o.status}
                    {o.isSale ? ' (a sale)' : ''}: {o.totalCost}, {when(o.createdAt, clock)}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** Where the call's lead is with each ad platform (the Conversions screen lists them all). */
/** The call's way through its call flow: "Menu: pressed 2 (Support) → Ring support → Ben answered after 8 s". */
function FlowPathCard({ flow }: { flow: NonNullable<CallPage['flow']> }) {
  return (
    <div class="card" data-testid="flow-path">
      <h2>{flow.voicemail ? 'Call flow: a voicemail was left' : flow.answeredBy ? `Call flow: answered by ${flow.answeredBy.name}` : 'Call flow'}</h2>
      {flow.failure && <p class="error" role="alert">The flow failed ({flow.failure.error}): the call was forwarded to the destination. The caller heard no error.</p>}
      <ol class="flow-path">
        {flow.path.map((p) => (
          <li>
            <span class="muted">{p.at.slice(11, 19)}</span> <strong title={p.step}>{p.name ?? p.step}</strong> {p.outcome}
          </li>
        ))}
      </ol>
    </div>
  );
}

function AdsCard({ domain, marks }: { domain: string; marks: NonNullable<CallPage['adsConversions']> }) {
  const who = useWho();
  const clock = useClock(domain);
  const order: readonly string[] = ADS_PLATFORMS;
  return (
    <div class="card" data-testid="ads-conversions">
      <h2>Ad platforms</h2>
      <dl class="facts">
        {[...marks].sort((a, b) => order.indexOf(a.platform) - order.indexOf(b.platform)).map((m) => (
          <>
            <dt>{PLATFORM_NAMES[m.platform as AdsPlatform] ?? m.platform}</dt>
            <dd>
              <span class={`status state-${m.state}`}>{m.state}</span> <span class="muted">{when(m.at, clock)}</span>
              {m.reason && <div class="muted">{m.reason}</div>}
            </dd>
          </>
        ))}
      </dl>
      {may.manageDomain(who) && <p><a href={routeHash({ domain, screen: 'conversions', query: {} })}>All conversions</a></p>}
    </div>
  );
}

/** The call's recording: a player that seeks by byte ranges, its length, a download; or why there is none. */
function RecordingCard({ domain, callId, recording, transcribed, deleted }: { domain: string; callId: number; recording: NonNullable<CallRow['recording']>; transcribed: boolean; deleted: () => void }) {
  const src = `/manage/api/domains/${encodeURIComponent(domain)}/calls/${callId}/recording`;
  const who = useWho();
  const remove = () => {
    if (confirm('Delete this recording? Its audio (and its transcript) is gone for good; the call stays.')) api('DELETE', src.replace('/manage/api', '')).then(deleted, (err: Error) => alert(err.message));
  };
  return (
    <div class="card" data-testid="recording">
      <h2>Recording</h2>
      {recording.status === 'stored' ? (
        <>
          <audio controls preload="metadata" src={src} style="width:100%">
            {transcribed && <track kind="captions" default label="Transcript" src={src.replace(/recording$/, 'transcript?format=vtt')} />}
          </audio>
          <p class="muted">
            {recording.duration !== null && <>{duration(recording.duration)}. </>}
            <a href={`${src}?download=1`} download>
              Download
            </a>
            {may.manageDomain(who) && (
              <>
                {' · '}
                <button type="button" class="link" onClick={remove}>
                  Delete
                </button>
              </>
            )}
          </p>
        </>
      ) : recording.status === 'fetching' ? (
        <p class="muted">Being fetched from the carrier.</p>
      ) : recording.status === 'failed' ? (
        <p class="warn-text">{recording.error ?? 'The recording could not be fetched.'}</p>
      ) : (
        <p class="muted">Deleted.</p>
      )}
    </div>
  );
}
