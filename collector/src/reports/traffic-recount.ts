// The traffic counters of a domain counted again from its stored visits and views, exactly as
// `viewCounters` counts a view at write time: the repair after a process died with a second of
// summed counters not yet written (traffic-buffer.ts). `npm run rebuild-summaries` runs it.
// It sets the views' counters of the day documents and the visits of the tables' months (keywords,
// campaigns, landing pages, each table at most MAX_KEYS values per document as at write time), and
// leaves the calls', sales' and pools' counters as they are. Run it while the domain takes no views.
import type { AnyBulkWriteOperation } from 'mongodb';
import { dayKey, domainKeys } from '../data/call-days.ts';
import { localTime } from '../domains/time-zone.ts';
import type { ViewDoc, VisitDoc, TrackingCollections } from '../tracking/documents.ts';
import type { KeywordMonthDoc, TrafficDayDoc, ReportCollections } from './documents.ts';
import { addAt } from './counted-places.ts';
import { addToMonth, monthKey, type MonthFields } from './dimension-months.ts';
import { limitedCounters, viewCounters } from './traffic-days.ts';
import { DAY_FIELD, DIMENSIONS, MONTH_BASE } from './dimensions.ts';
import { admitInto } from './key-limits.ts';

/** Visits whose views are read at once. */
const VISITS_AT_ONCE = 1000;

/** The keys admitted so far per table (key-limits.ts). */
type TableKeys = Map<string, Set<string>>;

interface Recount {
  days: Map<string, { counts: Record<string, unknown>; lastViewAt: Date; keys: TableKeys }>;
  months: Map<string, { fields: MonthFields; keys: TableKeys }>;
}

const DAY_TABLES = DIMENSIONS.map((d) => DAY_FIELD[d]);
const MONTH_VISITS = DIMENSIONS.map((d) => `${MONTH_BASE[d]}visits`);

export async function recountTraffic(c: ReportCollections & TrackingCollections, domainId: string, timeZone: string): Promise<number> {
  const recount: Recount = { days: new Map(), months: new Map() };
  let visits: VisitDoc[] = [];
  const cursor = c.visits.find({ domainId }, { projection: { attribution: 1, isBot: 1, landingUrl: 1 }, batchSize: VISITS_AT_ONCE }).hint({ domainId: 1, createdAt: 1 });
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
async function countViews(c: TrackingCollections, visits: VisitDoc[], timeZone: string, recount: Recount): Promise<void> {
  const views = await c.views.find({ visitId: { $in: visits.map((v) => v._id) } }, { projection: { visitId: 1, createdAt: 1, isBot: 1 } }).toArray();
  const byVisit = new Map<number, ViewDoc[]>();
  for (const view of views) (byVisit.get(view.visitId) ?? byVisit.set(view.visitId, []).get(view.visitId)!).push(view);
  for (const visit of visits) {
    const ordered = (byVisit.get(visit._id) ?? []).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a._id - b._id);
    let isBot = false;
    for (const [i, view] of ordered.entries()) {
      isBot ||= view.isBot;
      const day = localTime(view.createdAt, timeZone).day;
      const entry = recount.days.get(day) ?? recount.days.set(day, { counts: {}, lastViewAt: view.createdAt, keys: new Map() }).get(day)!;
      const month = recount.months.get(day.slice(0, 7)) ?? recount.months.set(day.slice(0, 7), { fields: {}, keys: new Map() }).get(day.slice(0, 7))!;
      const counters = await limitedCounters(viewCounters({ attribution: visit.attribution, isBot, landingUrl: visit.landingUrl }, i === 0), (scope, table, key) => admitInto((scope === 'day' ? entry : month).keys, table, key));
      for (const [path, n] of Object.entries(counters.day)) addAt(entry.counts, path.split('.'), n);
      for (const [path, n] of Object.entries(counters.month)) addToMonth(month.fields, path, n);
      if (view.createdAt > entry.lastViewAt) entry.lastViewAt = view.createdAt;
    }
  }
}

/** The view counters of each day document: set to the recount, those it has none of unset. */
async function writeDays(c: ReportCollections, domainId: string, recount: Recount): Promise<void> {
  const stored = await c.trafficDays.find({ _id: domainKeys(domainId) }, { projection: { day: 1, src: 1, ...Object.fromEntries(DAY_TABLES.map((t) => [t, 1])) } }).toArray();
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
    for (const table of DAY_TABLES) for (const [key, n] of Object.entries((counts[table] ?? {}) as Record<string, Record<string, number>>)) set[`${table}.${key}.visits`] = n.visits;
    const unset = doc ? viewFields(doc, set) : {};
    ops.push({ updateOne: { filter: { _id: dayKey(domainId, day) }, update: { $set: set, ...(Object.keys(unset).length ? { $unset: unset } : {}), $setOnInsert: { domainId, day } }, upsert: true } });
  }
  if (ops.length > 0) await c.trafficDays.bulkWrite(ops, { ordered: true });
}

/** The view counter fields a stored day has that `set` does not: its source classes' views and
 * visits, its tables' visits (their calls and sales are kept). */
function viewFields(doc: Pick<TrafficDayDoc, 'src' | 'kw' | 'cmp' | 'lp'>, set: Record<string, unknown>): Record<string, ''> {
  const unset: Record<string, ''> = {};
  const gone = (path: string) => !(path in set) && (unset[path] = '');
  for (const f of ['views', 'visits', 'botViews', 'lastViewAt']) gone(f);
  for (const [place, counts] of Object.entries(doc.src ?? {})) for (const f of ['views', 'visits'] as const) if (counts[f] !== undefined) gone(`src.${place}.${f}`);
  for (const table of DAY_TABLES) for (const [key, counts] of Object.entries(doc[table] ?? {})) if (counts.visits !== undefined) gone(`${table}.${key}.visits`);
  return unset;
}

/** The tables' visits of each month: set to the recount, months without any unset. */
async function writeMonths(c: ReportCollections, domainId: string, recount: Recount): Promise<void> {
  const ops: AnyBulkWriteOperation<KeywordMonthDoc>[] = [{ updateMany: { filter: { _id: domainKeys(domainId) }, update: { $unset: Object.fromEntries(MONTH_VISITS.map((f) => [f, ''])) } } }];
  for (const [month, { fields }] of recount.months) {
    if (!Object.keys(fields).length) continue;
    ops.push({ updateOne: { filter: { _id: monthKey(domainId, month) }, update: { $set: fields, $setOnInsert: { domainId, month } }, upsert: true } });
  }
  await c.keywordMonths.bulkWrite(ops, { ordered: true });
}
