// `npm run bench` (worst inputs, issue 37): every case of test/helpers/worst-inputs.ts (each family's
// worst legal input, the largest illegal one, the requests of the probe that once stopped the
// collector), three rounds, one request at a time (closed loop), while /healthz is asked every
// 20 ms. Collector and client in one process on the embedded database: a request that holds the
// event loop holds /healthz's answer too. Goals: every case under 1 s, /healthz's slowest under 100 ms.
import { startBenchCollector } from './bench-collector.ts';
import { commerceFixture } from '../helpers/fixtures.ts';
import { TELEPHONY_KEY } from '../helpers/telephony.ts';
import { HEALTH_PROBE_MS, worstInputs } from '../helpers/worst-inputs.ts';

const ROUNDS = 3;
const bench = await startBenchCollector(commerceFixture({ tracking: { users: [{ username: 'owner@shop.test', password: 'owner-password-1' }] } }), 'worst_inputs', {
  telephonyApiKey: TELEPHONY_KEY,
  signUp: true,
  delivery: { run: false },
});

try {
  const base = await bench.listen();
  const cases = await worstInputs(base);
  const health: number[] = [];
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const started = performance.now();
      const answered = await fetch(`${base}/healthz`).then((r) => r.text(), () => null);
      if (answered !== null) health.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, HEALTH_PROBE_MS));
    }
  })();
  const slowest = new Map<string, number>();
  const stopProbe = async () => {
    probing = false;
    await probe;
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of cases) {
      const started = performance.now();
      const res = await c.send(AbortSignal.timeout(60_000));
      await res.text();
      const ms = performance.now() - started;
      if (res.status !== c.status) {
        await stopProbe();
        throw new Error(`${c.name}: HTTP ${res.status}, expected ${c.status}`);
      }
      slowest.set(c.name, Math.max(slowest.get(c.name) ?? 0, ms));
    }
  }
  await stopProbe();
  const sorted = [...health].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const ranked = [...slowest].sort((a, b) => b[1] - a[1]);
  console.log(`worst inputs (closed loop, ${cases.length} cases x ${ROUNDS} rounds), the slowest of each round; the five slowest cases:`);
  for (const [name, ms] of ranked.slice(0, 5)) console.log(`  ${ms.toFixed(1)} ms  ${name}`);
  console.log(`  every case under ${ranked[0]![1].toFixed(1)} ms (goal: under 1000 ms)`);
  console.log(`/healthz asked every ${HEALTH_PROBE_MS} ms meanwhile (${health.length} answers): p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, slowest ${sorted.at(-1)!.toFixed(1)} ms (goal: under 100 ms)`);
} finally {
  await bench.close();
}
