// What the data API reads instead of the calls themselves, kept at every call write: the daily
// rollups (call-days.ts) and the hourly page buckets (call-pages.ts).
import type { CallDoc, Collections } from '../db/collections.ts';
import { CallDays } from './call-days.ts';
import { CallPages } from './call-pages.ts';

export class CallSummaries {
  readonly days: CallDays;
  readonly pages: CallPages;

  constructor(c: Collections) {
    this.days = new CallDays(c);
    this.pages = new CallPages(c);
  }

  /** A call was stored (`before` null) or changed from `before` to `after`. */
  async record(before: CallDoc | null, after: CallDoc): Promise<void> {
    await Promise.all([this.days.record(before, after), this.pages.record(before, after)]);
  }

  /** Recomputes a domain's summaries from its calls: after a crash between a call write and its
   * summaries, or a change of the domain's time zone. Run it while no call of the domain is reported. */
  async rebuild(domainId: string, timeZone: string): Promise<{ days: number; hours: number }> {
    const [days, hours] = await Promise.all([this.days.rebuild(domainId, timeZone), this.pages.rebuild(domainId)]);
    return { days, hours };
  }
}
