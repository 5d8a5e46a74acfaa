// The back end's daily counters of a domain's traffic, kept at write time (MongoDB's computed
// pattern) so a report of a year reads a few hundred documents, never the views themselves:
// per local day of the domain, its visits and views, per source class and per keyword of the
// visit; its sales; and per online pool and local hour, the visitors refused a number and the
// peak of numbers held. Calls are counted by the data API's rollups (data/call-days.ts).
import type { Collections, DomainDoc, TrafficDayDoc, VisitDoc } from '../db/collections.ts';
import { dayKey, rollupKey } from '../data/call-days.ts';
import { localTime } from '../domains/time-zone.ts';

export class TrafficDays {
  constructor(private readonly c: Collections) {}

  /** One view of a visit (the first one starts it); bots are counted apart, out of every table. */
  async viewRecorded(domain: DomainDoc, visit: Pick<VisitDoc, 'attribution' | 'isBot'>, visitStarted: boolean, now: Date): Promise<void> {
    const inc: Record<string, number> = {};
    if (visit.isBot) inc.botViews = 1;
    else {
      const { source, keyword } = visit.attribution;
      const places = ['', `src.${source}.`, ...(keyword ? [`kw.${rollupKey(keyword)}.`] : [])];
      for (const place of places) {
        inc[`${place}views`] = 1;
        if (visitStarted) inc[`${place}visits`] = 1;
      }
    }
    await this.inc(domain, now, inc, { lastViewAt: now });
  }

  /** An order's first move to a sale status, credited to the source of its call or visit. */
  async saleRecorded(domain: DomainDoc, sourceClass: string, totalCost: number, now: Date): Promise<void> {
    const cents = Math.round(totalCost * 100);
    await this.inc(domain, now, { 'sales.orders': 1, 'sales.revenueCents': cents, [`src.${sourceClass}.orders`]: 1, [`src.${sourceClass}.revenueCents`]: cents });
  }

  /** A visitor refused a number because every number of the pool was held. */
  async poolExhausted(domain: DomainDoc, type: number, now: Date): Promise<void> {
    await this.inc(domain, now, { [`pools.${type}.refused.${hourOf(domain, now)}`]: 1 });
  }

  /** Numbers of the pool held at a moment (pool-sampler.ts): the hour's peak goes up to it. */
  async poolHeld(domain: DomainDoc, type: number, held: number, now: Date): Promise<void> {
    const { day } = localTime(now, domain.timeZone);
    await this.c.trafficDays.updateOne(
      { _id: dayKey(domain._id, day) },
      { $max: { [`pools.${type}.peak.${hourOf(domain, now)}`]: held }, $setOnInsert: { domainId: domain._id, day } },
      { upsert: true },
    );
  }

  /** Each day of a range that had traffic, oldest first. */
  async read(domainId: string, startDay: string, endDay: string, projection?: Record<string, 1>): Promise<TrafficDayDoc[]> {
    return this.c.trafficDays.find({ _id: { $gte: dayKey(domainId, startDay), $lte: dayKey(domainId, endDay) } }, { sort: { _id: 1 }, ...(projection ? { projection: { day: 1, ...projection } } : {}) }).toArray();
  }

  private async inc(domain: DomainDoc, now: Date, inc: Record<string, number>, max?: Record<string, Date>): Promise<void> {
    const { day } = localTime(now, domain.timeZone);
    await this.c.trafficDays.updateOne({ _id: dayKey(domain._id, day) }, { $inc: inc, ...(max ? { $max: max } : {}), $setOnInsert: { domainId: domain._id, day } }, { upsert: true });
  }
}

/** The local hour, two digits: a field name of the day's document. */
function hourOf(domain: DomainDoc, now: Date): string {
  return localTime(now, domain.timeZone).time.slice(0, 2);
}
