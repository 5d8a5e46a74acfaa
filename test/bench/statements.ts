// `npm run bench`: what one batch of sets costs as a bulkWrite of updates (one statement each)
// against one update statement (db/grouped-sets.ts), on a pool's slots, alone on the embedded
// database (or MONGODB_URI); and what one driver command costs the collector in CPU.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MongoClient } from 'mongodb';
import { GroupedSets } from '../../collector/src/db/grouped-sets.ts';
import { startEmbeddedDatabase } from '../../collector/src/db/embedded.ts';
import { databaseLabel } from './bench-collector.ts';

const SLOTS = 200;
const BATCH = 30;
const ROUNDS = 40;

interface Slot {
  _id: string;
  gen: number;
  freeAt: Date;
  visitId: number;
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ringtrail-bench-'));
const embedded = process.env.MONGODB_URI ? undefined : await startEmbeddedDatabase(dataDir);
const client = await new MongoClient(process.env.MONGODB_URI ?? embedded!.uri).connect();
const db = client.db(`bench_statements_${Date.now()}`);
const slots = db.collection<Slot>('slots');
await slots.insertMany(Array.from({ length: SLOTS }, (_, i) => ({ _id: `s${i}`, gen: 0, freeAt: new Date(0), visitId: 0 })));

const median = (ms: number[]) => ms.sort((a, b) => a - b)[Math.floor(ms.length / 2)]!;
/** Claims of BATCH slots at once, ROUNDS times: each names its slot's generation, as a claim does. */
async function claims(send: (batch: { _id: string; gen: number; visitId: number }[]) => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const ids = Array.from({ length: BATCH }, (_, i) => `s${(round * BATCH + i) % SLOTS}`);
    const gens = new Map((await slots.find({ _id: { $in: ids } }).toArray()).map((s) => [s._id, s.gen]));
    const start = performance.now();
    await send(ids.map((_id) => ({ _id, gen: gens.get(_id)!, visitId: round + 1 })));
    times.push(performance.now() - start);
  }
  return median(times);
}

console.log(`database: ${databaseLabel()}`);
const bulk = await claims(async (batch) => {
  await slots.bulkWrite(batch.map((c) => ({ updateOne: { filter: { _id: c._id, gen: c.gen }, update: { $set: { gen: c.gen + 1, visitId: c.visitId, freeAt: new Date() } } } })), { ordered: false });
});
const sets = new GroupedSets(slots);
const statement = await claims(async (batch) => {
  // All added at once: the first goes alone, the rest wait for it and go as one statement.
  await Promise.all(batch.map((c) => sets.set({ _id: c._id, gen: c.gen }, { gen: c.gen + 1, visitId: c.visitId, freeAt: new Date() })));
});
console.log(`${BATCH} claims as a bulkWrite of updates: median ${bulk.toFixed(1)} ms; as grouped sets (one statement after the first): median ${statement.toFixed(1)} ms`);

for (const concurrent of [1, 4, 16]) {
  const commands = 4000;
  let next = 0;
  const cpu = process.cpuUsage();
  await Promise.all(Array.from({ length: concurrent }, async () => {
    while (next++ < commands) await slots.findOne({ _id: 's0' });
  }));
  const used = process.cpuUsage(cpu);
  console.log(`one findOne by _id, ${concurrent} at once: ${((used.user + used.system) / commands).toFixed(0)} µs of the collector's CPU`);
}

await db.dropDatabase();
await client.close();
await embedded?.stop();
rmSync(dataDir, { recursive: true, force: true });
