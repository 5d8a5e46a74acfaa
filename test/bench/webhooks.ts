// `npm run bench` (webhook part): push latency, from a cart change sent to the collector to its
// webhook push received by a call center on loopback, while an agent is on the call. Each change
// is sent after the previous push arrived (latency, not throughput). BENCH_PUSHES changes the count.
import { formatUtcDateTime } from '@ringtrail/shared';
import { startReceiver } from '../helpers/receiver.ts';
import { databaseLabel, startBenchCollector } from './bench-collector.ts';

const PUSHES = Number(process.env.BENCH_PUSHES ?? 300);
const TELEPHONY_KEY = 'bench-telephony-key-0123';
const receiver = await startReceiver();
const bench = await startBenchCollector(
  {
    accounts: [
      {
        name: 'Bench',
        callCenterApiKey: 'bench-cc-key',
        webhookUrl: receiver.url('/hook'),
        webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        domains: [{ name: 'push.test', apiKey: 'bench-api-key', customerKey: 'bench-customer-key', sitePhones: ['0123456789'], pools: [{ type: 1, usage: 'online', numbers: ['0800000001'] }] }],
      },
    ],
  },
  'push',
  { telephonyApiKey: TELEPHONY_KEY, delivery: { publicOnly: false } },
);

async function post(path: string, fields: Record<string, string | number>, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(bench.base + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])) });
  return res.json();
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

try {
  await bench.listen();
  const view = await post('/ospView', { api_key: 'bench-api-key', visit_id: 0, ip: '203.0.113.7', url: 'https://push.test/', page_title: 'Home', is_mobile: 'false', referer_url: '', nr_phones: 1, direct_display: 'true', phones: '0123456789' });
  const startDate = new Date(Math.ceil(Date.now() / 1000) * 1000);
  const number = '0800000001';
  await post('/telephony/calls', { callRef: 'bench-1', trackingNumber: number, callerPhone: '0611223344', startDate: formatUtcDateTime(startDate), status: 'SUCCESS' }, { authorization: `Bearer ${TELEPHONY_KEY}` });
  const start = await post('/agent-api/callStart', { apiKey: 'bench-cc-key', destinationPhone: number, startDate: formatUtcDateTime(startDate) });
  if (start.resultsNb !== 1) throw new Error(`callStart matched ${start.resultsNb} calls`);

  const latencies: number[] = [];
  for (let i = 1; i <= PUSHES; i++) {
    const sent = performance.now();
    const answer = await post('/api/customer-cart', { key: 'bench-customer-key', id: 'cart-1', currency: 'EUR', visit_id: view.visitId, is_logged_in: 1, 'products[0][id]': 'SKU', 'products[0][name]': 'Boiler', 'products[0][quantity]': i, 'products[0][price]': '10' });
    if (answer.status !== 'success') throw new Error(JSON.stringify(answer));
    const [push] = (await receiver.waitFor(i)).slice(-1);
    latencies.push(push!.at - sent);
  }
  latencies.sort((a, b) => a - b);
  console.log(`Database: ${databaseLabel()}. ${PUSHES} cart changes pushed to a webhook on loopback, one at a time:`);
  console.log(`push latency (cart change sent -> webhook received): median ${quantile(latencies, 0.5).toFixed(1)} ms, p95 ${quantile(latencies, 0.95).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`);
} finally {
  await bench.close();
  await receiver.close();
}
