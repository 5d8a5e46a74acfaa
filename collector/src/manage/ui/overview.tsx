// The overview: how many visits, views and calls, how views turn into calls, per day, per source
// class, per keyword, campaign and landing page; form leads where the site sends forms, the people
// who became leads; sales and revenue from orders where there are any.
import type { Overview, Row } from '../../reports/overview.ts';
import { get, withQuery } from './api.ts';
import { CallsChart } from './chart.tsx';
import { useState } from 'preact/hooks';
import { change, count, day, money, percent, pointsChange, ratio, type Clock } from './format.ts';
import { useClock } from './clock.ts';
import { useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';
import { SOURCE_NAMES } from '../../reports/figures.ts';
import { rangeQuery, ReportHeading } from './range.tsx';
import type { ComponentChildren } from 'preact';
import { navigate, routeHash, type Route } from './route.ts';
import { FlowReportCard } from './flow-report.tsx';
import { AnalysisFiguresCard } from './overview-analysis.tsx';


export function OverviewScreen({ route }: { route: Route }) {
  const { data, error } = useLoad(() => get<Overview>(withQuery(`/domains/${encodeURIComponent(route.domain!)}/reports/overview`, { ...rangeQuery(route), model: route.query.model })), [route.domain, route.query.from, route.query.to, route.query.model]);
  const clock = useClock(route.domain);
  return (
    <section>
      <ReportHeading title="Overview" route={route} />
      {error && <Failure message={error} />}
      {data && <OverviewBody data={data} route={route} clock={clock} callsLog />}
      {data && <FlowReportCard route={route} />}
    </section>
  );
}

/** The overview's figures: also the page of a shared link, which has no model switch and no link
 * into the calls log (`callsLog`). */
export function OverviewBody({ data, route, clock, callsLog = false }: { data: Omit<Overview, 'model' | 'values' | 'analysis'> & { model?: Overview['model']; values?: Overview['values']; analysis?: Overview['analysis'] }; route: Route; clock: Clock; callsLog?: boolean }) {
  const sales = data.totals.orders > 0;
  const totalForms = (t: Overview['totals'] | undefined) => (t ? t.forms + t.formSpam : 0);
  const forms = totalForms(data.totals) + totalForms(data.previous?.totals) > 0;
  const [overlay, setOverlay] = useState(false);
  const before = data.previous?.totals;
  // A column of value once a person or a rule set one (issue 55): the rows' values, by name.
  const v = data.values;
  const beforeValue = v?.previousTotal ?? 0;
  const values = Boolean(v && v.total + beforeValue > 0);
  /** A table row's value: the one of its name in the values' list (at most 50 rows each). */
  const valueIn = <K extends string>(list: (Record<K, string> & { value: number })[] | undefined, field: K, name: string) => list?.find((x) => x[field] === name)?.value ?? 0;
  /** The same figure of the period before, and the change (a rate's in points). */
  const vs = (key: 'visits' | 'views' | 'calls' | 'newCallers' | 'leads' | 'formLeads' | 'leadPeople' | 'orders' | 'conversionRate') =>
    before && (key === 'conversionRate' ? `${percent(before[key])} before (${pointsChange(data.totals[key], before[key])})` : `${count(before[key] ?? 0)} before (${change(data.totals[key] ?? 0, before[key] ?? 0)})`);
  const spam = `${count(data.totals.spam)} spam call${data.totals.spam > 1 ? 's' : ''}, not counted`;
  return (
    <>
      <p class="muted">
        {day(data.from, clock)} to {day(data.to, clock)}, in the domain's time zone{data.previous && `; compared with ${day(data.previous.from, clock)} to ${day(data.previous.to, clock)}`}
      </p>
      <div class="tiles">
        <Tile label="Visits" value={count(data.totals.visits)} compared={vs('visits')} />
        <Tile label="Page views" value={count(data.totals.views)} compared={vs('views')} />
        <Tile label="Calls" value={count(data.totals.calls)} compared={vs('calls')} note={endedNote(data.totals)}>
          {data.totals.spam > 0 && (callsLog && route.domain ? (
            <a class="note" href={routeHash({ domain: route.domain, screen: 'calls', query: { from: data.from, to: data.to, spam: 'true' } })} data-testid="spam-calls">
              {spam}
            </a>
          ) : (
            <span class="note">{spam}</span>
          ))}
        </Tile>
        <Tile label="New callers" value={count(data.totals.newCallers)} compared={vs('newCallers')} note="their number's first call" />
        <Tile label={forms ? 'Call leads' : 'Leads'} value={count(data.totals.leads)} compared={vs('leads')} note={`${ratio(data.totals.leadRate)} per visit`} />
        {forms && <Tile label="Form leads" value={count(data.totals.formLeads)} compared={vs('formLeads')} note={`of ${count(data.totals.forms)} submission${data.totals.forms === 1 ? '' : 's'}${data.totals.formSpam ? `; ${count(data.totals.formSpam)} spam, not counted` : ''}`} />}
        <Tile label="People who became leads" value={count(data.totals.leadPeople ?? 0)} compared={vs('leadPeople')} note="each once, however many calls and forms" />
        <Tile label="Views → calls" value={percent(data.totals.conversionRate)} compared={vs('conversionRate')} note="calls from a page view, per view" />
        {sales && <Tile label="Sales" value={count(data.totals.orders)} compared={vs('orders')} note={money(data.totals.revenue, data.currency)} />}
        {values && v && <Tile label="Lead value" value={money(v.total, data.currency)} compared={data.previous && `${money(beforeValue, data.currency)} before (${change(v.total, beforeValue)})`} note="set on calls and forms by people and rules" />}
      </div>
      <div class="card">
        <div class="heading">
          <h2>Calls per day</h2>
          {data.previous && (
            <label class="check">
              <input type="checkbox" checked={overlay} onChange={(e) => setOverlay((e.target as HTMLInputElement).checked)} /> Overlay the previous period
            </label>
          )}
        </div>
        <CallsChart days={data.days} previous={overlay ? data.previous?.days : undefined} clock={clock} />
      </div>
      {data.model && <ModelSwitch route={route} model={data.model} />}
      <div class={sales || forms || values ? 'columns wide' : 'columns'}>
        <div class="card">
          <h2>By source</h2>
          <Table first="Source" rows={data.sources.filter((r) => r.visits || r.calls || r.formLeads || r.leadPeople || r.orders || v?.sources[r.source]).map((r) => ({ ...r, name: SOURCE_NAMES[r.source] ?? r.source, value: v?.sources[r.source] ?? 0 }))} sales={sales} forms={forms} values={values} people currency={data.currency} />
        </div>
        <div class="card">
          <h2>By keyword</h2>
          {data.keywords.length ? <Table first="Keyword" rows={data.keywords.map((r) => ({ ...r, name: r.keyword, value: valueIn(v?.keywords, 'keyword', r.keyword) }))} sales={sales} forms={forms} values={values} currency={data.currency} /> : <p class="muted">No keyword yet: keywords come from search engines' referrers and paid campaigns' utm_term.</p>}
        </div>
      </div>
      <div class={sales || forms || values ? 'columns wide' : 'columns'}>
        <div class="card" data-testid="campaigns">
          <h2>Campaigns</h2>
          {data.campaigns.length ? <Table first="Campaign" rows={data.campaigns.map((r) => ({ ...r, name: r.campaign, value: valueIn(v?.campaigns, 'campaign', r.campaign) }))} sales={sales} forms={forms} values={values} currency={data.currency} /> : <p class="muted">No campaign yet: campaigns are the utm_campaign of the links that bring visitors.</p>}
        </div>
        <div class="card" data-testid="landing-pages">
          <h2>Landing pages</h2>
          {data.landingPages.length ? <Table first="Page" rows={data.landingPages.map((r) => ({ ...r, name: r.path, value: valueIn(v?.landingPages, 'path', r.path) }))} sales={sales} forms={forms} values={values} currency={data.currency} /> : <p class="muted">No visit yet: a landing page is the first page of a visit.</p>}
        </div>
      </div>
      {(data.keyPhrases?.length ?? 0) > 0 && <LabelsTable rows={data.keyPhrases} title="Heard in calls" first="Key phrase" testId="key-phrases" />}
      {(data.tags?.length ?? 0) > 0 && <LabelsTable rows={data.tags} title="Calls by tag" first="Tag" testId="tags" />}
      {data.analysis && <AnalysisFiguresCard figures={data.analysis} />}
    </>
  );
}

/** Calls by the key phrases heard in their transcripts (issue 54), or by tag (issue 55), by source
 * class and by campaign as the touch model credits them. */
function LabelsTable({ rows, title, first, testId }: { rows: Overview['keyPhrases']; title: string; first: string; testId: string }) {
  const classes = [...new Set(rows.flatMap((r) => Object.keys(r.sources)))];
  return (
    <div class="card flush" data-testid={testId}>
      <h2>{title}</h2>
      <table class="stacked">
        <thead>
          <tr>
            <th>{first}</th>
            <th class="num">Calls</th>
            {classes.map((c) => (
              <th class="num">{SOURCE_NAMES[c] ?? c}</th>
            ))}
            <th>Campaigns</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr>
              <td data-label={first}>
                <span class="status key-phrase">{r.label}</span>
              </td>
              <td class="num" data-label="Calls">{count(r.calls)}</td>
              {classes.map((c) => (
                <td class="num" data-label={SOURCE_NAMES[c] ?? c}>{count(r.sources[c] ?? 0)}</td>
              ))}
              <td data-label="Campaigns">{r.campaigns.slice(0, 3).map((x) => `${x.campaign} (${count(x.calls)})`).join(', ') || <span class="muted">none</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const MODELS: [Overview['model'], string, string][] = [
  ['last-touch', 'Last touch', 'The visit the call came from'],
  ['last-non-direct', 'Last non-direct', "The visitor's latest visit that was not direct"],
  ['first-touch', 'First touch', "The visitor's first visit of the 90 days before"],
];

/** How the tables credit calls and sales; visits always count under their own source. */
function ModelSwitch({ route, model }: { route: Route; model: Overview['model'] }) {
  return (
    <div class="model-switch">
      <span class="range">
        {MODELS.map(([value, label, title]) => (
          <button type="button" class={model === value ? 'active' : ''} title={title} onClick={() => navigate({ ...route, query: { ...route.query, model: value === 'last-touch' ? '' : value } })}>
            {label}
          </button>
        ))}
      </span>
      <span class="muted"> Calls, form leads, people and sales credited to {MODELS.find(([value]) => value === model)![2].toLowerCase()}; visits to their own source.</span>
    </div>
  );
}

function Tile({ label, value, note, compared, children }: { label: string; value: string; note?: string; compared?: string | undefined; children?: ComponentChildren }) {
  return (
    <div class="tile" data-tile={label}>
      <span class="label">{label}</span>
      <strong>{value}</strong>
      {compared && <span class="note compared">{compared}</span>}
      {note && <span class="note">{note}</span>}
      {children}
    </div>
  );
}

/** `forms`: a column of form leads; `people`: one of the people who became leads (by source only). */
function Table({ first, rows, sales, forms, values, people = false, currency }: { first: string; rows: (Row & { name: string; value: number })[]; sales: boolean; forms: boolean; values: boolean; people?: boolean; currency: string }) {
  if (!rows.length) return <p class="muted">Nothing in this range yet.</p>;
  // On a phone each row is a small card, every column named: none is hidden off screen.
  return (
    <table class="stacked">
      <thead>
        <tr>
          <th>{first}</th>
          <th class="num">Visits</th>
          <th class="num">Calls</th>
          <th class="num" title="Calls from a number that never called before">New callers</th>
          <th class="num" title="Calls that are leads, by the lead rule or a person's verdict">{forms ? 'Call leads' : 'Leads'}</th>
          {forms && <th class="num" title="Form submissions that are leads: not spam">Form leads</th>}
          {people && <th class="num" title="People whose first lead, a call or a form, was in the period: each once">People</th>}
          <th class="num">Calls per visit</th>
          {sales && <th class="num">Sales</th>}
          {sales && <th class="num">Revenue</th>}
          {values && <th class="num" title="The values set on its calls and form submissions, by people and rules">Value</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr>
            <td class="name" data-label={first}>{r.name}</td>
            <td class="num" data-label="Visits">{count(r.visits)}</td>
            <td class="num" data-label="Calls">{count(r.calls)}</td>
            <td class="num" data-label="New callers">{count(r.newCallers)}</td>
            <td class="num" data-label={forms ? 'Call leads' : 'Leads'}>{count(r.leads)}</td>
            {forms && <td class="num" data-label="Form leads">{count(r.formLeads)}</td>}
            {people && <td class="num" data-label="People">{count(r.leadPeople ?? 0)}</td>}
            <td class="num" data-label="Calls per visit">{r.visits ? ratio(r.conversionRate) : '–'}</td>
            {sales && <td class="num" data-label="Sales">{count(r.orders)}</td>}
            {sales && <td class="num" data-label="Revenue">{money(r.revenue, currency)}</td>}
            {values && <td class="num" data-label="Value">{money(r.value, currency)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The calls tile's note: answered, then each way nobody answered that happened (issue 80), then the blocked ones. */
function endedNote(t: { answered: number; missed?: number; abandoned?: number; voicemails?: number; blocked: number }): string {
  const parts = [`${count(t.answered)} answered`, ...(t.missed ? [`${count(t.missed)} missed`] : []), ...(t.abandoned ? [`${count(t.abandoned)} abandoned`] : []), ...(t.voicemails ? [`${count(t.voicemails)} voicemail${t.voicemails === 1 ? '' : 's'}`] : [])];
  return `${parts.join(', ')}${t.blocked ? `; ${count(t.blocked)} blocked, not counted` : ''}`;
}
