// The open loop of the view benchmark (run.ts), in a process of its own, as a site's visitors are:
// the collector's event loop serves the requests and does not also make them. Requests are sent at
// a steady pace, one every 1/rate seconds whatever the answers, over keep-alive connections opened
// as needed; each latency runs from the request's scheduled time, so a pause counts for every
// request it holds up; the first `warmUpSeconds` (connections opening) are not counted.
//
// Run as `tsx test/bench/open-loop.ts` with one JSON argument ({url, body, rate, seconds,
// warmUpSeconds, newAddresses}); prints one JSON line: the latencies' p50 and p99, the achieved
// rate, failures by reason.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { visitorAddress } from './addresses.ts';

export interface OpenLoopPlan {
  url: string;
  /** A form body, sent as application/x-www-form-urlencoded. */
  body: string;
  rate: number;
  seconds: number;
  warmUpSeconds: number;
  /** Each request from a client address of its own (the body's `ip`), as real visitors are: the
   * n-th request's is visitorAddress(firstAddress + n). */
  newAddresses?: boolean;
  firstAddress?: number;
}


export interface OpenLoopResult {
  achieved: number;
  p50: number;
  p99: number;
  failures: Record<string, number>;
}

async function openLoop({ url, body, rate, seconds, warmUpSeconds, newAddresses = false, firstAddress = 0 }: OpenLoopPlan): Promise<OpenLoopResult> {
  const warmUp = Math.round(rate * warmUpSeconds);
  const count = warmUp + Math.round(rate * seconds);
  // Idle sockets closed after 4 s, before the server's 5 s keep-alive timeout closes them: a request
  // sent on a socket the server is closing that moment fails with `read ECONNRESET`.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1000, timeout: 4000 });
  const target = new URL(url);
  const form = new URLSearchParams(body);
  const bodyOf = (n: number) => {
    if (!newAddresses) return body;
    form.set('ip', visitorAddress(firstAddress + n));
    return form.toString();
  };
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  const fail = (why: string) => (failures[why] = (failures[why] ?? 0) + 1);
  const start = performance.now();
  const sent: Promise<void>[] = [];
  const fire = (scheduledAt: number, counted: boolean, n: number) =>
    new Promise<void>((resolve) => {
      const payload = bodyOf(n);
      const headers = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(payload) };
      const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          if (counted) latencies.push(performance.now() - scheduledAt);
          const status = (JSON.parse(text) as { status: string }).status;
          if (status !== 'OK') fail(status);
          resolve();
        });
      });
      req.on('error', (err) => {
        fail(err.message);
        resolve();
      });
      req.end(payload);
    });
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(count, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
      while (sent.length < due) sent.push(fire(start + (sent.length * 1000) / rate, sent.length >= warmUp, sent.length));
      if (sent.length < count) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(sent);
  agent.destroy();
  const elapsed = (performance.now() - start) / 1000 - warmUpSeconds;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { achieved: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), failures };
}

console.log(JSON.stringify(await openLoop(JSON.parse(process.argv[2]!) as OpenLoopPlan)));
