// `npm run bench` (callers part, run by data-api.ts on its 1,000,000 calls): the caller filter of the
// data API, the person lookup and page, and the first-time-caller check, each reading a caller's
// contacts by `_id` (data/caller-calls.ts, people/person-contacts.ts). The calls' people are written
// as the collector keeps them (BENCH_PEOPLE people, each with one number, about three calls each);
// before them, the same caller filter through an index of the calls, in the same run.
import type { BenchCollector } from './bench-collector.ts';
import type { CallDoc } from '../../collector/src/telephony/documents.ts';
import { personKeys } from '../../collector/src/people/people.ts';
import { callContact, contactEntry, keyEntry } from '../../collector/src/people/person-contacts.ts';
import { FirstCalls } from '../../collector/src/telephony/first-calls.ts';

export const BENCH_PEOPLE = 300_000;
const BATCH = 5000;

/** The person of the bench's call `i`, and their number. */
export const benchPersonOf = (i: number) => (i % BENCH_PEOPLE) + 1;
export const benchCallerOf = (i: number) => `06${String(i % BENCH_PEOPLE).padStart(8, '0')}`;

/** The people of the calls, their keys and their contacts' entries, in bulk. */
export async function seedPeople(bench: BenchCollector, domainId: string, calls: number, callOf: (i: number) => CallDoc): Promise<void> {
  const { c } = bench;
  for (let p = 0; p < Math.min(BENCH_PEOPLE, calls); p += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, BENCH_PEOPLE - p) }, (_, j) => p + j);
    await c.people.insertMany(ids.map((i) => ({ _id: benchPersonOf(i), domainId, createdAt: new Date(0) })));
    const keys = ids.map((i) => ({ _id: personKeys(domainId, { phone: benchCallerOf(i) })[0]!, personId: benchPersonOf(i) }));
    await c.personKeys.insertMany(keys);
    await c.personEntries.insertMany(keys.map((k) => ({ _id: keyEntry(k.personId, k._id), rev: 0 })));
  }
  for (let i = 0; i < calls; i += BATCH) {
    const entries = Array.from({ length: Math.min(BATCH, calls - i) }, (_, j) => callContact(callOf(i + j))).map((contact) => ({ _id: contactEntry(contact), rev: contact.rev, lead: contact.lead }));
    await c.personEntries.insertMany(entries, { ordered: false });
  }
}

async function timed(label: string, runs: number, run: () => Promise<string>): Promise<void> {
  const times: number[] = [];
  let said = '';
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    said = await run();
    times.push(performance.now() - t);
  }
  const median = [...times].sort((a, b) => a - b)[Math.floor(runs / 2)]!;
  console.log(`${label}: ${median.toFixed(1)} ms (median of ${runs}, closed loop, first ${times[0]!.toFixed(1)} ms)${said ? `, ${said}` : ''}`);
}

/** Each lookup of one caller, timed; `cookie`: a signed-in session of the back end. */
export async function timeCallerLookups(bench: BenchCollector, domainId: string, dataKey: string, cookie: string, runs: number): Promise<void> {
  const caller = benchCallerOf(7);
  const person = benchPersonOf(7);
  const data = new URLSearchParams({ api_key: dataKey, type: 'calls', start_date: '2025-01-01', end_date: '2025-12-31', page: '1', limit: '5000', caller_phone: caller });
  await timed('caller filter (data API over HTTP, a year)', runs, async () => {
    const body = (await (await fetch(`${bench.base}/data-api?${data}`)).json()) as { total_results: number };
    return `${body.total_results} calls`;
  });
  await timed('person lookup by number (GET …/people?phone=)', runs, async () => {
    const body = (await (await fetch(`${bench.base}/manage/api/domains/${domainId}/people?phone=${caller}`, { headers: { cookie } })).json()) as { personId: number };
    if (body.personId !== person) throw new Error(`the lookup found ${JSON.stringify(body)}`);
    return `person ${body.personId}`;
  });
  await timed("person's page, their calls and keys (GET …/people/:personId)", runs, async () => {
    const body = (await (await fetch(`${bench.base}/manage/api/domains/${domainId}/people/${person}`, { headers: { cookie } })).json()) as { events: unknown[] };
    return `${body.events.length} events`;
  });
  const firstCalls = new FirstCalls(bench.c);
  let fresh = 0;
  await timed('first-time-caller check, a caller who called before', runs, async () => `first: ${await firstCalls.isFirst(domainId, caller, 9_000_000 + ++fresh, new Date())}`);
  await timed('first-time-caller check, a new caller', runs, async () => `first: ${await firstCalls.isFirst(domainId, `07${String(++fresh).padStart(8, '0')}`, 9_000_000 + fresh, new Date())}`);

  // Before, in the same run: the caller's calls through an index of the calls (the query alone).
  const t = performance.now();
  await bench.c.calls.createIndex({ domainId: 1, caller: 1, startedAt: 1, _id: 1 });
  console.log(`(before) index {domainId, caller, startedAt, _id} built in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const range = { $gte: new Date(Date.UTC(2024, 11, 31, 23)), $lt: new Date(Date.UTC(2025, 11, 31, 23)) };
  await timed('(before) caller filter through that index (the query alone)', runs, async () => {
    const calls = await bench.c.calls.find({ domainId, caller, startedAt: range, status: { $ne: null } }, { hint: { domainId: 1, caller: 1, startedAt: 1, _id: 1 }, projection: { _id: 1 } }).toArray();
    return `${calls.length} calls`;
  });
  await bench.c.calls.dropIndex('domainId_1_caller_1_startedAt_1__id_1');
}
