// What the data API and the back end read instead of the calls themselves, kept at every call
// write (house/writes.ts) across three families: the daily rollups (data/call-days.ts), the hourly
// page buckets (data/call-pages.ts), each caller's calls (data/caller-calls.ts), the calls by source
// and keyword of the back end's reports (reports/call-sources.ts), and each person's contacts
// (people/person-contacts.ts).
import type { CallDoc, TelephonyCollections } from '../telephony/documents.ts';
import { CallSources } from '../reports/call-sources.ts';
import { FormSources } from '../reports/form-sources.ts';
import { CallDays } from '../data/call-days.ts';
import { CallPages } from '../data/call-pages.ts';
import { CallerCalls } from '../data/caller-calls.ts';
import { callContact, PersonContacts } from '../people/person-contacts.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { DataCollections } from '../data/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { PeopleCollections } from '../people/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';

export class CallSummaries {
  readonly days: CallDays;
  readonly pages: CallPages;
  readonly sources: CallSources;
  readonly callers: CallerCalls;
  readonly people: PersonContacts;

  constructor(private readonly c: DataCollections & DomainCollections & TelephonyCollections & ReportCollections & FormCollections & PeopleCollections) {
    this.days = new CallDays(c);
    this.pages = new CallPages(c);
    this.sources = new CallSources(c);
    this.callers = new CallerCalls(c);
    this.people = new PersonContacts(c);
  }

  /** A call was stored (`before` null) or changed from `before` to `after`. The domain's time zone
   * is read once (twice only when the call moved domains). */
  async record(before: CallDoc | null, after: CallDoc): Promise<void> {
    const afterZone = await this.timeZoneOf(after.domainId);
    const zones = { after: afterZone, before: before && before.domainId !== after.domainId ? await this.timeZoneOf(before.domainId) : afterZone };
    // A call placed from the back end (issue 68): listed by the data API and on its person's timeline,
    // counted by no report (days, sources, callers).
    if (after.direction === 'outbound') return void (await Promise.all([this.pages.record(before, after), this.people.record(before && callContact(before), callContact(after))]));
    await Promise.all([this.days.record(before, after, zones), this.pages.record(before, after), this.callers.record(before, after), this.sources.record(before, after, zones), this.people.record(before && callContact(before), callContact(after))]);
  }

  /** Recomputes a domain's summaries from its calls: after a crash between a call write and its
   * summaries, or a change of the domain's time zone. Run it while no call of the domain is reported.
   * Its form submissions and people who became leads are counted again too: their days are local. */
  async rebuild(domainId: string, timeZone: string): Promise<{ days: number; hours: number }> {
    const [days, hours] = await Promise.all([this.days.rebuild(domainId, timeZone), this.pages.rebuild(domainId), this.callers.rebuild(domainId), this.sources.rebuild(domainId, timeZone), new FormSources(this.c).rebuild(domainId, timeZone)]);
    await this.people.leadPeople.rebuild(domainId, timeZone);
    return { days, hours };
  }

  private async timeZoneOf(domainId: string): Promise<string> {
    return (await this.c.domains.findOne({ _id: domainId }, { projection: { timeZone: 1 } }))!.timeZone;
  }
}
