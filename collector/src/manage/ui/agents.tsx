// The account's call-center agents, as /agent-api/agentStats computes them.
import { get, withQuery } from './api.ts';
import { count, percent } from './format.ts';
import { useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';
import { rangeQuery, ReportHeading } from './range.tsx';
import type { AgentStats } from '@ringtrail/shared';
import type { Route } from './route.ts';

export function AgentsScreen({ route }: { route: Route }) {
  const { data, error } = useLoad(() => get<{ agents: AgentStats[] }>(withQuery('/reports/agents', rangeQuery(route))), [route.query.from, route.query.to]);
  return (
    <section>
      <ReportHeading title="Agents" route={route} />
      <p class="muted">Every domain of the account; agents are named by callStart or setAgentToCall.</p>
      {error && <Failure message={error} />}
      {data && !data.agents.length && <p class="muted">No agent took a call in this range.</p>}
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
