import { startBenchCollector } from '../test/bench/bench-collector.ts';
const bench = await startBenchCollector({ accounts: [{ name: 'B', domains: [{ name: 'bench.test', apiKey: 'bench-api-key', numbersPerAddress: 0, pools: [{ type: 1, usage: 'online', numbers: Array.from({ length: 200 }, (_, i) => `0800${String(i).padStart(6, '0')}`) }] }] }] }, 'claim');
async function run(label: string, op: () => Promise<unknown>) {
  let n = 0; const end = Date.now() + 4000;
  await Promise.all(Array.from({ length: 20 }, async () => { while (Date.now() < end) { await op(); n++; } }));
  console.log(label.padEnd(30), (n / 4).toFixed(0), 'ops/s');
}
let i = 0;
await run('insertOne', () => bench.db.collection('x').insertOne({ a: i++, at: new Date() }));
await run('claim findOneAndUpdate sort', () => { const now = new Date(); return bench.c.slots.findOneAndUpdate({ domainId: 'bench.test', type: 1, code: null, freeAt: { $lte: now } }, { $inc: { gen: 1 }, $set: { freeAt: now, visitId: i++, phone: '0123456789', hold: null } }, { sort: { freeAt: 1, _id: 1 }, returnDocument: 'after' }); });
await run('findOneAndUpdate by _id', () => bench.c.slots.findOneAndUpdate({ _id: '0800000007' }, { $inc: { gen: 1 } }, { returnDocument: 'after' }));
await run('updateOne by _id', () => bench.c.slots.updateOne({ _id: '0800000008' }, { $inc: { gen: 1 } }));
await run('insert lease-like (4 idx)', () => bench.c.leases.insertOne({ _id: `l${i++}`, slot: 's', gen: i, domainId: 'd', number: 'n', code: null, type: 1, visitId: i, viewId: i, phone: 'p', clientData: null, assignedAt: new Date(), expiresAt: new Date() } as any));
await run('insert view-like', () => bench.c.views.insertOne({ _id: i++, domainId: 'bench.test', visitId: i, createdAt: new Date(), url: 'https://bench.test/contact', pageTitle: 'Contact', referrer: '', ip: '1.2.3.4', isMobile: false, userAgent: 'x', isBot: false, directDisplay: true, nrPhones: 1, phones: ['0123456789'], uniqueViewId: null, attribution: { source: 'direct', keyword: null } } as any));
await bench.close();
