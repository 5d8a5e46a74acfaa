import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { startBenchCollector } from '../test/bench/bench-collector.ts';
const bench = await startBenchCollector({ accounts: [{ name: 'B', domains: [{ name: 'bench.test', apiKey: 'bench-api-key', numbersPerAddress: 0, pools: [{ type: 1, usage: 'online', numbers: Array.from({ length: 200 }, (_, i) => `0800${String(i).padStart(6, '0')}`) }] }] }] }, 'open');
const base = await bench.listen();
const body = new URLSearchParams({ api_key: 'bench-api-key', visit_id: '0', ip: '203.0.113.7', url: 'https://bench.test/contact', page_title: 'Contact', is_mobile: 'false', referer_url: '', nr_phones: '1', direct_display: 'true', phones: '0123456789', expiration: '0', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36' }).toString();
const rate = Number(process.argv[2] ?? 800), seconds = 8;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1000 });
const u = new URL(base + '/ospView');
const lat: [number, number][] = [];
const start = performance.now(); const sent: Promise<void>[] = []; const count = rate * seconds;
const fire = (at: number) => new Promise<void>((resolve) => { const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } }, (res) => { res.resume(); res.on('end', () => { lat.push([at - start, performance.now() - at]); resolve(); }); }); req.end(body); });
await new Promise<void>((resolve) => { const tick = () => { const due = Math.min(count, Math.floor(((performance.now() - start) * rate) / 1000) + 1); while (sent.length < due) sent.push(fire(start + (sent.length * 1000) / rate)); if (sent.length < count) setTimeout(tick, 1); else resolve(); }; tick(); });
await Promise.all(sent);
const sorted = [...lat].sort((a, b) => a[1] - b[1]);
console.log('p50', sorted[Math.floor(sorted.length / 2)]![1].toFixed(1), 'p99', sorted[Math.floor(sorted.length * 0.99)]![1].toFixed(1));
// latency by 100 ms window: max
const win = new Map<number, number>();
for (const [t, l] of lat) { const w = Math.floor(t / 100); win.set(w, Math.max(win.get(w) ?? 0, l)); }
console.log([...win].sort((a, b) => a[0] - b[0]).map(([w, l]) => `${(w / 10).toFixed(1)}:${l.toFixed(0)}`).join(' '));
await bench.close();
