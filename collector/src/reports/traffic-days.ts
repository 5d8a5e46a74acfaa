// The back end's daily counters of a domain's traffic, kept at write time (MongoDB's computed
// pattern) so a report of a year reads a few hundred documents, never the views themselves:
// per local day of the domain, its visits and views, per source class, and its visits per keyword,
// campaign and landing page of the visit (dimensions.ts); its sales; and per online pool and local
// hour, the visitors refused a number and the peak of numbers held. Its calls are counted into the
// same document by call-sources.ts.
import type { UpdateFilter } from 'mongodb';
import type { DomainDoc } from '../domains/documents.ts';
import type { TrafficDayDoc, ReportCollections } from './documents.ts';
import type { VisitDoc } from '../tracking/documents.ts';
import { dayKey } from '../data/call-days.ts';
import { localTime } from '../domains/time-zone.ts';
import { DimensionMonths, monthKey } from './dimension-months.ts';
import type { TrafficBuffer } from './traffic-buffer.ts';
import { sourceClassOf } from './call-sources.ts';
import { creditOf, MODEL_FIELD, modelPrefix, TOUCH_MODELS, type Credited } from './touch-models.ts';
import { DAY_FIELD, DIMENSIONS, keyOf, MONTH_BASE, visitValues } from './dimensions.ts';
import { KeyLimits } from './key-limits.ts';

/** What a view counts: its visit, and the page the visit started on when this view started it. */
export type CountedVisit = Pick<VisitDoc, 'attribution' | 'isBot'> & { landingUrl?: string };

/** What one view of a visit (the first one starts it) adds to its day; bots are counted apart, out of every table. */
export function viewCounters(visit: CountedVisit, visitStarted: boolean): Record<string, number> {
  if (visit.isBot) return { botViews: 1 };
  const inc: Record<string, number> = {};
  for (const place of ['', `src.${visit.attribution.source}.`]) {
    inc[`${place}views`] = 1;
    if (visitStarted) inc[`${place}visits`] = 1;
  }
  // The tables count visits only: a day may have hundreds of keywords or pages.
  if (visitStarted) {
    const values = visitValues(visit.attribution, visit.landingUrl);
    for (const d of DIMENSIONS) if (values[d]) inc[`${DAY_FIELD[d]}.${keyOf(values[d])}.visits`] = 1;
  }
  return inc;
}

/** Where a table's key is admitted (key-limits.ts): in the day's table or the month's, named as in its document. */
export type Admit = (scope: 'day' | 'month', table: string, key: string) => string | Promise<string>;

/** A view's counters with each table's key as admitted (OTHER once a table is full), and the month
 * counters they add to: a day's `cmp.<key>.visits` is its month's `cmp.visits.<key>`. */
export async function limitedCounters(counters: Record<string, number>, admit: Admit): Promise<{ day: Record<string, number>; month: Record<string, number> }> {
  const day: Record<string, number> = {};
  const month: Record<string, number> = {};
  for (const [path, n] of Object.entries(counters)) {
    const [field, key, count] = path.split('.') as [string, string?, string?];
    const d = DIMENSIONS.find((dimension) => DAY_FIELD[dimension] === field);
    if (!d || !key || !count) {
      day[path] = n;
      continue;
    }
    day[`${field}.${await admit('day', field, key)}.${count}`] = n;
    const table = `${MONTH_BASE[d]}${count}`;
    month[`${table}.${await admit('month', table, key)}`] = n;
  }
  return { day, month };
}

export class TrafficDays {
  private readonly months: DimensionMonths;
  /** The values each table of a day and of a month holds: at most MAX_KEYS each (key-limits.ts). */
  private readonly dayKeys: KeyLimits;
  private readonly monthKeys: KeyLimits;

  constructor(
    private readonly c: ReportCollections,
    /** Sums the views' counters in the process (traffic-buffer.ts); absent: one write per view. */
    private readonly buffer?: TrafficBuffer,
  ) {
    this.months = new DimensionMonths(c);
    this.dayKeys = new KeyLimits((id) => this.visitKeys(id));
    this.monthKeys = new KeyLimits((id) => this.months.visitKeys(id));
  }

  async viewRecorded(domain: DomainDoc, visit: CountedVisit, visitStarted: boolean, now: Date): Promise<void> {
    const { day } = localTime(now, domain.timeZone);
    const counters = await limitedCounters(viewCounters(visit, visitStarted), (scope, table, key) =>
      scope === 'day' ? this.dayKeys.admit(dayKey(domain._id, day), table, key) : this.monthKeys.admit(monthKey(domain._id, day.slice(0, 7)), table, key),
    );
    if (this.buffer) {
      this.buffer.addToDay(domain._id, day, counters.day, now);
      this.buffer.addToMonth(domain._id, day, counters.month);
      return;
    }
    await Promise.all([this.inc(domain, now, counters.day, { lastViewAt: now }), this.months.add(domain._id, day, counters.month)]);
  }

  /** The keys each table of a day's document holds. */
  private async visitKeys(docId: string): Promise<Record<string, string[]>> {
    const fields = DIMENSIONS.map((d) => DAY_FIELD[d]);
    const doc = await this.c.trafficDays.findOne({ _id: docId }, { projection: Object.fromEntries(fields.map((f) => [f, 1])) });
    return Object.fromEntries(fields.map((f) => [f, Object.keys(doc?.[f] ?? {})]));
  }

  /** An order's first move to a sale status, credited to the source of its call or visit (by the last
   * touch in `src`, by the other touch models in `sales.<model>`), and to its keyword, campaign and
   * landing page (their days' `<table>.<key>.orders`, the other models under their prefix, and their months). */
  async saleRecorded(domain: DomainDoc, sale: Credited, totalCost: number, now: Date): Promise<void> {
    const cents = Math.round(totalCost * 100);
    const inc: Record<string, number> = { 'sales.orders': 1, 'sales.revenueCents': cents };
    const monthInc: Record<string, number> = {};
    for (const model of TOUCH_MODELS) {
      const field = MODEL_FIELD[model];
      const { source, ...values } = creditOf(sale, model);
      const at = `${field ? `sales.${field}` : 'src'}.${sourceClassOf(source)}`;
      Object.assign(inc, { [`${at}.orders`]: 1, [`${at}.revenueCents`]: cents });
      for (const d of DIMENSIONS) {
        if (!values[d]) continue;
        const key = keyOf(values[d]);
        Object.assign(inc, { [`${DAY_FIELD[d]}.${key}.${modelPrefix(model)}orders`]: 1, [`${DAY_FIELD[d]}.${key}.${modelPrefix(model)}revenueCents`]: cents });
        Object.assign(monthInc, { [`${MONTH_BASE[d]}${modelPrefix(model)}orders.${key}`]: 1, [`${MONTH_BASE[d]}${modelPrefix(model)}revenueCents.${key}`]: cents });
      }
    }
    await Promise.all([this.inc(domain, now, inc), this.months.add(domain._id, localTime(now, domain.timeZone).day, monthInc)]);
  }

  /** A visitor refused a number: every number of the pool was held (`refused`), or their address
   * already held its limit (`heldBack`, not demand the pool should grow for). */
  async numberRefused(domain: DomainDoc, type: number, why: 'exhausted' | 'address-limit', now: Date): Promise<void> {
    await this.inc(domain, now, { [`pools.${type}.${why === 'exhausted' ? 'refused' : 'heldBack'}.${hourOf(domain, now)}`]: 1 });
  }

  /** Numbers of the pool held at a moment (pool-sampler.ts): the hour's peak goes up to it. */
  async poolHeld(domain: DomainDoc, type: number, held: number, now: Date): Promise<void> {
    await this.update(domain, now, { $max: { [`pools.${type}.peak.${hourOf(domain, now)}`]: held } });
  }

  /** The documents of these days (those that exist), with only the fields asked for. */
  async readDays(domainId: string, days: string[], projection: Record<string, 1>): Promise<TrafficDayDoc[]> {
    if (!days.length) return [];
    return this.c.trafficDays.find({ _id: { $in: days.map((day) => dayKey(domainId, day)) } }, { projection: { day: 1, ...projection } }).toArray();
  }

  /** Each day of a range that had traffic, oldest first. */
  async read(domainId: string, startDay: string, endDay: string, projection?: Record<string, 1>): Promise<TrafficDayDoc[]> {
    return this.c.trafficDays.find({ _id: { $gte: dayKey(domainId, startDay), $lte: dayKey(domainId, endDay) } }, { sort: { _id: 1 }, ...(projection ? { projection: { day: 1, ...projection } } : {}) }).toArray();
  }

  private async inc(domain: DomainDoc, now: Date, inc: Record<string, number>, max?: Record<string, Date>): Promise<void> {
    await this.update(domain, now, { $inc: inc, ...(max ? { $max: max } : {}) });
  }

  /** Applies the update to the day of `now`, making its document the first time. */
  private async update(domain: DomainDoc, now: Date, update: UpdateFilter<TrafficDayDoc>): Promise<void> {
    const { day } = localTime(now, domain.timeZone);
    await this.c.trafficDays.updateOne({ _id: dayKey(domain._id, day) }, { ...update, $setOnInsert: { domainId: domain._id, day } }, { upsert: true });
  }
}

/** The local hour, two digits: a field name of the day's document. */
function hourOf(domain: DomainDoc, now: Date): string {
  return localTime(now, domain.timeZone).time.slice(0, 2);
}
