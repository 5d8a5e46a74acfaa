// The number pools report: numbers held now and at peak, the hours a pool ran out, the size it
// should have; offline numbers and their calls.
import type { OfflineNumberReport, OnlinePoolReport } from '../../reports/pools.ts';
import { get, withQuery } from './api.ts';
import { count, phone, when } from './format.ts';
import { useClock } from './clock.ts';
import { typeName } from './number-types.ts';
import { useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';
import { rangeQuery, ReportHeading } from './range.tsx';
import type { Route } from './route.ts';
import type { DomainView } from './domain-view.ts';
import { BuyForm } from './carrier.tsx';

export function PoolsScreen({ route }: { route: Route }) {
  const path = `/domains/${encodeURIComponent(route.domain!)}`;
  const domain = useLoad(() => get<DomainView>(path), [route.domain]);
  const clock = useClock(route.domain);
  const { data, error, reload } = useLoad(() => get<{ online: OnlinePoolReport[]; offline: OfflineNumberReport[] }>(withQuery(`/domains/${encodeURIComponent(route.domain!)}/reports/pools`, rangeQuery(route))), [route.domain, route.query.from, route.query.to]);
  return (
    <section>
      <ReportHeading title="Number pools" route={route} />
      {error && <Failure message={error} />}
      {data && !data.online.length && <p class="muted">No online pool yet: add one in Settings.</p>}
      {data?.online.map((pool) => {
        const short = pool.recommendedSize > pool.numbers;
        return (
          <div class="card">
            <h2>
              {typeName(pool.type)} {pool.shared && <span class="muted">(shared: {count(pool.capacity)} visitors at once)</span>}
            </h2>
            <div class="tiles">
              <div class="tile"><span class="label">Numbers</span><strong>{count(pool.numbers)}</strong></div>
              <div class="tile"><span class="label">Held now</span><strong>{count(pool.heldNow)}</strong></div>
              <div class="tile"><span class="label">Peak held</span><strong>{count(pool.peakHeld)}</strong></div>
              <div class={`tile ${short ? 'warn' : ''}`}>
                <span class="label">Recommended size</span>
                <strong>{count(pool.recommendedSize)}</strong>
                <span class="note">{short ? `${count(pool.recommendedSize - pool.numbers)} more ${pool.recommendedSize - pool.numbers === 1 ? 'number' : 'numbers'} needed` : 'the pool is large enough'}</span>
              </div>
            </div>
            {short && domain.data?.carrierConnected && <BuyForm path={path} type={pool.type} count={pool.recommendedSize - pool.numbers} label="Buy the missing numbers" bought={reload} />}
            {pool.exhaustedHours.length ? (
              <table>
                <thead><tr><th>Hour the pool ran out</th><th class="num">Visitors refused a number</th></tr></thead>
                <tbody>
                  {pool.exhaustedHours.map((h) => (
                    <tr><td>{when(`${h.day} ${String(h.hour).padStart(2, '0')}:00`, clock)}</td><td class="num">{count(h.refused)}</td></tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p class="muted">The pool never ran out in this range.</p>
            )}
            {pool.heldBackFromOneAddress > 0 && (
              <p class="muted">
                {count(pool.heldBackFromOneAddress)} visitors were held back because their address already held as many numbers as one address may (Settings: numbers one
                address may hold). They are not counted in the recommended size.
              </p>
            )}
          </div>
        );
      })}
      {data && data.offline.length > 0 && (
        <div class="card">
          <h2>Offline numbers</h2>
          <table>
            <thead><tr><th>Number</th><th>Campaign</th><th>Forwards to</th><th class="num">Calls</th></tr></thead>
            <tbody>
              {data.offline.map((n) => (
                <tr><td>{phone(n.number)}</td><td>{n.description ?? <span class="muted">not assigned</span>}</td><td>{phone(n.destination)}</td><td class="num">{count(n.calls)}</td></tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
