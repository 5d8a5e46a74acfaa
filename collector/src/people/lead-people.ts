// People who became leads (ours): a person counts once, on the local day of their first contact that
// is a lead, credited to that contact's source class under each touch model (the traffic days'
// `leadPeople` counters, reports/documents.ts). Three calls and a form of one person: four contacts,
// one lead person. The person keeps what it added (`firstLead`), so that when their first lead
// changes (a verdict, a merge, an earlier contact joining them) the count moves by exactly that: a
// compare-and-set on the entry it was, read again when another refresh came between. An erased
// person keeps their count. Knows nothing of HTTP.
import { dayKey, domainKeys } from '../data/call-days.ts';
import { localTime } from '../domains/time-zone.ts';
import { sourceClassOf } from '../reports/call-sources.ts';
import { creditOf, modelPrefix, TOUCH_MODELS, type Credited } from '../reports/touch-models.ts';
import type { FirstLead, PeopleCollections } from './documents.ts';
import { contactOfEntry } from './contact-entries.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';
import type { FormCollections } from '../forms/documents.ts';

/** Where a person's first lead is read (person-contacts.ts): the entry `_id` of their first contact that is a lead. */
export interface FirstLeads {
  firstLead(personId: number): Promise<string | null>;
}

export class LeadPeople {
  constructor(
    private readonly c: PeopleCollections & DomainCollections & TelephonyCollections & ReportCollections & FormCollections,
    private readonly contacts: FirstLeads,
  ) {}

  async refresh(personId: number): Promise<void> {
    for (;;) {
      const person = await this.c.people.findOne({ _id: personId }, { projection: { domainId: 1, mergedInto: 1, erasedAt: 1, firstLead: 1 } });
      if (!person || person.erasedAt) return;
      const entry = person.mergedInto === undefined ? await this.contacts.firstLead(personId) : null;
      const was = person.firstLead ?? null;
      if (entry === (was?.entry ?? null)) return;
      const share = entry && (await this.shareOf(person.domainId, entry));
      const { matchedCount } = await this.c.people.updateOne({ _id: personId, 'firstLead.entry': was?.entry ?? null }, share ? { $set: { firstLead: share } } : { $unset: { firstLead: '' } });
      if (!matchedCount) continue; // another refresh came between: read again
      await Promise.all([was && this.add(person.domainId, was, -1), share && this.add(person.domainId, share, 1)]);
      return;
    }
  }

  /** Counts a domain's lead people again (after a change of its time zone): each person's first lead
   * at its local day. Run it while no contact of the domain is written. */
  async rebuild(domainId: string, timeZone: string): Promise<void> {
    await this.c.trafficDays.updateMany({ _id: domainKeys(domainId) }, { $unset: { leadPeople: '' } });
    for await (const person of this.c.people.find({ domainId, firstLead: { $exists: true } }, { projection: { firstLead: 1 } })) {
      const share = await this.shareOf(domainId, person.firstLead!.entry, timeZone);
      await this.c.people.updateOne({ _id: person._id }, share ? { $set: { firstLead: share } } : { $unset: { firstLead: '' } });
      if (share) await this.add(domainId, share, 1);
    }
  }

  /** The day and the counters a first lead adds one to: `total`, and its source class by each model. */
  private async shareOf(domainId: string, entry: string, zone?: string): Promise<FirstLead | null> {
    const { kind, id } = contactOfEntry(entry);
    const projection = { source: 1, keyword: 1, lastTouch: 1, firstTouch: 1, lastNonDirect: 1, startedAt: 1, submittedAt: 1 };
    const contact = (kind === 'call' ? await this.c.calls.findOne({ _id: id }, { projection }) : await this.c.forms.findOne({ _id: id }, { projection })) as (Credited & { startedAt?: Date; submittedAt?: Date }) | null;
    if (!contact) return null;
    const timeZone = zone ?? (await this.c.domains.findOne({ _id: domainId }, { projection: { timeZone: 1 } }))!.timeZone;
    const places = ['total', ...TOUCH_MODELS.map((model) => `${modelPrefix(model)}src.${sourceClassOf(creditOf(contact, model).source)}`)];
    return { entry, day: localTime((contact.startedAt ?? contact.submittedAt)!, timeZone).day, places };
  }

  private async add(domainId: string, share: FirstLead, n: number): Promise<void> {
    const inc = Object.fromEntries(share.places.map((place) => [`leadPeople.${place}`, n]));
    await this.c.trafficDays.updateOne({ _id: dayKey(domainId, share.day) }, { $inc: inc, $setOnInsert: { domainId, day: share.day } }, { upsert: true });
  }
}
