// `npm run bench`, the call flows part (issue 65): the collector as `npm start` runs it, in a process
// of its own, answering calls at a steady 50 calls a second (open loop: each latency from the
// request's scheduled time; a call's second request, after its key, from when the first answered),
// each call from a caller of its own:
//   - POST /telephony/flow, the flow's first decision (schedule, then the menu) and after the key
//     (the round-robin ring group's turn claimed, its members read, the call's path written);
//   - Twilio's signed webhooks for the same: /voice, then the <Gather action> (/flow?on=gather);
//   - beside them, GET /telephony/route for a number without a flow, and for one with a flow.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import twilio from 'twilio';
import { databaseLabel, startBenchCollector, startCollectorProcess } from './bench-collector.ts';
import { continueFlow, startFlow } from '../../collector/src/flows/engine.ts';
import { flowBodyIn } from '../../collector/src/flows/steps.ts';

const RATES = (process.env.BENCH_FLOW_RATES ?? '50,20').split(',').map(Number);
let RATE = RATES[0]!;
const SECONDS = Number(process.env.BENCH_FLOW_SECONDS ?? 10);
const KEY = 'bench-telephony-key-0123';
const TOKEN = 'bench-twilio-auth-token';
const ALL_DAY = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ from: '00:00', to: '24:00' }]]));
const MEMBERS = Array.from({ length: 5 }, (_, i) => ({ username: `agent${i}@bench.test`, role: 'agent', domains: ['flow.test'], phone: `061100000${i}` }));

const fixture = {
  accounts: [
    {
      name: 'Bench',
      users: MEMBERS,
      domains: [
        {
          name: 'flow.test',
          apiKey: 'flow-bench-api-key',
          timeZone: 'Europe/Paris',
          sitePhones: ['0123456789'],
          pools: [{ type: 1, usage: 'online', numbers: ['0800000001', '0800000002'] }],
          callFlows: [
            {
              name: 'Main line',
              start: 'hours',
              assignedTo: { numbers: ['0800000001'] },
              steps: {
                hours: { kind: 'schedule', week: ALL_DAY, holidays: [{ from: '2026-12-25', name: 'Christmas' }], open: 'menu', closed: 'voicemail' },
                menu: { kind: 'menu', prompt: { text: 'Press 1 for sales, 2 for support.' }, options: [{ key: '1', label: 'Sales', next: 'sales' }, { key: '2', label: 'Support', next: 'voicemail' }], default: 'voicemail' },
                sales: { kind: 'ring', strategy: 'round-robin', stickyDays: 30, targets: MEMBERS.map((m, i) => ({ member: m.username, weight: 1 + (i % 2) })), noAnswer: 'voicemail' },
                voicemail: { kind: 'voicemail' },
              },
            },
          ],
        },
      ],
    },
  ],
};

const agent = new http.Agent({ keepAlive: true, maxSockets: 500, timeout: 4000 });

/** One request; resolves with its answer's text (throws on a status other than 200). */
function request(url: string, method: 'GET' | 'POST', body: string | null, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: { ...headers, ...(body !== null ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`${res.statusCode}: ${text.slice(0, 200)}`))));
    });
    req.on('error', reject);
    if (body !== null) req.write(body);
    req.end();
  });
}

/** `call(n, scheduled)` for n = 0… at RATE a second for SECONDS (after a second of warm-up), each
 * recording the latencies it measures; the p50 and p99 of each name. */
async function paced(call: (n: number, record: (name: string, ms: number) => void) => Promise<void>): Promise<Map<string, { p50: number; p99: number; count: number; failed: number }>> {
  const latencies = new Map<string, number[]>();
  let failed = 0;
  const warmUp = RATE;
  const total = warmUp + RATE * SECONDS;
  const start = performance.now();
  const sent: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const scheduled = start + (n * 1000) / RATE;
    const wait = scheduled - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sent.push(call(n, (name, ms) => n >= warmUp && latencies.set(name, [...(latencies.get(name) ?? []), ms])).catch(() => void failed++));
  }
  await Promise.all(sent);
  return new Map(
    [...latencies].map(([name, list]) => {
      list.sort((a, b) => a - b);
      const at = (q: number) => list[Math.min(list.length - 1, Math.floor(list.length * q))]!;
      return [name, { p50: at(0.5), p99: at(0.99), count: list.length, failed }];
    }),
  );
}

const bench = await startBenchCollector(fixture, 'flows');
process.env.TELEPHONY_API_KEY = KEY;
process.env.TWILIO_AUTH_TOKEN = TOKEN;
const collector = await startCollectorProcess(bench);
const base = collector.base;
const bearer = { authorization: `Bearer ${KEY}` };
const json = { ...bearer, 'content-type': 'application/json' };
const caller = (n: number) => `06${String(20_000_000 + RATE * 100_000 + n).slice(-8)}`;
const report = (label: string, results: Map<string, { p50: number; p99: number; count: number; failed: number }>) => {
  for (const [name, r] of results) console.log(`  ${label}, ${name}: p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (${r.count} requests, ${r.failed} calls failed)`);
};
/** The engine's decisions alone, in this process (no database): the first turn, and the turn after key 1. */
function engineAlone(): void {
  const flow = { _id: 'flow', domainId: 'flow.test', ...flowBodyIn('FR').parse(fixture.accounts[0]!.domains[0]!.callFlows[0]), createdAt: new Date(), updatedAt: new Date(), by: 'bench' };
  const call = { at: new Date(), timeZone: 'Europe/Paris', country: 'FR', callerCountry: 'FR', callerNational: '612345678', firstTime: true, blocked: false, sourceClass: 'paid', campaign: null };
  const times: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    const t = performance.now();
    const first = startFlow(flow, call);
    const gather = first.actions.find((a) => a.kind === 'gather')!;
    continueFlow(flow, (gather as { at: { step: string; tries: number } }).at, { kind: 'key', key: '1' }, call);
    if (i >= 2000) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`  the engine alone (this process, no database): first turn and the turn after key 1: p50 ${(times[Math.floor(times.length / 2)]! * 1000).toFixed(1)} µs, p99 ${(times[Math.floor(times.length * 0.99)]! * 1000).toFixed(1)} µs`);
}

try {
  engineAlone();
  for (RATE of RATES) await atRate();
} finally {
  agent.destroy();
  await collector.stop();
  await bench.close();
}

async function atRate(): Promise<void> {
  console.log(`Call flows at ${RATE} calls/s for ${SECONDS} s, each caller their own (npm start in a process of its own; open loop; ${databaseLabel()}):`);
  report('GET /telephony/route', await paced(async (n, record) => {
    const t = performance.now();
    await request(`${base}/telephony/route?tracking_number=0800000002&caller_phone=${caller(n)}`, 'GET', null, bearer);
    record('a number without a flow', performance.now() - t);
  }));
  report('GET /telephony/route', await paced(async (n, record) => {
    const t = performance.now();
    await request(`${base}/telephony/route?tracking_number=0800000001&caller_phone=${caller(n)}`, 'GET', null, bearer);
    record('a number with a flow (flow: true, the first phone reached)', performance.now() - t);
  }));
  report('POST /telephony/flow', await paced(async (n, record) => {
    const call = { callRef: `bench-pbx-${RATE}-${n}`, trackingNumber: '0800000001', callerPhone: caller(n) };
    let t = performance.now();
    const first = JSON.parse(await request(`${base}/telephony/flow`, 'POST', JSON.stringify(call), json)) as { step: string };
    record('first decision (schedule, menu)', performance.now() - t);
    t = performance.now();
    await request(`${base}/telephony/flow`, 'POST', JSON.stringify({ ...call, step: first.step, input: '1' }), json);
    record('after key 1 (round-robin turn, legs)', performance.now() - t);
  }));
  report('Twilio', await paced(async (n, record) => {
    const url = `${base}/telephony/twilio/voice`;
    const params = { AccountSid: 'AC00000000000000000000000000000000', CallSid: `CA-bench-plain-${RATE}-${n}`, From: `+33${caller(n).slice(1)}`, To: '+33800000002', Direction: 'inbound', ApiVersion: '2010-04-01', CallStatus: 'ringing' };
    const t = performance.now();
    await request(url, 'POST', new URLSearchParams(params).toString(), { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.getExpectedTwilioSignature(TOKEN, url, params) });
    record("/voice of a number without a flow (today's forward; the comparison)", performance.now() - t);
  }));
  report('Twilio', await paced(async (n, record) => {
    const post = (path: string, params: Record<string, string>) => {
      const url = `${base}/telephony/twilio${path}`;
      return request(url, 'POST', new URLSearchParams(params).toString(), { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.getExpectedTwilioSignature(TOKEN, url, params) });
    };
    const params = { AccountSid: 'AC00000000000000000000000000000000', CallSid: `CA-bench-${RATE}-${n}`, From: `+33${caller(n).slice(1)}`, To: '+33800000001', Direction: 'inbound', ApiVersion: '2010-04-01' };
    let t = performance.now();
    const menu = await post('/voice', { ...params, CallStatus: 'ringing' });
    record('/voice (schedule, menu)', performance.now() - t);
    const action = /<Gather[^>]* action="([^"]+)"/.exec(menu)![1]!.replaceAll('&amp;', '&');
    t = performance.now();
    await post(`/${action}`, { ...params, CallStatus: 'in-progress', Digits: '1' });
    record('<Gather action> key 1 (round-robin turn, legs)', performance.now() - t);
  }));
}
