// The traffic counters of many views summed in the process and written once a second: one $inc
// per day document and per month of the tables (dimension-months.ts) for all the views of that second, instead of one per
// view (issue 25). A process that dies loses at most its last second of counters;
// `npm run rebuild-summaries` counts them again from the stored visits and views
// (traffic-recount.ts). The back end flushes before it reads, so what this process counted is in
// what it reports; another process's last second shows at its next flush.
import type { AnyBulkWriteOperation } from 'mongodb';
import { dayKey } from '../data/call-days.ts';
import type { Logger } from '../logger.ts';
import type { KeywordMonthDoc, TrafficDayDoc, ReportCollections } from './documents.ts';
import { monthKey } from './dimension-months.ts';

export const TRAFFIC_FLUSH_MS = 1000;

interface PendingDay {
  domainId: string;
  day: string;
  inc: Record<string, number>;
  lastViewAt: Date | null;
}

interface PendingMonth {
  domainId: string;
  month: string;
  inc: Record<string, number>;
}

export class TrafficBuffer {
  private days = new Map<string, PendingDay>();
  private months = new Map<string, PendingMonth>();
  private written: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly c: ReportCollections,
    private readonly log?: Logger,
  ) {}

  start(everyMs = TRAFFIC_FLUSH_MS): void {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), everyMs);
    this.timer.unref();
  }

  /** Writes what is left; the process is stopping. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  addToDay(domainId: string, day: string, inc: Record<string, number>, lastViewAt: Date): void {
    const key = dayKey(domainId, day);
    const pending = this.days.get(key) ?? this.days.set(key, { domainId, day, inc: {}, lastViewAt: null }).get(key)!;
    for (const [path, n] of Object.entries(inc)) pending.inc[path] = (pending.inc[path] ?? 0) + n;
    if (!pending.lastViewAt || lastViewAt > pending.lastViewAt) pending.lastViewAt = lastViewAt;
  }

  /** Adds to dotted counters of the month of `day` (`cmp.visits.<key>`). */
  addToMonth(domainId: string, day: string, inc: Record<string, number>): void {
    if (!Object.keys(inc).length) return;
    const month = day.slice(0, 7);
    const id = monthKey(domainId, month);
    const pending = this.months.get(id) ?? this.months.set(id, { domainId, month, inc: {} }).get(id)!;
    for (const [path, n] of Object.entries(inc)) pending.inc[path] = (pending.inc[path] ?? 0) + n;
  }

  /** Writes the counters summed so far; resolves once they are stored (flushes run one after another). */
  flush(): Promise<void> {
    this.written = this.written.then(
      () => this.write(),
      () => this.write(),
    );
    return this.written;
  }

  private async write(): Promise<void> {
    const days = [...this.days.values()];
    const months = [...this.months.values()];
    if (days.length === 0 && months.length === 0) return;
    this.days = new Map();
    this.months = new Map();
    const dayOps: AnyBulkWriteOperation<TrafficDayDoc>[] = days.map((p) => ({
      updateOne: { filter: { _id: dayKey(p.domainId, p.day) }, update: { $inc: p.inc, ...(p.lastViewAt ? { $max: { lastViewAt: p.lastViewAt } } : {}), $setOnInsert: { domainId: p.domainId, day: p.day } }, upsert: true },
    }));
    const monthOps: AnyBulkWriteOperation<KeywordMonthDoc>[] = months.map((p) => ({
      updateOne: { filter: { _id: monthKey(p.domainId, p.month) }, update: { $inc: p.inc, $setOnInsert: { domainId: p.domainId, month: p.month } }, upsert: true },
    }));
    try {
      await Promise.all([dayOps.length && this.c.trafficDays.bulkWrite(dayOps, { ordered: false }), monthOps.length && this.c.keywordMonths.bulkWrite(monthOps, { ordered: false })]);
    } catch (err) {
      // Not written again: a write that reached the database would count twice. The repair
      // command counts them from the stored views.
      this.log?.error({ err, days: days.length, months: months.length }, 'traffic counters not written: npm run rebuild-summaries counts them again');
      throw err;
    }
  }
}
