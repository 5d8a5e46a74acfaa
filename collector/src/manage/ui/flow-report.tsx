// The overview's call flows: calls by menu choice, by ring group (answer rate, average time to
// answer, missed) and by who answered, each answerer a link to their calls in the log; on a phone each
// row a card (`stacked`).
import type { flowReport } from '../../reports/flow-report.ts';
import { get, withQuery } from './api.ts';
import { count } from './format.ts';
import { useLoad } from './hooks.ts';
import { rangeQuery } from './range.tsx';
import { routeHash, type Route } from './route.ts';

type FlowReport = Awaited<ReturnType<typeof flowReport>>;

export function FlowReportCard({ route }: { route: Route }) {
  const { data } = useLoad(() => get<FlowReport>(withQuery(`/domains/${encodeURIComponent(route.domain!)}/reports/flows`, rangeQuery(route))), [route.domain, route.query.from, route.query.to]);
  if (!data || data.calls === 0) return null;
  const seconds = (s: number | null) => (s === null ? '—' : `${s} s`);
  const log = (answeredBy: string) => routeHash({ domain: route.domain, screen: 'calls', query: { from: route.query.from ?? '', to: route.query.to ?? '', answeredBy } });
  return (
    <div class="card flush" data-testid="flow-report">
      <h2>Call flows</h2>
      <p class="muted">
        {count(data.calls)} {data.calls === 1 ? 'call' : 'calls'} went through a flow{data.cut ? ' (the newest 20,000 of the range)' : ''}; nobody answered {count(data.nobody.missed)} (missed), {count(data.nobody.abandoned)} hung up in a menu or message (abandoned), {count(data.nobody.voicemail)} left a voicemail. <a href={log('nobody')}>Calls nobody answered</a>
      </p>
      <div class="columns">
        <table class="stacked">
          <thead>
            <tr><th>Menu choice</th><th class="num">Calls</th></tr>
          </thead>
          <tbody>
            {data.menuChoices.map((c) => (
              <tr><td data-label="Menu choice">{c.flow}: {c.name ? `${c.name}, ` : ''}{c.key} {c.label}</td><td data-label="Calls" class="num">{count(c.calls)}</td></tr>
            ))}
          </tbody>
        </table>
        <table class="stacked">
          <thead>
            <tr><th>Ring group</th><th class="num">Calls</th><th class="num">Answered</th><th class="num">Missed</th><th class="num">Time to answer</th></tr>
          </thead>
          <tbody>
            {data.ringGroups.map((g) => (
              <tr>
                <td data-label="Ring group">{g.flow}: {g.name ?? g.step} <span class="muted">({g.strategy})</span></td>
                <td data-label="Calls" class="num">{count(g.calls)}</td>
                <td data-label="Answered" class="num">{g.answerRate === null ? '—' : `${g.answerRate} %`}</td>
                <td data-label="Missed" class="num">{count(g.missed)}</td>
                <td data-label="Time to answer" class="num">{seconds(g.averageAnswerSeconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table class="stacked">
          <thead>
            <tr><th>Answered by</th><th class="num">Calls</th><th class="num">Time to answer</th></tr>
          </thead>
          <tbody>
            {data.answeredBy.map((a) => (
              <tr><td data-label="Answered by"><a href={log(a.name)}>{a.name}</a></td><td data-label="Calls" class="num">{count(a.calls)}</td><td data-label="Time to answer" class="num">{seconds(a.averageAnswerSeconds)}</td></tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
