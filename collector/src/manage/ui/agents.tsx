// The account's agents: who answered calls through call flows (issue 81), and the call-center
// agents, as /agent-api/agentStats computes them.
import { get, withQuery } from './api.ts';
import { count, duration, percent } from './format.ts';
import { useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';
import { rangeQuery, ReportHeading } from './range.tsx';
import type { AgentStats } from '@ringtrail/shared';
import type { Route } from './route.ts';

interface FlowAnswerer {
  member: string | null;
  name: string;
  callsAnswered: number;
  talkSeconds: number;
  averageRingSeconds: number | null;
}

export function AgentsScreen({ route }: { route: Route }) {
  const { data, error } = useLoad(() => get<{ agents: AgentStats[]; flowAnswerers: FlowAnswerer[] }>(withQuery('/reports/agents', rangeQuery(route))), [route.query.from, route.query.to]);
  return (
    <section>
      <ReportHeading title="Agents" route={route} />
      {error && <Failure message={error} />}
      <h2>Who answered through call flows</h2>
      <p class="muted">The members and numbers a call flow's ring group rang who picked up, on the domains you see.</p>
      {data && !data.flowAnswerers.length && <p class="muted">Nobody answered a call through a call flow in this range.</p>}
      {data && data.flowAnswerers.length > 0 && (
        <div class="card flush" data-testid="flow-answerers">
          <table>
            <thead>
              <tr><th>Answered by</th><th class="num">Calls answered</th><th class="num">Time talking</th><th class="num">Rang before answer</th></tr>
            </thead>
            <tbody>
              {data.flowAnswerers.map((a) => (
                <tr>
                  <td data-label="Answered by">{a.member ?? <>{a.name} <span class="muted small">(a number)</span></>}</td>
                  <td class="num" data-label="Calls answered">{count(a.callsAnswered)}</td>
                  <td class="num" data-label="Time talking">{duration(a.talkSeconds)}</td>
                  <td class="num" data-label="Rang before answer">{a.averageRingSeconds === null ? '–' : `${a.averageRingSeconds} s`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Call-center agents</h2>
      <p class="muted">Every domain of the account; agents are named by callStart or setAgentToCall (the call-center agent service).</p>
      {data && !data.agents.length && <p class="muted">No agent took a call through the call-center agent service in this range.</p>}
      {data && data.agents.length > 0 && (
        <div class="card flush">
          <table>
            <thead>
              <tr><th>Agent</th><th class="num">Calls taken</th><th class="num">Carts touched</th><th class="num">Cart value before</th><th class="num">Cart value after</th><th class="num">Orders by phone</th><th class="num">Sales</th><th class="num">Sales per call</th><th class="num">Revenue</th></tr>
            </thead>
            <tbody>
              {data.agents.map((a) => (
                <tr><td>{a.agent}</td><td class="num">{count(a.callsTaken)}</td><td class="num">{count(a.cartsTouched)}</td><td class="num">{a.cartValueBefore.toFixed(2)}</td><td class="num">{a.cartValueAfter.toFixed(2)}</td><td class="num">{count(a.ordersByPhone)}</td><td class="num">{count(a.sales)}</td><td class="num">{percent(a.conversionRate)}</td><td class="num">{a.revenue.toFixed(2)}</td></tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
