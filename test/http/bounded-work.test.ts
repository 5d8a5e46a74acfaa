// One request never takes the collector down (issue 37): each family's routes are fed their worst
// legal input and the largest illegal one, beside the requests of the probe that once stopped the
// service (a data API range of 9,999 years, a `_ga` cookie of 60,000 digits, a 240 KB e-mail address,
// 15 KB forged origins...). Each gets a clear error in its family's envelope or a bounded answer,
// within a deadline of 1 s (they took seconds to minutes before), while a probe of /healthz keeps
// being answered. The work's own figures (each case's time, /healthz's slowest answer, under 100 ms
// on an idle machine) are measured by `npm run bench` (test/bench/worst-inputs.ts), not asserted here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, startCollector, testDatabase, type RunningCollector, type TestDatabase } from '../helpers/collector.ts';
import { commerceFixture } from '../helpers/fixtures.ts';
import { TELEPHONY_KEY } from '../helpers/telephony.ts';
import { HEALTH_PROBE_MS, worstInputs, type WorstInput } from '../helpers/worst-inputs.ts';

/** Far above what any case takes (milliseconds), far below what the probe's requests took. */
const DEADLINE_MS = 1000;

describe('the worst input of every route', () => {
  let t: TestDatabase;
  let collector: RunningCollector;
  let cases: WorstInput[];
  const health: { ms: number; status: number }[] = [];
  let probing = true;
  let probe: Promise<void>;

  beforeAll(async () => {
    t = await testDatabase('bounded_work');
    await seed(t.c, commerceFixture({ tracking: { users: [{ username: 'owner@shop.test', password: 'owner-password-1' }] } }));
    collector = await startCollector(t.db, { telephonyApiKey: TELEPHONY_KEY, signUp: true, delivery: { run: false } });
    cases = await worstInputs(collector.baseUrl);
    probe = (async () => {
      while (probing) {
        const started = performance.now();
        const status = await fetch(`${collector.baseUrl}/healthz`, { signal: AbortSignal.timeout(DEADLINE_MS) }).then((r) => r.status, () => 0);
        health.push({ ms: performance.now() - started, status });
        await new Promise((r) => setTimeout(r, HEALTH_PROBE_MS));
      }
    })();
  });
  afterAll(async () => {
    probing = false;
    await probe;
    await collector?.close();
    await t?.close();
  });

  it('answers each within the deadline, with its family\'s error or a bounded answer', async () => {
    const slow: string[] = [];
    for (const c of cases) {
      const started = performance.now();
      const res = await c.send(AbortSignal.timeout(DEADLINE_MS)).catch((err: Error) => err);
      const ms = performance.now() - started;
      if (res instanceof Error) {
        slow.push(`${c.name}: no answer within ${DEADLINE_MS} ms (${res.message})`);
        continue;
      }
      const text = await res.text();
      expect.soft({ name: c.name, status: res.status }).toEqual({ name: c.name, status: c.status });
      expect.soft(text, c.name).toMatch(c.answer);
      if (ms > DEADLINE_MS) slow.push(`${c.name}: ${Math.round(ms)} ms`);
    }
    expect(slow).toEqual([]);
    // /healthz was asked all along, and answered every time.
    expect(health.length).toBeGreaterThan(3);
    expect(health.filter((h) => h.status !== 200)).toEqual([]);
  });
});
