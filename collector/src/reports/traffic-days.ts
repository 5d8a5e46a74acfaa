// The back end's daily counters of a domain's traffic, kept at write time (MongoDB's computed
// pattern) so a report of a year reads a few hundred documents, never the views themselves:
// per local day of the domain, its visits and views, per source class and per keyword of the
// visit; its sales; and per online pool and local hour, the visitors refused a number and the
// peak of numbers held. Its calls are counted into the same document by call-sources.ts.
import type { UpdateFilter } from 'mongodb';
import type { Collections } from '../db/collections.ts';
import type { DomainDoc } from '../domains/documents.ts';
import type { TrafficDayDoc } from './documents.ts';
import type { VisitDoc } from '../tracking/documents.ts';
import { dayKey, rollupKey } from '../data/call-days.ts';
import { localTime } from '../domains/time-zone.ts';
import { KeywordMonths } from './keyword-months.ts';
import type { TrafficBuffer } from './traffic-buffer.ts';
import { sourceClassOf } from './call-sources.ts';
import { creditOf, MODEL_FIELD, TOUCH_MODELS, type Credited } from './touch-models.ts';

/** What one view of a visit (the first one starts it) adds to its day; bots are counted apart, out of every table. */
export function viewCounters(visit: Pick<VisitDoc, 'attribution' | 'isBot'>, visitStarted: boolean): Record<string, number> {
  if (visit.isBot) return { botViews: 1 };
  const inc: Record<string, number> = {};
  const { source, keyword } = visit.attribution;
  for (const place of ['', `src.${source}.`]) {
    inc[`${place}views`] = 1;
    if (visitStarted) inc[`${place}visits`] = 1;
  }
  // Keywords count visits only: the table shows visits and calls, and a day may have hundreds.
  if (keyword && visitStarted) inc[`kw.${rollupKey(keyword)}.visits`] = 1;
  return inc;
}

export class TrafficDays {
  constructor(
    private readonly c: Collections,
    /** Sums the views' counters in the process (traffic-buffer.ts); absent: one write per view. */
    private readonly buffer?: TrafficBuffer,
  ) {}

  async viewRecorded(domain: DomainDoc, visit: Pick<VisitDoc, 'attribution' | 'isBot'>, visitStarted: boolean, now: Date): Promise<void> {
    const counters = viewCounters(visit, visitStarted);
    const keyword = Object.keys(counters).find((path) => path.startsWith('kw.'))?.split('.')[1];
    if (this.buffer) {
      const { day } = localTime(now, domain.timeZone);
      this.buffer.addToDay(domain._id, day, counters, now);
      if (keyword) this.buffer.addToMonth(domain._id, day, 'visits', keyword, 1);
      return;
    }
    await Promise.all([
      this.inc(domain, now, counters, { lastViewAt: now }),
      keyword && new KeywordMonths(this.c).add(domain._id, localTime(now, domain.timeZone).day, 'visits', keyword, 1),
    ]);
  }

  /** An order's first move to a sale status, credited to the source of its call or visit: by the
   * last touch in `src`, by the other touch models in `sales.<model>`. */
  async saleRecorded(domain: DomainDoc, sale: Credited, totalCost: number, now: Date): Promise<void> {
    const cents = Math.round(totalCost * 100);
    const inc: Record<string, number> = { 'sales.orders': 1, 'sales.revenueCents': cents };
    for (const model of TOUCH_MODELS) {
      const field = MODEL_FIELD[model];
      const at = `${field ? `sales.${field}` : 'src'}.${sourceClassOf(creditOf(sale, model).source)}`;
      Object.assign(inc, { [`${at}.orders`]: 1, [`${at}.revenueCents`]: cents });
    }
    await this.inc(domain, now, inc);
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
