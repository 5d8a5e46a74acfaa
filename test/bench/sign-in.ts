// `npm run bench` (sign-in): does the time of a refused sign-in tell whether the user exists? 40
// sign-ins with a wrong password, alternating an unknown user and a known one, one at a time
// (closed loop: each waits for the last), over HTTP to a collector on the embedded database. Each
// comes from an address of its own (X-Forwarded-For behind a trusted proxy), so each pays for the
// first count of its rate-limit windows, as an enumerating attacker's first try at a name would.
// Goal: the two medians within 10 ms.
import { startBenchCollector } from './bench-collector.ts';

const ROUNDS = 20;
const bench = await startBenchCollector(
  { accounts: [{ name: 'Bench', users: [{ username: 'known@bench.test', password: 'the right password' }] }] },
  'sign_in',
  { proxyHops: 1, signInLimits: { perIp: 1e9, perUsernameAndIp: 1e9, signUpsPerIp: 1e9 } },
);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

try {
  const base = await bench.listen();
  const signIn = async (username: string, from: string) => {
    const started = performance.now();
    const res = await fetch(`${base}/manage/api/session`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': from }, body: JSON.stringify({ username, password: 'a wrong password' }) });
    await res.text();
    if (res.status !== 401) throw new Error(`expected 401, got ${res.status}`);
    return performance.now() - started;
  };
  await signIn('warm-up@bench.test', '192.0.2.1');
  const unknown: number[] = [];
  const known: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    unknown.push(await signIn(`nobody-${i}@bench.test`, `198.51.100.${i + 1}`));
    known.push(await signIn('known@bench.test', `203.0.113.${i + 1}`));
  }
  const [u, k] = [median(unknown), median(known)];
  console.log(`refused sign-in (closed loop, ${ROUNDS} each): unknown user median ${u.toFixed(1)} ms, known user with a wrong password median ${k.toFixed(1)} ms, difference ${Math.abs(u - k).toFixed(1)} ms (goal: under 10 ms)`);
} finally {
  await bench.close();
}
