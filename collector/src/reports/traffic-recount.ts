// The traffic counters of a domain counted again from its stored visits and views, exactly as
// `viewCounters` counts a view at write time: the repair after a process died with a second of
// summed counters not yet written (traffic-buffer.ts). `npm run rebuild-summaries` runs it.
// It sets the views' counters of the day documents and the keyword months' visits, and leaves the
// calls', sales' and pools' counters as they are. Run it while the domain takes no views.
import type { AnyBulkWriteOperation } from 'mongodb';
import type { Collections } from '../db/collections.ts';
import { dayKey, domainKeys } from '../data/call-days.ts';
import { localTime } from '../domains/time-zone.ts';
import type { ViewDoc, VisitDoc } from '../tracking/documents.ts';
import type { KeywordMonthDoc, TrafficDayDoc } from './documents.ts';
import { addAt } from './call-sources.ts';
import { monthKey } from './keyword-months.ts';
import { viewCounters } from './traffic-days.ts';

/** Visits whose views are read at once. */
const VISITS_AT_ONCE = 1000;

interface Recount {
  days: Map<string, { counts: Record<string, unknown>; lastViewAt: Date }>;
  months: Map<string, Record<string, number>>;
}

export async function recountTraffic(c: Collections, domainId: string, timeZone: string): Promise<number> {
  const recount: Recount = { days: new Map(), months: new Map() };
  let visits: VisitDoc[] = [];
  const cursor = c.visits.find({ domainId }, { projection: { attribution: 1, isBot: 1 }, batchSize: VISITS_AT_ONCE }).hint({ domainId: 1, createdAt: 1 });
  for await (const visit of cursor) {
    visits.push(visit);
    if (visits.length === VISITS_AT_ONCE) {
      await countViews(c, visits, timeZone, recount);
      visits = [];
    }
  }
  if (visits.length > 0) await countViews(c, visits, timeZone, recount);
  await writeDays(c, domainId, recount);
  await writeMonths(c, domainId, recount);
  return recount.days.size;
}

/** Each visit's views in the order they came: the first started the visit, and a visit is a bot's
 * from its first bot view on (as the visit's `isBot` became true then). */
async function countViews(c: Collections, visits: VisitDoc[], timeZone: string, recount: Recount): Promise<void> {
  const views = await c.views.find({ visitId: { $in: visits.map((v) => v._id) } }, { projection: { visitId: 1, createdAt: 1, isBot: 1 } }).toArray();
  const byVisit = new Map<number, ViewDoc[]>();
  for (const view of views) (byVisit.get(view.visitId) ?? byVisit.set(view.visitId, []).get(view.visitId)!).push(view);
  for (const visit of visits) {
    const ordered = (byVisit.get(visit._id) ?? []).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a._id - b._id);
    let isBot = false;
    ordered.forEach((view, i) => {
      isBot ||= view.isBot;
      const day = localTime(view.createdAt, timeZone).day;
      const counters = viewCounters({ attribution: visit.attribution, isBot }, i === 0);
      const entry = recount.days.get(day) ?? recount.days.set(day, { counts: {}, lastViewAt: view.createdAt }).get(day)!;
      for (const [path, n] of Object.entries(counters)) {
        if (path.startsWith('kw.')) addAt((recount.months.get(day.slice(0, 7)) ?? recount.months.set(day.slice(0, 7), {}).get(day.slice(0, 7))!) as Record<string, unknown>, [path.split('.')[1]!], n);
        addAt(entry.counts, path.split('.'), n);
      }
      if (view.createdAt > entry.lastViewAt) entry.lastViewAt = view.createdAt;
    });
  }
}

/** The view counters of each day document: set to the recount, those it has none of unset. */
async function writeDays(c: Collections, domainId: string, recount: Recount): Promise<void> {
  const stored = await c.trafficDays.find({ _id: domainKeys(domainId) }, { projection: { day: 1, src: 1, kw: 1 } }).toArray();
  const ops: AnyBulkWriteOperation<TrafficDayDoc>[] = [];
  for (const doc of stored) {
    if (recount.days.has(doc.day)) continue;
    ops.push({ updateOne: { filter: { _id: doc._id }, update: { $unset: viewFields(doc, {}) } } });
  }
  for (const [day, { counts, lastViewAt }] of recount.days) {
    const doc = stored.find((d) => d.day === day);
    const set: Record<string, unknown> = { lastViewAt };
    for (const field of ['views', 'visits', 'botViews'] as const) if (counts[field] !== undefined) set[field] = counts[field];
    for (const [place, n] of Object.entries((counts.src ?? {}) as Record<string, Record<string, number>>)) for (const [field, v] of Object.entries(n)) set[`src.${place}.${field}`] = v;
    for (const [key, n] of Object.entries((counts.kw ?? {}) as Record<string, Record<string, number>>)) set[`kw.${key}.visits`] = n.visits;
    const unset = doc ? viewFields(doc, set) : {};
    ops.push({ updateOne: { filter: { _id: dayKey(domainId, day) }, update: { $set: set, ...(Object.keys(unset).length ? { $unset: unset } : {}), $setOnInsert: { domainId, day } }, upsert: true } });
  }
  if (ops.length > 0) await c.trafficDays.bulkWrite(ops, { ordered: true });
}

/** The view counter fields a stored day has that `set` does not: its source classes' views and
 * visits, its keywords' visits (their calls are kept). */
function viewFields(doc: Pick<TrafficDayDoc, 'src' | 'kw'>, set: Record<string, unknown>): Record<string, ''> {
  const unset: Record<string, ''> = {};
  const gone = (path: string) => !(path in set) && (unset[path] = '');
  for (const f of ['views', 'visits', 'botViews', 'lastViewAt']) gone(f);
  for (const [place, counts] of Object.entries(doc.src ?? {})) for (const f of ['views', 'visits'] as const) if (counts[f] !== undefined) gone(`src.${place}.${f}`);
  for (const [key, counts] of Object.entries(doc.kw ?? {})) if (counts.visits !== undefined) gone(`kw.${key}.visits`);
  return unset;
}

/** The keyword months' visits: set to the recount, months without any unset. */
async function writeMonths(c: Collections, domainId: string, recount: Recount): Promise<void> {
  const ops: AnyBulkWriteOperation<KeywordMonthDoc>[] = [{ updateMany: { filter: { _id: domainKeys(domainId) }, update: { $unset: { visits: '' } } } }];
  for (const [month, visits] of recount.months) {
    ops.push({ updateOne: { filter: { _id: monthKey(domainId, month) }, update: { $set: { visits }, $setOnInsert: { domainId, month } }, upsert: true } });
  }
  await c.keywordMonths.bulkWrite(ops, { ordered: true });
}
