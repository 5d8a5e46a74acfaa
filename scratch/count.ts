import autocannon from 'autocannon';
import { startBenchCollector } from '../test/bench/bench-collector.ts';
const bench = await startBenchCollector({ accounts: [{ name: 'B', domains: [{ name: 'bench.test', apiKey: 'bench-api-key', numbersPerAddress: 0, pools: [{ type: 1, usage: 'online', numbers: Array.from({ length: 200 }, (_, i) => `0800${String(i).padStart(6, '0')}`) }] }] }] }, 'count');
const base = await bench.listen();
const counts = new Map<string, number>();
const docs = new Map<string, number>();
bench.client.on('commandStarted', (e: any) => {
  const k = `${e.commandName} ${e.command[e.commandName]}`;
  counts.set(k, (counts.get(k) ?? 0) + 1);
  if (e.commandName === 'insert') docs.set(k, (docs.get(k) ?? 0) + e.command.documents.length);
});
const body = new URLSearchParams({ api_key: 'bench-api-key', visit_id: '0', ip: '203.0.113.7', url: 'https://bench.test/contact', page_title: 'Contact', is_mobile: 'false', referer_url: '', nr_phones: '1', direct_display: 'true', phones: '0123456789', expiration: '0', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36' }).toString();
const r = await autocannon({ url: base + '/ospView', method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, connections: 20, duration: 8 });
console.log('views', r.requests.total, 'req/s', r.requests.average);
for (const [k, n] of counts) console.log(k.padEnd(40), n, (n / r.requests.total).toFixed(3), docs.has(k) ? `docs ${docs.get(k)}` : '');
await bench.close();
